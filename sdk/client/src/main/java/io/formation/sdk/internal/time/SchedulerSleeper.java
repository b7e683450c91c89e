package io.formation.sdk.internal.time;

import io.formation.sdk.internal.Port;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.DelayQueue;
import java.util.concurrent.Delayed;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/** Real time: async waits on one daemon thread, each one object in a DelayQueue. */
public final class SchedulerSleeper implements Sleeper, AutoCloseable {
  private final DelayQueue<Wake> queue = new DelayQueue<>();
  private final AtomicBoolean started = new AtomicBoolean();
  private final Thread thread = daemonThreads("formation-scheduler").newThread(new Runner());
  private volatile boolean closed;

  /** Blocks on a scheduled wait, so that close() wakes the sleeper. */
  @Override
  public void sleep(Duration duration) throws InterruptedException {
    Sleeper.await(delay(duration));
  }

  /** Runs the task every period until the scheduler closes; a closed scheduler runs nothing. */
  public void every(Duration period, Runnable task) {
    schedule(new Periodic(nanosAfter(period), period, task));
  }

  @Override
  public CompletableFuture<Void> delay(Duration duration) {
    return schedule(new Wake(nanosAfter(duration), null));
  }

  @Override
  public Future<?> after(Duration duration, Wakeup then) {
    return schedule(new Wake(nanosAfter(duration), then));
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
      wake.fire(closed());
    }
    return wake;
  }

  /** Stops the scheduler thread and fails every wait still pending. */
  @Override
  public void close() {
    closed = true;
    thread.interrupt();
    for (Object wake : queue.toArray()) {
      ((Wake) wake).fire(closed());
    }
    queue.clear();
  }

  private static long nanosAfter(Duration duration) {
    return Time.SYSTEM_TICKER.after(duration);
  }

  private static IllegalStateException closed() {
    return Port.illegalState("The FormationClient was closed");
  }

  /** Daemon threads named {@code <prefix>-N}: the SDK never keeps a JVM alive. */
  public static ThreadFactory daemonThreads(String prefix) {
    return new DaemonThreads(prefix, new AtomicInteger());
  }

  // Classes, not lambdas, on the way to a first call: docs/building.md.

  private record DaemonThreads(String prefix, AtomicInteger count) implements ThreadFactory {
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
      while (!closed) {
        Wake wake;
        try {
          wake = queue.take();
        } catch (InterruptedException e) {
          return;
        }
        try {
          if (!(wake instanceof Periodic periodic)) {
            wake.fire(null);
          } else if (!periodic.isDone()) {
            try {
              periodic.task.run();
            } finally {
              // A periodic check that failed once still runs next time.
              periodic.due = nanosAfter(periodic.period);
              schedule(periodic);
            }
          }
        } catch (RuntimeException | Error e) {
          // What a wait wakes handles its own failures; the scheduler goes on with the next wait.
        }
      }
    }
  }

  /** A wait, and the future that completes when it is over; and what it wakes then, if any. */
  private static class Wake extends CompletableFuture<Void> implements Delayed {
    volatile long due;
    private volatile Wakeup then;

    Wake(long due, Wakeup then) {
      this.due = due;
      this.then = then;
    }

    /** Ends the wait, and wakes what it wakes unless it was already over (cancelled). */
    final void fire(Throwable failure) {
      boolean completed = failure == null ? complete(null) : completeExceptionally(failure);
      Wakeup woken = then;
      if (completed && woken != null) {
        woken.wake(failure);
      }
    }

    /** Lets go of what it would wake: a cancelled wait stays queued until its time. */
    @Override
    public boolean cancel(boolean mayInterruptIfRunning) {
      boolean cancelled = super.cancel(mayInterruptIfRunning);
      if (cancelled) {
        then = null;
      }
      return cancelled;
    }

    @Override
    public long getDelay(TimeUnit unit) {
      return unit.convert(Time.left(due, Time.SYSTEM_TICKER.nanoTime()), TimeUnit.NANOSECONDS);
    }

    @Override
    public int compareTo(Delayed other) {
      return Long.compare(due, ((Wake) other).due);
    }
  }

  /** A task run every period until it is cancelled or the scheduler closes. */
  private static final class Periodic extends Wake {
    private final Duration period;
    private final Runnable task;

    Periodic(long due, Duration period, Runnable task) {
      super(due, null);
      this.period = period;
      this.task = task;
    }
  }
}
