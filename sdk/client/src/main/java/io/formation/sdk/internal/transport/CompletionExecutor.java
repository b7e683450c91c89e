package io.formation.sdk.internal.transport;

import io.formation.sdk.internal.time.SchedulerSleeper;
import io.formation.sdk.internal.time.Sleeper;
import java.time.Duration;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The default completion executor: a thread per core with a queue, and more threads, up to {@link
 * #MAX_THREADS}, only while callbacks that block hold every thread with completions waiting.
 */
final class CompletionExecutor extends ThreadPoolExecutor implements Sleeper.Wakeup {
  /** Completions are quick: more threads than cores would only wait for a core. */
  static final int BASE_THREADS = Math.max(2, Runtime.getRuntime().availableProcessors());

  /** The most threads callbacks that block may hold; past it, completions wait for one. */
  static final int MAX_THREADS = 128;

  /** How long completions may wait on threads that all finish nothing before more start. */
  static final Duration LOOK = Duration.ofMillis(100);

  private final Sleeper sleeper;
  private final AtomicBoolean watching = new AtomicBoolean();

  /** What had completed at the last look while completions waited; -1 at the first. */
  private long completedBefore = -1;

  CompletionExecutor(Sleeper sleeper) {
    super(
        BASE_THREADS,
        MAX_THREADS,
        10,
        TimeUnit.SECONDS,
        new LinkedBlockingQueue<>(),
        SchedulerSleeper.daemonThreads("formation-completion"));
    allowCoreThreadTimeOut(true);
    this.sleeper = sleeper;
  }

  @Override
  public void execute(Runnable command) {
    super.execute(command);
    if (!getQueue().isEmpty() && !watching.get()) {
      watch();
    }
  }

  private void watch() {
    if (watching.compareAndSet(false, true)) {
      sleeper.after(LOOK, this);
    }
  }

  /** A look while completions wait: none ended since the last means callbacks hold every thread. */
  @Override
  public void wake(Throwable failure) {
    if (failure != null || isShutdown()) {
      // The scheduler or the executor is closed: nothing more to watch.
      return;
    }
    if (getQueue().isEmpty()) {
      completedBefore = -1;
      // Threads beyond the base end after their idle time.
      setCorePoolSize(BASE_THREADS);
      watching.set(false);
      // A completion queued before the flag was down saw the watch still on.
      if (!getQueue().isEmpty()) {
        watch();
      }
      return;
    }
    long completed = getCompletedTaskCount();
    if (completed == completedBefore) {
      setCorePoolSize(
          Math.max(getCorePoolSize(), Math.min(MAX_THREADS, getPoolSize() + BASE_THREADS)));
    }
    completedBefore = completed;
    sleeper.after(LOOK, this);
  }
}
