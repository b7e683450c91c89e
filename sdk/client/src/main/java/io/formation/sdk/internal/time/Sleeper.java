package io.formation.sdk.internal.time;

import io.formation.sdk.internal.Port;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;

/** Every wait of the SDK goes through this, so tests can replace time instead of sleeping. */
public interface Sleeper {
  /** Blocks the calling thread for the duration. */
  void sleep(Duration duration) throws InterruptedException;

  /**
   * Completes after the duration without blocking a thread; cancelling the future drops the wait.
   * Never throws: a wait that cannot be scheduled is a failed future.
   */
  CompletableFuture<Void> delay(Duration duration);

  /**
   * Wakes {@code then} after the duration without blocking a thread: with null, or with the failure
   * of a wait that cannot be scheduled or that a closing client failed. Cancelling the returned
   * future drops the wait, and {@code then} is not woken. It may be woken before this returns.
   *
   * <p>A sleeper of its own may hold {@code then} in the wait itself, where {@link
   * #delay(Duration)} needs a callback on the future: a second future and a completion object for
   * each of the thousands of waits parked at once.
   */
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
    /**
     * @param failure null when the wait is over, else why it ended without waiting its time
     */
    void wake(Throwable failure);
  }

  /**
   * Blocks until the wait completes. An interrupt cancels the wait and is thrown; a wait failed by
   * a closing client is thrown as the {@link IllegalStateException} it failed with, and one the SDK
   * failed with an exception of its own (a call held back past its timeout) as that exception.
   */
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
