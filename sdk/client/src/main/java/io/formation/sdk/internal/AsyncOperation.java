package io.formation.sdk.internal;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicReference;

/**
 * An async operation made of steps run one after another (attempts, waits, polls). Completing
 * {@link #result()} in any way (cancel, {@code complete}, {@code completeExceptionally}, {@code
 * orTimeout}) cancels the step in flight, which gives back a queued turn unspent, and no later step
 * starts.
 *
 * <p>The caller's future completes on the completions executor, never on the thread that ended the
 * last step (OkHttp's dispatcher or the client's scheduler): a slow callback of the caller then
 * holds neither a connection slot nor every timer of the client, as the AWS SDK v2 does with its
 * future-completion executor.
 */
public final class AsyncOperation<T> {
  private final CompletableFuture<T> result = new CompletableFuture<>();
  private final CompletableFuture<T> returned;
  private final AtomicReference<Future<?>> step = new AtomicReference<>();

  /**
   * @param completions where the caller's future completes; null for an operation that is a step of
   *     another one, whose future only the SDK waits on
   */
  public AsyncOperation(Executor completions) {
    returned = completions == null ? result : new CompletableFuture<>();
    result.whenComplete(
        (value, error) -> {
          // Ended by the SDK, the step is already over; ended by the caller, it is dropped.
          Future<?> inFlight = step.get();
          if (inFlight != null) {
            inFlight.cancel(true);
          }
          if (returned != result && !returned.isDone()) {
            complete(completions, value, error);
          }
        });
    if (returned != result) {
      returned.whenComplete((value, error) -> result.cancel(true));
    }
  }

  private void complete(Executor completions, T value, Throwable error) {
    Runnable copy =
        () -> {
          if (error != null) {
            returned.completeExceptionally(unwrap(error));
          } else {
            returned.complete(value);
          }
        };
    try {
      completions.execute(copy);
    } catch (RejectedExecutionException closed) {
      // A closed client's executor takes nothing more; the future must still complete.
      copy.run();
    }
  }

  /** The caller's future. */
  public CompletableFuture<T> result() {
    return returned;
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
