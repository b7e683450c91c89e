package io.formation.sdk.internal.time;

import io.formation.sdk.internal.Port;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;

/** Every wait of the SDK goes through this, so tests can replace time instead of sleeping. */
public interface Sleeper {
  void sleep(Duration duration) throws InterruptedException;

  /** Completes after the duration; cancelling it drops the wait. */
  CompletableFuture<Void> delay(Duration duration);

  /** Wakes {@code then} after the duration, or with why the wait failed. */
  default Future<?> after(Duration duration, Wakeup then) {
    CompletableFuture<Void> wait = delay(duration);
    wait.whenComplete(
        (ignored, failure) -> {
          if (!wait.isCancelled()) {
            then.wake(failure);
          }
        });
    return wait;
  }

  /** What {@link #after(Duration, Wakeup)} wakes when its wait is over. */
  @FunctionalInterface
  interface Wakeup {
    void wake(Throwable failure);
  }

  /** Blocks until the wait completes. */
  static <T> T await(CompletableFuture<T> wait) throws InterruptedException {
    try {
      return wait.get();
    } catch (InterruptedException e) {
      wait.cancel(false);
      throw e;
    } catch (ExecutionException e) {
      throw e.getCause() instanceof RuntimeException own ? own : Port.illegalState(e.getCause());
    }
  }
}
