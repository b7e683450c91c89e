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
        smoothed = once ? SMOOTH * newest + (1 - SMOOTH) * smoothed : newest;
        once = true;
      }
      start = now;
      count = 0;
    }
    count++;
  }

  boolean isStarted() {
    return started;
  }

  boolean isMeasured() {
    return once;
  }

  /** The rate lately: the smoothed rate, unless no window closed for two, when that spell's. */
  double lately(long now) {
    long elapsed = now - start;
    return once && elapsed >= 2 * AdaptiveRate.MEASURE_WINDOW_NANOS
        ? count * 1e9 / elapsed
        : rate(now, 0);
  }

  /** The smoothed rate, or the first window's so far; {@code unknown} before any count. */
  double rate(long now, double unknown) {
    if (once) {
      return smoothed;
    }
    return started ? count * 1e9 / Math.max(now - start, 1_000_000L) : unknown;
  }
}
