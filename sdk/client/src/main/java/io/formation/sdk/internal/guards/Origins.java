package io.formation.sdk.internal.guards;

import io.formation.sdk.internal.Port;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.Set;
import okhttp3.HttpUrl;

/** The base URL and the origins the token may go to. */
public final class Origins {
  /** What a refused URL with credentials is called: the credentials themselves are never shown. */
  public static final String CREDENTIALS = "credentials (user:password@)";

  private final HttpUrl base;
  private final HttpUrl v1;
  private final Set<String> trusted;
  private final Port port;

  public Origins(
      String baseUrl, Collection<String> trustedOrigins, boolean allowInsecureHttp, Port port) {
    this.port = port;
    this.base = withTrailingSlash(parse("base URL", baseUrl, allowInsecureHttp));
    if (base.query() != null || base.fragment() != null) {
      throw Port.invalid("base URL must not have a query or fragment");
    }
    this.v1 = base.newBuilder().addPathSegment("v1").build();
    Set<String> origins = new LinkedHashSet<>();
    origins.add(origin(base));
    for (String origin : trustedOrigins) {
      origins.add(origin(parse("trusted origin", origin, allowInsecureHttp)));
    }
    this.trusted = Set.copyOf(origins);
  }

  public HttpUrl base() {
    return base;
  }

  /** {@return how many origins calls may go to: the base URL's and the trusted ones} */
  public int count() {
    return trusted.size();
  }

  /** {@code base/v1/<segments...>}, each segment percent-encoded as exactly one path segment. */
  public HttpUrl endpoint(String... segments) {
    HttpUrl.Builder url = v1.newBuilder();
    for (String segment : segments) {
      url.addPathSegment(segment);
    }
    return url.build();
  }

  /** Resolves a link or action url the service returned against the base URL, exactly as given. */
  public HttpUrl resolve(String link) {
    HttpUrl url = base.resolve(link);
    if (url == null) {
      int colon = link.indexOf(':');
      boolean schemeLike = colon > 0 && link.substring(0, colon).matches("[A-Za-z][A-Za-z0-9+.-]*");
      throw port.untrustedOrigin(schemeLike ? link.substring(0, colon + 1) : "unusable");
    }
    if (!url.username().isEmpty() || !url.password().isEmpty()) {
      throw port.untrustedOrigin(CREDENTIALS);
    }
    if (!isTrusted(url)) {
      throw port.untrustedOrigin(origin(url));
    }
    return url;
  }

  public boolean isTrusted(HttpUrl url) {
    // The base URL's origin first, without building a string: it is every call's but a few.
    return sameOrigin(base, url) || trusted.contains(origin(url));
  }

  /** Whether the two URLs have one origin: what {@link #origin} compares, without the string. */
  public static boolean sameOrigin(HttpUrl a, HttpUrl b) {
    return a.port() == b.port() && a.scheme().equals(b.scheme()) && a.host().equals(b.host());
  }

  public static String origin(HttpUrl url) {
    return url.scheme() + "://" + url.host() + ":" + url.port();
  }

  /** Checks an id before it goes into a path; dot segments would change the path. */
  public static String requireId(String what, String id) {
    if (id == null || id.isBlank()) {
      throw Port.invalid(what + " must not be blank");
    }
    if (id.equals(".") || id.equals("..")) {
      throw Port.invalid(what + " must not be a dot segment: " + id);
    }
    return id;
  }

  private static HttpUrl parse(String what, String value, boolean allowInsecureHttp) {
    if (value == null || value.isBlank()) {
      throw Port.invalid(what + " must not be blank");
    }
    HttpUrl url = HttpUrl.parse(value.strip());
    // The value is echoed only when it cannot carry credentials.
    String shown = value.contains("@") ? "(not shown: it has an @)" : value;
    if (url == null) {
      throw Port.invalid(what + " is not an http(s) URL: " + shown);
    }
    if (!url.username().isEmpty() || !url.password().isEmpty()) {
      throw Port.invalid(
          what
              + " must not carry credentials (user:password@): the SDK authenticates with the"
              + " access token alone");
    }
    if (url.scheme().equals("http") && !allowInsecureHttp && !isLoopback(url.host())) {
      throw Port.invalid(
          what
              + " uses plain http for a host that is not loopback: "
              + shown
              + " (use https, or allowInsecureHttp(true) if you really mean it)");
    }
    return url;
  }

  private static HttpUrl withTrailingSlash(HttpUrl url) {
    String path = url.encodedPath();
    return path.endsWith("/") ? url : url.newBuilder().encodedPath(path + "/").build();
  }

  static boolean isLoopback(String host) {
    return host.equals("localhost")
        || host.endsWith(".localhost")
        || host.equals("::1")
        || host.matches("127\\.\\d{1,3}\\.\\d{1,3}\\.\\d{1,3}");
  }
}
