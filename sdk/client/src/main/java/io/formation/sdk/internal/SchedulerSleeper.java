package io.formation.sdk.internal;

import java.time.Duration;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Real time: blocking sleeps, and async waits on one shared daemon scheduler thread, so thousands
 * of pending waits cost no thread each. {@link #close()} fails the waits still pending, so no async
 * call is left hanging by a closed client.
 */
public final class SchedulerSleeper implements Sleeper, AutoCloseable {
  private final ScheduledThreadPoolExecutor scheduler =
      new ScheduledThreadPoolExecutor(1, daemonThreads("formation-scheduler"));
  private final Set<CompletableFuture<Void>> pending = ConcurrentHashMap.newKeySet();

  public SchedulerSleeper() {
    scheduler.setRemoveOnCancelPolicy(true);
  }

  /**
   * Blocks on a scheduled wait rather than in {@code Thread.sleep}, so {@link #close()} wakes the
   * sleeper (with an {@link IllegalStateException}) instead of leaving it asleep for the duration.
   */
  @Override
  public void sleep(Duration duration) throws InterruptedException {
    Sleeper.await(delay(duration));
  }

  /** Runs the task every period until the scheduler closes; a closed scheduler runs nothing. */
  public void every(Duration period, Runnable task) {
    try {
      scheduler.scheduleWithFixedDelay(
          task, period.toNanos(), period.toNanos(), TimeUnit.NANOSECONDS);
    } catch (RejectedExecutionException closed) {
      // Nothing is left to watch over.
    }
  }

  @Override
  public CompletableFuture<Void> delay(Duration duration) {
    CompletableFuture<Void> done = new CompletableFuture<>();
    pending.add(done);
    done.whenComplete((ignored, error) -> pending.remove(done));
    try {
      ScheduledFuture<?> task =
          scheduler.schedule(
              () -> done.complete(null), Checks.capped(duration).toNanos(), TimeUnit.NANOSECONDS);
      done.whenComplete((ignored, error) -> task.cancel(false));
    } catch (RejectedExecutionException e) {
      done.completeExceptionally(closed(e));
    }
    return done;
  }

  /** Stops the scheduler thread and fails every wait still pending. */
  @Override
  public void close() {
    scheduler.shutdownNow();
    for (CompletableFuture<Void> wait : pending) {
      wait.completeExceptionally(closed(null));
    }
  }

  private static IllegalStateException closed(Throwable cause) {
    return new IllegalStateException("The FormationClient was closed", cause);
  }

  /** Daemon threads named {@code <prefix>-N}: the SDK never keeps a JVM alive. */
  public static ThreadFactory daemonThreads(String prefix) {
    AtomicInteger count = new AtomicInteger();
    return runnable -> {
      Thread thread = new Thread(runnable, prefix + "-" + count.incrementAndGet());
      thread.setDaemon(true);
      return thread;
    };
  }
}
