package io.formation.sdk;

import io.formation.sdk.internal.time.Ticker;
import io.formation.sdk.internal.time.Time;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;

/**
 * The wall-clock instants of a saved wait, read on the monotonic ticker: the wall clock is read
 * once, when the wait is taken up, so a later step of it moves none of the wait's polls nor its
 * deadline.
 */
final class WaitClock {
  private final Ticker ticker;
  private final long tickAtStart;
  // Two fields rather than an Instant: one object less for each of thousands of waiting sets.
  private final long wallSecondsAtStart;
  private final int wallNanoAtStart;

  WaitClock(Clock clock, Ticker ticker) {
    this.ticker = ticker;
    this.tickAtStart = ticker.nanoTime();
    Instant wall = clock.instant();
    this.wallSecondsAtStart = wall.getEpochSecond();
    this.wallNanoAtStart = wall.getNano();
  }

  /** {@return the wall-clock time now, measured on the ticker since the wait was taken up} */
  Instant now() {
    return wallAtStart().plusNanos(ticker.nanoTime() - tickAtStart);
  }

  private Instant wallAtStart() {
    return Instant.ofEpochSecond(wallSecondsAtStart, wallNanoAtStart);
  }

  /** {@return the time from now until the instant; negative once it has passed} */
  Duration until(Instant instant) {
    return Duration.between(now(), instant);
  }

  /** {@return the instant as a {@link Ticker} reading, {@link Time#NEVER} for one forever away} */
  long reading(Instant instant) {
    Duration from = Duration.between(wallAtStart(), instant);
    if (Time.isForever(from)) {
      return Time.NEVER;
    }
    if (Time.isForever(from.negated())) {
      from = Time.FOREVER.negated();
    }
    return tickAtStart + from.toNanos();
  }
}
