package io.formation.sdk.internal.time;

import java.time.Duration;

/** Monotonic nanoseconds, compared by difference; no wall-clock step moves them. */
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
}
