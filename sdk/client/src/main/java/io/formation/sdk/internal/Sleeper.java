package io.formation.sdk.internal;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;

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
      throw e.getCause() instanceof RuntimeException own
          ? own
          : new IllegalStateException(e.getCause());
    }
  }
}
