package io.formation.sdk.internal.limits;

import io.formation.sdk.internal.time.Time;
import java.time.Duration;

/** Exponential backoff with jitter: the one formula of retries and polls. */
public record Backoff(Duration initial, double multiplier, Duration longest, double jitter) {
  /** {@return the interval after this one} */
  public Duration grown(Duration interval) {
    double grown = interval.toNanos() * multiplier;
    return Duration.ofNanos((long) Math.min(grown, Time.capped(longest).toNanos()));
  }

  /** {@return the interval of the n-th wait, from 1} */
  public Duration nth(int n) {
    Duration interval = initial;
    for (int i = 1; i < n && interval.compareTo(longest) < 0; i++) {
      interval = grown(interval);
    }
    return interval;
  }

  /** {@return the interval less {@code random} (0 to 1) times its jitter} */
  public Duration jittered(Duration interval, double random) {
    return interval.minusNanos((long) (interval.toNanos() * jitter * random));
  }
}
