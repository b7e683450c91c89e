package io.formation.sdk.internal;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/** Every wait of the SDK goes through this, so tests can replace time instead of sleeping. */
public interface Sleeper {
  /** Blocks the calling thread for the duration. */
  void sleep(Duration duration) throws InterruptedException;

  /**
   * Completes after the duration without blocking a thread; cancelling the future drops the wait.
   */
  CompletableFuture<Void> delay(Duration duration);

  /** Real time: blocking sleeps, and delays on the given scheduler. */
  static Sleeper using(ScheduledExecutorService scheduler) {
    return new Sleeper() {
      @Override
      public void sleep(Duration duration) throws InterruptedException {
        TimeUnit.NANOSECONDS.sleep(duration.toNanos());
      }

      @Override
      public CompletableFuture<Void> delay(Duration duration) {
        CompletableFuture<Void> done = new CompletableFuture<>();
        ScheduledFuture<?> task =
            scheduler.schedule(() -> done.complete(null), duration.toNanos(), TimeUnit.NANOSECONDS);
        done.whenComplete((ignored, error) -> task.cancel(false));
        return done;
      }
    };
  }
}
