package io.formation.spring.autoconfigure;

import java.util.Locale;
import org.springframework.boot.actuate.endpoint.SanitizableData;
import org.springframework.boot.actuate.endpoint.SanitizingFunction;

/**
 * Masks the access token in Actuator's {@code configprops} and {@code env} endpoints, whatever
 * their {@code show-values}: under {@code formation.access-token} however it is spelt ({@code
 * formation.accessToken}, {@code FORMATION_ACCESS_TOKEN}), and any other value that holds the
 * configured token (a property the token is read from through a placeholder). Boot 3.5 and 4 share
 * this interface, in the same package.
 */
final class AccessTokenSanitizer implements SanitizingFunction {
  private static final String KEY = "formationaccesstoken";
  private static final int MIN_TOKEN_FOUND_INSIDE = 8;

  private final FormationProperties properties;

  AccessTokenSanitizer(FormationProperties properties) {
    this.properties = properties;
  }

  @Override
  public SanitizableData apply(SanitizableData data) {
    Object value = data.getValue();
    if (value == null) {
      return data;
    }
    if (isTokenKey(data.getKey()) || holdsToken(value)) {
      return data.withSanitizedValue();
    }
    return data;
  }

  /** The key in any of Boot's spellings: dashed, camel case, or an environment variable's. */
  static boolean isTokenKey(String key) {
    StringBuilder letters = new StringBuilder(key.length());
    for (int i = 0; i < key.length(); i++) {
      char c = key.charAt(i);
      if (Character.isLetterOrDigit(c)) {
        letters.append(c);
      }
    }
    return letters.toString().toLowerCase(Locale.ROOT).equals(KEY);
  }

  private boolean holdsToken(Object value) {
    String token = properties.getAccessToken();
    if (token == null || token.isBlank() || !(value instanceof CharSequence text)) {
      return false;
    }
    String shown = text.toString();
    token = token.strip();
    // A short token (a test's) inside a longer value would mask values that only happen to hold it.
    return shown.strip().equals(token)
        || (token.length() >= MIN_TOKEN_FOUND_INSIDE && shown.contains(token));
  }
}
