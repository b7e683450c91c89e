package io.formation.examples.web;

import jakarta.servlet.http.Cookie;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.Optional;
import java.util.regex.Pattern;
import org.springframework.http.HttpHeaders;
import org.springframework.http.ResponseCookie;

/**
 * The person using the page, known by a random id in a long-lived cookie, so that their formations
 * are theirs after a reload, in a second tab and after a restart of the backend. In a product this
 * is the signed-in user; the rest of the example does not change.
 *
 * @param id the person's id, 22 random URL-safe characters
 */
record Person(String id) {
  static final String COOKIE = "formation-person";
  private static final Pattern WELL_FORMED = Pattern.compile("[A-Za-z0-9_-]{22}");
  private static final SecureRandom RANDOM = new SecureRandom();

  /** The person the request's cookie names, if it names one. */
  static Optional<Person> of(HttpServletRequest request) {
    Cookie[] cookies = request.getCookies();
    if (cookies == null) {
      return Optional.empty();
    }
    for (Cookie cookie : cookies) {
      if (COOKIE.equals(cookie.getName()) && WELL_FORMED.matcher(cookie.getValue()).matches()) {
        return Optional.of(new Person(cookie.getValue()));
      }
    }
    return Optional.empty();
  }

  /** The person the request's cookie names, or a new one, given the cookie in the response. */
  static Person ofOrNew(HttpServletRequest request, HttpServletResponse response) {
    return of(request)
        .orElseGet(
            () -> {
              byte[] bytes = new byte[16];
              RANDOM.nextBytes(bytes);
              Person person =
                  new Person(Base64.getUrlEncoder().withoutPadding().encodeToString(bytes));
              // The longest life browsers keep (400 days); Strict: no other site sends it.
              ResponseCookie cookie =
                  ResponseCookie.from(COOKIE, person.id())
                      .path("/")
                      .httpOnly(true)
                      .sameSite("Strict")
                      .maxAge(java.time.Duration.ofDays(400))
                      .build();
              response.addHeader(HttpHeaders.SET_COOKIE, cookie.toString());
              return person;
            });
  }
}
