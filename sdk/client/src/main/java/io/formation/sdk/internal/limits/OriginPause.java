package io.formation.sdk.internal.limits;

import io.formation.sdk.internal.time.Time;
import java.time.Duration;

/** The pause a Retry-After asks of one origin, and each held call's jittered resume. */
final class OriginPause {
  /** The most a paused call adds to the pause, as a fraction of it. */
  private static final double RESUME_SPREAD = 1.0;

  private boolean paused;
  private long until;
  // When the calls it held have all resumed: their refusals until then are expected.
  private long settled;

  /** What is left of the pause at {@code now}; zero if none. */
  Duration left(long now) {
    if (!paused) {
      return Duration.ZERO;
    }
    if (Time.left(until, now) <= 0) {
      if (Time.left(settled, now) <= 0) {
        paused = false;
      }
      return Duration.ZERO;
    }
    return Time.between(now, until);
  }

  /** Pauses the origin, unless the refusal's request went out in the pause in force. */
  boolean pause(long now, long sentAt, Duration pause) {
    if (paused && Time.left(settled, sentAt) > 0) {
      return false;
    }
    paused = true;
    until = Time.after(now, pause);
    long spread = (long) (Time.capped(pause).toNanos() * RESUME_SPREAD);
    settled = Time.after(now, Time.capped(pause.plusNanos(spread)));
    return true;
  }

  /** The end of the pause, a ticker reading. */
  long until() {
    return until;
  }

  /** When a held call resumes: after what is left, plus its jitter, never past what it allows. */
  static Duration resume(Duration left, Duration allowed, double random) {
    Duration room = allowed.minus(left);
    Duration spread = left.compareTo(room) < 0 ? left : room;
    return left.plusNanos((long) (spread.toNanos() * RESUME_SPREAD * random));
  }
}
