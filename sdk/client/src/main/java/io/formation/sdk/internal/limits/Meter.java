package io.formation.sdk.internal.limits;

/** Events per second over windows, smoothed across them, as AWS measures its sending rate. */
final class Meter {
  /** The weight of the newest window in a measured rate. */
  private static final double SMOOTH = 0.8;

  private boolean started;
  private long start;
  private int count;
  private double smoothed;
  private boolean once;
  // As smoothed, but started over after a quiet spell; while no window has closed since the last
  // one, the events since the window it began in, and that window's start.
  private double recent;
  private boolean quiet;
  private long since;
  private int sinceCount;

  void count(long now) {
    if (!started) {
      started = true;
      start = now;
    }
    long elapsed = now - start;
    if (elapsed >= AdaptiveRate.MEASURE_WINDOW_NANOS) {
      // A window twice its length had a quiet spell (a pause): it is not averaged in.
      if (elapsed < 2 * AdaptiveRate.MEASURE_WINDOW_NANOS) {
        double newest = count * 1e9 / elapsed;
        recent = once && !quiet ? SMOOTH * newest + (1 - SMOOTH) * recent : newest;
        smoothed = once ? SMOOTH * newest + (1 - SMOOTH) * smoothed : newest;
        once = true;
        quiet = false;
      } else {
        quiet = true;
        since = start;
        sinceCount = count;
      }
      start = now;
      count = 0;
    }
    count++;
    if (quiet) {
      sinceCount++;
    }
  }

  boolean isStarted() {
    return started;
  }

  boolean isMeasured() {
    return once;
  }

  /**
   * The rate lately: during a quiet spell, the spell's; until a window closes after it, the rate
   * since it began; then the rate smoothed from that window on.
   */
  double lately(long now) {
    long elapsed = now - start;
    if (elapsed >= 2 * AdaptiveRate.MEASURE_WINDOW_NANOS) {
      return count * 1e9 / elapsed;
    }
    if (quiet) {
      return sinceCount * 1e9 / (now - since);
    }
    return once ? recent : rate(now, 0);
  }

  /** The smoothed rate, or the first window's so far; {@code unknown} before any count. */
  double rate(long now, double unknown) {
    if (once) {
      return smoothed;
    }
    return started ? count * 1e9 / Math.max(now - start, 1_000_000L) : unknown;
  }
}
