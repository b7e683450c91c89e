package io.formation.tracking;

import java.time.Duration;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/** Waiting for the tracker's own threads, bounded. */
final class Waits {
  private Waits() {}

  static void until(BooleanSupplier condition, Duration atMost, Supplier<String> state)
      throws InterruptedException {
    long deadline = System.nanoTime() + atMost.toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("not within " + atMost + ": " + state.get());
      }
      Thread.sleep(10);
    }
  }
}
