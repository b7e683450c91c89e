package io.formation.spring.autoconfigure;

import io.formation.sdk.FormationClient;
import io.formation.sdk.TokenProvider;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Puts the {@code formation.*} properties on a client builder. The SDK's builder owns every rule
 * (what a timeout or a URL may be); this only says which property broke one, so that a bad value
 * stops the application with the property's name and the SDK's reason, and never with the token.
 */
final class PropertiesToBuilder {
  static final String BASE_URL = "formation.base-url";
  static final String ACCESS_TOKEN = "formation.access-token";

  /** A placeholder as Spring writes one, {@code ${NAME}} or {@code ${NAME:default}}: its name. */
  private static final Pattern UNRESOLVED = Pattern.compile("\\$\\{([^}:]+)");

  private PropertiesToBuilder() {}

  /**
   * Applies the properties other than where the service is and how to authenticate.
   *
   * @throws InvalidFormationPropertyException naming the property the builder refused
   */
  static void applySettings(FormationProperties properties, FormationClient.Builder builder) {
    set("formation.user-agent", properties.getUserAgent(), builder::userAgent);
    set("formation.connect-timeout", properties.getConnectTimeout(), builder::connectTimeout);
    set("formation.read-timeout", properties.getReadTimeout(), builder::readTimeout);
    set("formation.write-timeout", properties.getWriteTimeout(), builder::writeTimeout);
    set("formation.call-timeout", properties.getCallTimeout(), builder::callTimeout);
    set("formation.max-retries", properties.getMaxRetries(), builder::maxRetries);
    set("formation.max-retry-after", properties.getMaxRetryAfter(), builder::maxRetryAfter);
    set(
        "formation.max-response-size",
        properties.getMaxResponseSize(),
        size -> builder.maxResponseBytes(size.toBytes()));
    FormationProperties.RequestBudget budget = properties.getRequestBudget();
    if (budget.getRequestsPerSecond() != null || budget.getBurst() != null) {
      if (budget.getRequestsPerSecond() == null || budget.getBurst() == null) {
        String missing =
            budget.getBurst() == null
                ? "formation.request-budget.burst"
                : "formation.request-budget.requests-per-second";
        throw new InvalidFormationPropertyException(
            missing, "A request budget needs both requests-per-second and burst");
      }
      try {
        builder.requestBudget(budget.getRequestsPerSecond(), budget.getBurst());
      } catch (IllegalArgumentException e) {
        boolean rate = e.getMessage() != null && e.getMessage().startsWith("requestsPerSecond");
        throw new InvalidFormationPropertyException(
            "formation.request-budget." + (rate ? "requests-per-second" : "burst"), e.getMessage());
      }
    }
    for (String origin : properties.getTrustedOrigins()) {
      builder.trustOrigin(origin);
    }
    builder.allowInsecureHttp(properties.isAllowInsecureHttp());
  }

  /**
   * Applies where the service is and how to authenticate: a {@link TokenProvider} bean wins over
   * {@code formation.access-token}.
   */
  static void applyService(
      FormationProperties properties,
      TokenProvider tokenProvider,
      FormationClient.Builder builder) {
    String baseUrl = properties.getBaseUrl();
    if (baseUrl == null || baseUrl.isBlank()) {
      throw new InvalidFormationPropertyException(
          BASE_URL,
          "The service's base URL is required, such as https://api.example.com (or"
              + " FORMATION_BASE_URL). To develop without the service, put formation-sandbox on the"
              + " class path and set formation.sandbox.enabled=true.");
    }
    requireResolved(BASE_URL, baseUrl, "a URL");
    builder.baseUrl(baseUrl.strip());
    if (tokenProvider != null) {
      builder.tokenProvider(tokenProvider);
      return;
    }
    String token = properties.getAccessToken();
    if (token == null) {
      throw new InvalidFormationPropertyException(
          ACCESS_TOKEN,
          "An access token is required with formation.base-url: set formation.access-token (or"
              + " FORMATION_ACCESS_TOKEN), or define a TokenProvider bean.");
    }
    requireResolved(ACCESS_TOKEN, token, "a token, or define a TokenProvider bean");
    try {
      builder.accessToken(token);
    } catch (IllegalArgumentException e) {
      throw new InvalidFormationPropertyException(ACCESS_TOKEN, e.getMessage());
    }
  }

  /**
   * Refuses a value that still holds a {@code ${...}} placeholder: Spring leaves one it cannot
   * resolve as it is, and the client would then send it as the token (every call a 401) or fail on
   * it as a URL. Neither a URL nor an OAuth token contains {@code ${}, so printing the placeholder's
   * name shows no secret.
   */
  private static void requireResolved(String property, String value, String what) {
    Matcher placeholder = UNRESOLVED.matcher(value);
    if (placeholder.find()) {
      String name = placeholder.group(1).strip();
      throw new InvalidFormationPropertyException(
          property,
          property
              + " is the placeholder ${"
              + name
              + "}, and nothing resolves it: set the environment variable "
              + name
              + " (or a property of that name) to "
              + what
              + ".");
    }
  }

  /**
   * Builds the client, naming the property behind a URL the SDK refuses. The SDK's messages name
   * the URL's role ("base URL ...", "trusted origin ...") and never show a URL carrying
   * credentials.
   */
  static FormationClient build(FormationClient.Builder builder) {
    try {
      return builder.build();
    } catch (IllegalArgumentException e) {
      String message = String.valueOf(e.getMessage());
      if (message.startsWith("trusted origin")) {
        throw new InvalidFormationPropertyException("formation.trusted-origins", message);
      }
      if (message.startsWith("base URL")) {
        throw new InvalidFormationPropertyException(BASE_URL, message);
      }
      if (message.startsWith("accessToken")) {
        throw new InvalidFormationPropertyException(ACCESS_TOKEN, message);
      }
      throw e;
    }
  }

  /**
   * Gives the setter the property's value, if it is set; a value the setter refuses stops the
   * application naming the property, with the setter's reason.
   *
   * @throws InvalidFormationPropertyException if the setter throws {@link IllegalArgumentException}
   */
  static <T> void set(String property, T value, Consumer<T> setter) {
    if (value == null) {
      return;
    }
    try {
      setter.accept(value);
    } catch (IllegalArgumentException e) {
      throw new InvalidFormationPropertyException(property, e.getMessage());
    }
  }
}
