package io.formation.sdk.internal.limits;

/**
 * What went out long enough ago to have come back and did not, fading over time, and how long the
 * slow answers take: a limit that drops requests shows here, where its refusals cannot.
 */
final class Unanswered {
  /** Windows of sending kept until old enough to count as unanswered. */
  private static final int WINDOWS = 64;

  /** Seconds the unanswered share looks back. */
  private static final double LOOK_BACK_SECONDS = 10;

  // What went out long enough ago to have come back, and what came back, fading over time; what
  // went out since, by window; how long an answer takes, in seconds, unknown before the first.
  private double sentEarlier;
  private double returned;
  private long faded;
  private final long start;
  private final int[] sentByWindow = new int[WINDOWS];
  private long window;
  private long counted;
  private double latency = -1;

  Unanswered(long now) {
    this.faded = now;
    this.start = now;
  }

  void sent(long now) {
    fade(now);
    sentByWindow[(int) (window % WINDOWS)]++;
  }

  /** A request came back: answered, refused or failed. */
  void returned(long now, long sentAt) {
    // Quick to rise and slow to fall: a request counts as unanswered only well past slow answers.
    double seconds = Math.max(0, now - sentAt) / 1e9;
    latency =
        seconds > latency ? seconds : latency + (seconds - latency) / AdaptiveRate.SHARE_ANSWERS;
    fade(now);
    returned++;
  }

  /** The share of what went out long enough ago that has not come back. */
  double share() {
    return 1 - returned / Math.max(sentEarlier, 1);
  }

  /** Seconds the slow answers take; negative before the first. */
  double latency() {
    return latency;
  }

  private void fade(long now) {
    long elapsed = now - faded;
    if (elapsed > 0) {
      double kept = Math.exp(-elapsed / 1e9 / LOOK_BACK_SECONDS);
      sentEarlier *= kept;
      returned *= kept;
      faded = now;
    }
    // A request counts as unanswered once older than twice the slow answers, a window at least:
    // a younger one may be in flight. Before any answer, none is old enough.
    long windowNanos = AdaptiveRate.MEASURE_WINDOW_NANOS;
    long current = (now - start) / windowNanos;
    long lag =
        latency < 0
            ? WINDOWS - 1
            : Math.min(WINDOWS - 1, 1 + (long) (2 * latency * 1e9 / windowNanos));
    long oldEnough = Math.max(current, window) - lag;
    // Windows past the last one sent in are empty.
    for (; counted < Math.min(oldEnough, window + 1); counted++) {
      int slot = (int) (counted % WINDOWS);
      // Faded since it was old enough, as its answers were: after a quiet spell (a pause) it is
      // counted late, and in full it would outweigh them.
      long oldAt = (counted + lag + 1) * windowNanos;
      double late = Math.max(0, now - start - oldAt) / 1e9;
      sentEarlier += sentByWindow[slot] * Math.exp(-late / LOOK_BACK_SECONDS);
      sentByWindow[slot] = 0;
    }
    counted = Math.max(counted, oldEnough);
    window = Math.max(window, current);
  }
}
