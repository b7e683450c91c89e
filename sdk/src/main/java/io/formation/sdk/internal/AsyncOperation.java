package io.formation.sdk.internal;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicReference;

/**
 * An async operation made of steps run one after another (attempts, waits, polls). Cancelling
 * {@link #result()} cancels the step in flight, and no later step starts.
 */
public final class AsyncOperation<T> {
  private final CompletableFuture<T> result = new CompletableFuture<>();
  private final AtomicReference<Future<?>> step = new AtomicReference<>();

  public AsyncOperation() {
    result.whenComplete(
        (ignored, error) -> {
          Future<?> inFlight = step.get();
          if (result.isCancelled() && inFlight != null) {
            inFlight.cancel(true);
          }
        });
  }

  public CompletableFuture<T> result() {
    return result;
  }

  /**
   * Records the step now in flight.
   *
   * @return false, after cancelling the step, if the operation already ended
   */
  public boolean track(Future<?> next) {
    step.set(next);
    if (result.isDone()) {
      next.cancel(true);
      return false;
    }
    return true;
  }

  public boolean isDone() {
    return result.isDone();
  }

  public void complete(T value) {
    result.complete(value);
  }

  public void fail(Throwable error) {
    result.completeExceptionally(error);
  }
}
