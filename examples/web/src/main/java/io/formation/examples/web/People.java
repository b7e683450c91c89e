package io.formation.examples.web;

import jakarta.servlet.http.Cookie;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Base64;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import org.springframework.http.HttpHeaders;
import org.springframework.http.ResponseCookie;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

/**
 * The people this backend issued an identity to, in the {@code people} table, and the cookie that
 * names each one. Only the backend issues ids: a cookie naming an id it never issued (planted in a
 * browser by someone who wants to read what that browser starts) is not adopted, and the next start
 * gets a fresh id, as a servlet container or Spring Session does with an unknown session id.
 *
 * <p>The cookie is {@code HttpOnly}, {@code SameSite=Strict}, and {@code Secure} with the {@code
 * __Host-} prefix (so no subdomain and no plain-http page can set it), except on plain http to
 * localhost, the local development of the README: there it is {@code formation-person}, without
 * {@code Secure}. Behind a proxy, pass on the original host and scheme ({@code
 * server.forward-headers-strategy}), as Spring Boot asks; plain http to any other host still gets
 * the secure cookie, which a browser does not keep over http.
 */
@Component
final class People {
  static final String COOKIE = "formation-person";
  static final String SECURE_COOKIE = "__Host-" + COOKIE;

  private static final Pattern WELL_FORMED = Pattern.compile("[A-Za-z0-9_-]{22}");
  // Browsers differ on Secure cookies over http://localhost (Safari, curl and Java's client keep
  // or send none), so local development gets a plain one.
  private static final Set<String> LOOPBACK = Set.of("localhost", "127.0.0.1", "[::1]", "::1");
  // The longest life browsers keep.
  private static final Duration LIFE = Duration.ofDays(400);
  private static final SecureRandom RANDOM = new SecureRandom();

  private final JdbcClient jdbc;
  private final Clock clock = Clock.systemUTC();

  People(JdbcClient jdbc) {
    this.jdbc = jdbc;
  }

  /** The person the request's cookie names, if it names one this backend issued. */
  Optional<Person> of(HttpServletRequest request) {
    Cookie[] cookies = request.getCookies();
    if (cookies == null) {
      return Optional.empty();
    }
    String name = cookieName(request);
    for (Cookie cookie : cookies) {
      if (name.equals(cookie.getName())
          && WELL_FORMED.matcher(cookie.getValue()).matches()
          && issued(cookie.getValue())) {
        return Optional.of(new Person(cookie.getValue()));
      }
    }
    return Optional.empty();
  }

  /** The person the request's cookie names, or a newly issued one, given the cookie. */
  Person ofOrNew(HttpServletRequest request, HttpServletResponse response) {
    return of(request).orElseGet(() -> issue(request, response));
  }

  /** The cookie's name for this request: {@code __Host-} outside local development. */
  private static String cookieName(HttpServletRequest request) {
    return local(request) ? COOKIE : SECURE_COOKIE;
  }

  private static boolean local(HttpServletRequest request) {
    return !request.isSecure() && LOOPBACK.contains(request.getServerName());
  }

  private boolean issued(String id) {
    return jdbc.sql("SELECT COUNT(*) FROM people WHERE id = ?")
            .param(id)
            .query(Integer.class)
            .single()
        > 0;
  }

  private Person issue(HttpServletRequest request, HttpServletResponse response) {
    byte[] bytes = new byte[16];
    RANDOM.nextBytes(bytes);
    Person person = new Person(Base64.getUrlEncoder().withoutPadding().encodeToString(bytes));
    jdbc.sql("INSERT INTO people (id, issued_at) VALUES (?, ?)")
        .param(person.id())
        .param(OffsetDateTime.ofInstant(clock.instant(), ZoneOffset.UTC))
        .update();
    boolean local = local(request);
    // Strict: no other site sends it. No Domain: this host only.
    ResponseCookie cookie =
        ResponseCookie.from(local ? COOKIE : SECURE_COOKIE, person.id())
            .path("/")
            .secure(!local)
            .httpOnly(true)
            .sameSite("Strict")
            .maxAge(LIFE)
            .build();
    response.addHeader(HttpHeaders.SET_COOKIE, cookie.toString());
    return person;
  }
}
