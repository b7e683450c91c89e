package io.formation.sdk.internal;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.DelayQueue;
import java.util.concurrent.Delayed;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Real time: blocking sleeps, and async waits on one shared daemon scheduler thread, so thousands
 * of pending waits cost no thread each. {@link #close()} fails the waits still pending, so no async
 * call is left hanging by a closed client.
 *
 * <p>A wait is one small object, the future itself, in a {@link DelayQueue}: no task, no callbacks
 * and no registry beside it (a {@code ScheduledThreadPoolExecutor} costs about 300 bytes a wait
 * that way, which thousands of waiting sets pay). A cancelled wait stays queued until its time,
 * doing nothing then: removing it at once would cost a scan of the queue.
 */
public final class SchedulerSleeper implements Sleeper, AutoCloseable {
  private final DelayQueue<Wake> queue = new DelayQueue<>();
  private final AtomicBoolean started = new AtomicBoolean();
  private final Thread thread = daemonThreads("formation-scheduler").newThread(new Runner());
  private volatile boolean closed;

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
    schedule(new Wake(after(period), period.toNanos(), task));
  }

  @Override
  public CompletableFuture<Void> delay(Duration duration) {
    return schedule(new Wake(after(Checks.capped(duration)), 0, null));
  }

  private Wake schedule(Wake wake) {
    if (!closed) {
      queue.add(wake);
      if (started.compareAndSet(false, true)) {
        thread.start();
      }
    }
    if (closed) {
      // Closed before or while it was queued: close() may not have seen it.
      wake.completeExceptionally(closed(null));
    }
    return wake;
  }

  private void run() {
    while (!closed) {
      Wake wake;
      try {
        wake = queue.take();
      } catch (InterruptedException e) {
        return;
      }
      if (wake.task == null) {
        wake.complete(null);
      } else if (!wake.isDone()) {
        try {
          wake.task.run();
        } catch (RuntimeException | Error e) {
          // A periodic check that failed once still runs next time.
        }
        wake.due = after(Duration.ofNanos(wake.period));
        schedule(wake);
      }
    }
  }

  /** Stops the scheduler thread and fails every wait still pending. */
  @Override
  public void close() {
    closed = true;
    thread.interrupt();
    for (Object wake : queue.toArray()) {
      ((Wake) wake).completeExceptionally(closed(null));
    }
    queue.clear();
  }

  private static long after(Duration duration) {
    long now = System.nanoTime();
    long nanos = duration.toNanos();
    // Saturated: a wait of a century must not wrap around to the past.
    return now + nanos < now ? Long.MAX_VALUE : now + nanos;
  }

  private static IllegalStateException closed(Throwable cause) {
    return new IllegalStateException("The FormationClient was closed", cause);
  }

  /** Daemon threads named {@code <prefix>-N}: the SDK never keeps a JVM alive. */
  public static ThreadFactory daemonThreads(String prefix) {
    return new DaemonThreads(prefix);
  }

  // Classes rather than lambdas here and on the way to a client's first call: the JVM spins a
  // class for each lambda the first time it runs, several times the cost of loading one.

  private static final class DaemonThreads implements ThreadFactory {
    private final String prefix;
    private final AtomicInteger count = new AtomicInteger();

    DaemonThreads(String prefix) {
      this.prefix = prefix;
    }

    @Override
    public Thread newThread(Runnable runnable) {
      Thread thread = new Thread(runnable, prefix + "-" + count.incrementAndGet());
      thread.setDaemon(true);
      return thread;
    }
  }

  private final class Runner implements Runnable {
    @Override
    public void run() {
      SchedulerSleeper.this.run();
    }
  }

  /** A wait, and the future that completes when it is over; or a periodic task. */
  private static final class Wake extends CompletableFuture<Void> implements Delayed {
    private volatile long due;
    private final long period;
    private final Runnable task;

    Wake(long due, long period, Runnable task) {
      this.due = due;
      this.period = period;
      this.task = task;
    }

    @Override
    public long getDelay(TimeUnit unit) {
      return unit.convert(due - System.nanoTime(), TimeUnit.NANOSECONDS);
    }

    @Override
    public int compareTo(Delayed other) {
      return Long.compare(due, ((Wake) other).due);
    }

    @Override
    public boolean equals(Object other) {
      return this == other;
    }

    @Override
    public int hashCode() {
      return System.identityHashCode(this);
    }
  }
}
