package io.formation.sdk.internal;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;

/** Every wait of the SDK goes through this, so tests can replace time instead of sleeping. */
public interface Sleeper {
  /** Blocks the calling thread for the duration. */
  void sleep(Duration duration) throws InterruptedException;

  /**
   * Completes after the duration without blocking a thread; cancelling the future drops the wait.
   * Never throws: a wait that cannot be scheduled is a failed future.
   */
  CompletableFuture<Void> delay(Duration duration);
}
