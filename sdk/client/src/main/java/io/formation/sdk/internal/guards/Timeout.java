package io.formation.sdk.internal.guards;

import io.formation.sdk.internal.Port;
import java.time.Duration;
import java.util.Objects;

/** A timeout, checked in one place for every setting that takes one. */
public record Timeout(Duration value) {
  public Timeout {
    Objects.requireNonNull(value, "value");
  }

  /** An HTTP timeout in whole milliseconds, a positive one never rounded to zero. */
  public static Timeout http(String name, Duration value) {
    Objects.requireNonNull(value, name);
    if (value.isNegative() || value.compareTo(Duration.ofMillis(Integer.MAX_VALUE)) > 0) {
      throw Port.invalid(
          name + " must be between 0 and " + Integer.MAX_VALUE + " ms, was " + value);
    }
    Duration millis = Duration.ofMillis(value.toMillis());
    return new Timeout(millis.isZero() && !value.isZero() ? Duration.ofMillis(1) : millis);
  }

  /** A timeout of each attempt of one call: an {@link #http} timeout that is set, so not zero. */
  public static Timeout call(String name, Duration value) {
    return http(name, Checks.positive(name, value));
  }

  /** A wait's timeout: positive, of any length. */
  public static Timeout wait(String name, Duration value) {
    return new Timeout(Checks.positive(name, value));
  }
}
