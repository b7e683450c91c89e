package io.formation.sdk.internal;

import java.time.Duration;

/**
 * Monotonic time, for everything the SDK measures or waits out: deadlines, pauses, the request
 * budget, a wait's grace. A step of the wall clock (NTP, a VM resumed, an operator) moves none of
 * them; the wall clock only reads and writes dates. Readings are nanoseconds from an arbitrary
 * origin, compared by their difference, as {@link System#nanoTime()} requires.
 */
@FunctionalInterface
public interface Ticker {
  /** The JVM's monotonic clock; a class, not a lambda (see {@code SchedulerSleeper}). */
  Ticker SYSTEM =
      new Ticker() {
        @Override
        public long nanoTime() {
          return System.nanoTime();
        }
      };

  /** A reading that never comes: the deadline of a timeout of {@link Checks#LONGEST} or more. */
  long NEVER = Long.MAX_VALUE;

  /** {@return the current reading, in nanoseconds from an arbitrary origin} */
  long nanoTime();

  /**
   * {@return the reading {@code duration} from now}, or {@link #NEVER} for a duration of {@link
   * Checks#LONGEST} or more, so that no later difference overflows
   */
  default long after(Duration duration) {
    return duration.compareTo(Checks.LONGEST) >= 0 ? NEVER : nanoTime() + duration.toNanos();
  }

  /**
   * {@return the time from now until the reading, negative once it has passed; {@link
   * Checks#LONGEST} until {@link #NEVER}}
   */
  default Duration until(long reading) {
    return reading == NEVER ? Checks.LONGEST : Duration.ofNanos(reading - nanoTime());
  }

  /** {@return the time since the reading} */
  default Duration since(long reading) {
    return Duration.ofNanos(nanoTime() - reading);
  }
}
