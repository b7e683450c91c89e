package io.formation.sdk.internal.time;

import java.time.Duration;

/**
 * Monotonic time, nanoseconds from an arbitrary origin compared by their difference: what the SDK
 * measures or waits out, which no step of the wall clock moves.
 */
@FunctionalInterface
public interface Ticker {
  long nanoTime();

  /** {@return the reading {@code duration} from now; {@link Time#NEVER} for forever} */
  default long after(Duration duration) {
    return Time.after(nanoTime(), duration);
  }

  /** {@return the time until the reading, negative once past; {@link Time#FOREVER} for never} */
  default Duration until(long reading) {
    return Time.between(nanoTime(), reading);
  }

  /** {@return the time since the reading} */
  default Duration since(long reading) {
    return Duration.ofNanos(nanoTime() - reading);
  }
}
