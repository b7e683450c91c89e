package io.formation.sdk.internal.guards;

import io.formation.sdk.internal.Port;
import java.time.Duration;
import java.util.Objects;

/** The value rules the SDK applies in more than one place, each written once. */
public final class Checks {
  private Checks() {}

  /** Whether the text is an RFC 9110 {@code token}, as an HTTP method must be. */
  public static boolean isToken(String text) {
    if (text == null || text.isEmpty()) {
      return false;
    }
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      boolean tchar =
          c >= '0' && c <= '9'
              || c >= 'A' && c <= 'Z'
              || c >= 'a' && c <= 'z'
              || "!#$%&'*+-.^_`|~".indexOf(c) >= 0;
      if (!tchar) {
        return false;
      }
    }
    return true;
  }

  /** Where a header value has a character HTTP forbids: its index, or -1. */
  public static int invalidHeaderCharAt(String value) {
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      if (c != '\t' && (c < 0x20 || c > 0x7e)) {
        return i;
      }
    }
    return -1;
  }

  /** A number of retries, for the client and for one call alike. */
  public static int maxRetries(int maxRetries) {
    if (maxRetries < 0) {
      throw Port.invalid("maxRetries must not be negative, was " + maxRetries);
    }
    return maxRetries;
  }

  /** Fails on a record's first null component, naming it as requireNonNull does. */
  public static void nonNull(String names, Object... values) {
    int count = 1;
    for (int i = 0; i < names.length(); i++) {
      if (names.charAt(i) == ' ') {
        count++;
      }
    }
    if (count != values.length) {
      throw Port.invalid(count + " names for " + values.length + " values");
    }
    for (int i = 0; i < values.length; i++) {
      if (values[i] == null) {
        throw Port.missing(names.split(" ")[i]);
      }
    }
  }

  /** A duration setting that must be more than zero (a poll interval, a wait's timeout). */
  public static Duration positive(String name, Duration value) {
    Objects.requireNonNull(value, name);
    if (value.isNegative() || value.isZero()) {
      throw Port.invalid(name + " must be positive, was " + value);
    }
    return value;
  }

  /** A duration setting where zero means "none" or "at once" (a grace, a window, a cap). */
  public static Duration nonNegative(String name, Duration value) {
    Objects.requireNonNull(value, name);
    if (value.isNegative()) {
      throw Port.invalid(name + " must not be negative, was " + value);
    }
    return value;
  }

  /** A header value's character HTTP forbids, by index: the value itself is never shown. */
  public static String headerValue(String name, String value) {
    int bad = invalidHeaderCharAt(value);
    if (bad >= 0) {
      throw Port.invalid(
          name + " has a character not allowed in an HTTP header (at index " + bad + ")");
    }
    return value;
  }

  /** A request budget: a positive, finite rate and a burst of at least one. */
  public static void requestBudget(double requestsPerSecond, int burst) {
    if (!(requestsPerSecond > 0) || Double.isInfinite(requestsPerSecond)) {
      throw Port.invalid("requestsPerSecond must be positive, was " + requestsPerSecond);
    }
    if (burst < 1) {
      throw Port.invalid("burst must be at least 1, was " + burst);
    }
  }

  /** A limit on a body's bytes, below the 2 GiB of an array. */
  public static long maxResponseBytes(long bytes) {
    long largest = Integer.MAX_VALUE - 8;
    if (bytes < 1 || bytes > largest) {
      throw Port.invalid("maxResponseBytes must be between 1 and " + largest + ", was " + bytes);
    }
    return bytes;
  }

  /** The environment variable's value, which must be set. */
  public static String env(java.util.Map<String, String> env, String name) {
    String value = env.get(name);
    if (value == null || value.isBlank()) {
      throw Port.illegalState("The environment variable " + name + " is not set");
    }
    return value;
  }

  /** A text setting that must not be blank; null fails as requireNonNull does. */
  public static String notBlank(String name, String value) {
    if (Objects.requireNonNull(value, name).isBlank()) {
      throw Port.invalid(name + " must not be blank");
    }
    return value;
  }

  /** A product token for the User-Agent: set, not blank, a valid header value; stripped. */
  public static String userAgent(String product) {
    headerValue("userAgent", notBlank("userAgent", Objects.requireNonNull(product, "product")));
    return product.strip();
  }
}
