package io.formation.sdk.internal.transport;

import io.formation.sdk.internal.Port;
import io.formation.sdk.internal.time.Sleeper;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.BiConsumer;

/** An async operation made of steps run one after another (attempts, waits, polls). */
public final class AsyncOperation<T> implements Sleeper.Wakeup {
  private static final VarHandle ENDED;
  private static final VarHandle STEP;

  static {
    try {
      MethodHandles.Lookup lookup = MethodHandles.lookup();
      ENDED = lookup.findVarHandle(AsyncOperation.class, "ended", int.class);
      STEP = lookup.findVarHandle(AsyncOperation.class, "step", Future.class);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  // Plain fields and a subclassed future, not callbacks on futures: docs/building.md.
  private final Executor completions;
  private final Returned<T> returned = new Returned<>(this);
  private volatile Future<?> step;
  private volatile Runnable afterWait;
  private volatile BiConsumer<Object, Throwable> onEnd;
  private volatile int ended;

  public AsyncOperation(Executor completions) {
    this.completions = completions;
  }

  /** Tells {@code onEnd} how the operation ended, once, before the caller's future completes. */
  public void onEnd(BiConsumer<Object, Throwable> onEnd) {
    this.onEnd = onEnd;
  }

  /** The caller's future. */
  public CompletableFuture<T> result() {
    return returned;
  }

  /** Records the step now in flight. */
  public boolean track(Future<?> next) {
    step = next;
    if (ended != 0) {
      next.cancel(true);
      return false;
    }
    return true;
  }

  /** Waits on the sleeper, as the step in flight, and runs {@code next} once the wait is over. */
  public void after(Sleeper sleeper, Duration wait, Runnable next) {
    Future<?> before = step;
    afterWait = next;
    Future<?> waiting = sleeper.after(wait, this);
    // The wait may be over already, and its next step tracked: that one stays the step in flight.
    if (STEP.compareAndSet(this, before, waiting) && ended != 0) {
      waiting.cancel(true);
    }
  }

  /** The end of a wait of {@link #after}: runs the step that follows it. */
  @Override
  public void wake(Throwable failure) {
    Runnable next = afterWait;
    afterWait = null;
    if (isDone()) {
      return;
    }
    if (failure != null) {
      fail(unwrap(failure));
    } else {
      run(next);
    }
  }

  /** Runs code of this operation on whatever thread completed the previous step. */
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
    return ended != 0;
  }

  public void complete(T value) {
    if (end(value, null)) {
      deliver(value, null);
    }
  }

  public void fail(Throwable error) {
    if (end(null, error)) {
      deliver(null, error);
    }
  }

  /** Ends the operation, once: the step in flight is cancelled, then {@code onEnd} told. */
  private boolean end(Object value, Throwable error) {
    if (!ENDED.compareAndSet(this, 0, 1)) {
      return false;
    }
    Future<?> inFlight = step;
    if (inFlight != null) {
      inFlight.cancel(true);
    }
    BiConsumer<Object, Throwable> told = onEnd;
    if (told != null) {
      told.accept(value, error);
    }
    return true;
  }

  private void deliver(T value, Throwable error) {
    if (completions == null) {
      returned.deliver(value, error);
    } else {
      execute(completions, () -> returned.deliver(value, error));
    }
  }

  /** Runs the task on the executor, or here once it is shut down. */
  public static void execute(Executor executor, Runnable task) {
    try {
      executor.execute(task);
    } catch (RejectedExecutionException closed) {
      task.run();
    }
  }

  /** The caller's future. */
  private static final class Returned<T> extends CompletableFuture<T> {
    private final AsyncOperation<T> operation;

    Returned(AsyncOperation<T> operation) {
      this.operation = operation;
    }

    void deliver(T value, Throwable error) {
      if (error != null) {
        super.completeExceptionally(error);
      } else {
        super.complete(value);
      }
    }

    @Override
    public boolean complete(T value) {
      operation.end(value, null);
      return super.complete(value);
    }

    @Override
    public boolean completeExceptionally(Throwable error) {
      Objects.requireNonNull(error, "error");
      operation.end(null, error);
      return super.completeExceptionally(error);
    }

    @Override
    public boolean cancel(boolean mayInterruptIfRunning) {
      operation.end(null, Port.cancelled());
      return super.cancel(mayInterruptIfRunning);
    }
  }
}
