package io.formation.sdk.internal.transport;

import io.formation.sdk.internal.time.SchedulerSleeper;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import okhttp3.Call;

/** Cancels the calls of interrupted threads blocked on them, as OkHttp ignores interrupts. */
final class InterruptWatch implements Runnable {
  private static final Duration EVERY = Duration.ofMillis(100);

  private final Map<Call, Attempt> live;
  private final SchedulerSleeper scheduler;
  private final AtomicBoolean started = new AtomicBoolean();

  InterruptWatch(Map<Call, Attempt> live, SchedulerSleeper scheduler) {
    this.live = live;
    this.scheduler = scheduler;
  }

  /** Starts watching, at the first blocking call: an async-only client never needs it. */
  void start() {
    if (started.compareAndSet(false, true)) {
      scheduler.every(EVERY, this);
    }
  }

  @Override
  public void run() {
    for (Attempt attempt : live.values()) {
      Thread thread = attempt.blocked;
      if (thread != null && thread.isInterrupted()) {
        attempt.call.cancel();
      }
    }
  }
}
