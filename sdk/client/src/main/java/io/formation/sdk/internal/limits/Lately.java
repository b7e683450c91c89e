package io.formation.sdk.internal.limits;

/** Events counted by second over the last few seconds, as a ring of counts. */
final class Lately {
  private final int[] bySecond;
  private final long start;
  private int sum;
  private long second;

  Lately(int seconds, long start) {
    this.bySecond = new int[seconds];
    this.start = start;
  }

  void count(long now) {
    total(now);
    bySecond[(int) (second % bySecond.length)]++;
    sum++;
  }

  /** The events of the last seconds, the current one among them. */
  int total(long now) {
    long current = (now - start) / 1_000_000_000L;
    for (long s = second + 1; s <= Math.min(current, second + bySecond.length); s++) {
      int slot = (int) (s % bySecond.length);
      sum -= bySecond[slot];
      bySecond[slot] = 0;
    }
    second = Math.max(second, current);
    return sum;
  }
}
