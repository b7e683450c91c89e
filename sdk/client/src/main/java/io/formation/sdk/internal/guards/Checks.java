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
}
