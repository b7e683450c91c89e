package io.formation.sdk.internal.guards;

import io.formation.sdk.internal.Port;
import io.formation.sdk.internal.time.Time;
import java.time.Duration;
import java.util.Objects;

/**
 * A timeout, checked in one place for every setting that takes one: the client's four HTTP
 * timeouts, a call's timeout ({@code RequestOptions}) and a wait's ({@code PollOptions}). Each
 * factory says which kind it checks; the message names the setting and the value given.
 *
 * @param value the timeout as the SDK keeps it; zero means none where a kind allows it
 */
public record Timeout(Duration value) {
  public Timeout {
    Objects.requireNonNull(value, "value");
  }

  /**
   * An HTTP timeout as OkHttp keeps it: whole milliseconds, a positive one rounded up, never down
   * to the zero that means "none"; zero itself allowed.
   *
   * @throws IllegalArgumentException if negative or longer than {@code Integer.MAX_VALUE} ms
   */
  public static Timeout http(String name, Duration value) {
    Objects.requireNonNull(value, name);
    if (value.isNegative() || value.compareTo(Duration.ofMillis(Integer.MAX_VALUE)) > 0) {
      throw Port.invalid(
          name + " must be between 0 and " + Integer.MAX_VALUE + " ms, was " + value);
    }
    Duration millis = Duration.ofMillis(value.toMillis());
    return new Timeout(millis.isZero() && !value.isZero() ? Duration.ofMillis(1) : millis);
  }

  /**
   * A timeout of each attempt of one call: an {@link #http} timeout that is set, so not zero.
   *
   * @throws IllegalArgumentException if not positive or longer than {@code Integer.MAX_VALUE} ms
   */
  public static Timeout call(String name, Duration value) {
    return http(name, Checks.positive(name, value));
  }

  /**
   * A wait's overall timeout: positive, of any length (one longer than {@link Time#FOREVER} is
   * taken as that, by the wait).
   *
   * @throws IllegalArgumentException if not positive
   */
  public static Timeout wait(String name, Duration value) {
    return new Timeout(Checks.positive(name, value));
  }
}
