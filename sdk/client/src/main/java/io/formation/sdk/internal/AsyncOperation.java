package io.formation.sdk.internal;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
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

  /**
   * Tracks a step and runs {@code next} once it completes normally. A step that fails (a wait whose
   * client was closed, say) fails the operation instead of stranding it.
   */
  public void after(CompletableFuture<?> step, Runnable next) {
    if (!track(step)) {
      return;
    }
    step.whenComplete(
        (ignored, failure) -> {
          if (isDone()) {
            return;
          }
          if (failure != null) {
            fail(unwrap(failure));
          } else {
            run(next);
          }
        });
  }

  /**
   * Runs code of this operation on whatever thread completed the previous step. Anything it throws,
   * an {@link Error} included, fails the operation: thrown inside a future's callback it would
   * otherwise be lost, and the caller's future would never complete.
   */
  public void run(Runnable code) {
    try {
      code.run();
    } catch (Throwable t) {
      fail(t);
    }
  }

  /** The exception a future failed with, without the CompletionException wrapper. */
  public static Throwable unwrap(Throwable error) {
    return error instanceof CompletionException && error.getCause() != null
        ? error.getCause()
        : error;
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
