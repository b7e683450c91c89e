package io.formation.sdk.internal.transport;

import static io.formation.sdk.internal.transport.CompletionExecutor.BASE_THREADS;
import static io.formation.sdk.internal.transport.CompletionExecutor.LOOK;
import static io.formation.sdk.internal.transport.CompletionExecutor.MAX_THREADS;
import static org.assertj.core.api.Assertions.assertThat;

import io.formation.sdk.internal.time.TestSleepers;
import io.formation.testkit.FakeTime;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** When the default completion executor starts threads: its looks run on a manual fake time. */
class CompletionExecutorRuleTest {
  private static final Duration SAFETY_NET = Duration.ofSeconds(30);

  final FakeTime time = FakeTime.manual();
  final CompletionExecutor executor =
      new CompletionExecutor(TestSleepers.of(time::sleep, time::delay));
  final CountDownLatch release = new CountDownLatch(1);

  @AfterEach
  void releaseAndShutDown() {
    release.countDown();
    executor.shutdown();
  }

  @Test
  void completionsBehindBusyThreadsQueueForThemInsteadOfStartingThreads() throws Exception {
    int tasks = 100;
    Set<String> threads = ConcurrentHashMap.newKeySet();
    CountDownLatch done = new CountDownLatch(tasks);
    for (int i = 0; i < tasks; i++) {
      executor.execute(
          () -> {
            threads.add(Thread.currentThread().getName());
            await(release);
            done.countDown();
          });
    }

    assertThat(executor.getPoolSize()).isEqualTo(BASE_THREADS);
    release.countDown();
    assertThat(done.await(SAFETY_NET.toSeconds(), TimeUnit.SECONDS)).isTrue();
    assertThat(threads).hasSize(BASE_THREADS);
  }

  @Test
  void whileCallbacksHoldEveryThreadEachLookStartsAsManyThreadsAsCoresUpToTheCap()
      throws Exception {
    int tasks = MAX_THREADS + 10;
    CountDownLatch started = new CountDownLatch(MAX_THREADS);
    CountDownLatch done = new CountDownLatch(tasks);
    for (int i = 0; i < tasks; i++) {
      executor.execute(
          () -> {
            started.countDown();
            await(release);
            done.countDown();
          });
    }

    // The first look finds the waiting completions; each later one that saw none end adds threads.
    time.advance(LOOK);
    assertThat(executor.getPoolSize()).isEqualTo(BASE_THREADS);
    time.advance(LOOK);
    assertThat(executor.getPoolSize()).isEqualTo(2 * BASE_THREADS);
    for (int look = 0; look < MAX_THREADS; look++) {
      time.advance(LOOK);
    }
    assertThat(started.await(SAFETY_NET.toSeconds(), TimeUnit.SECONDS)).isTrue();
    assertThat(executor.getPoolSize()).isEqualTo(MAX_THREADS);
    assertThat(executor.getQueue()).hasSize(tasks - MAX_THREADS);

    release.countDown();
    assertThat(done.await(SAFETY_NET.toSeconds(), TimeUnit.SECONDS)).isTrue();
    time.advance(LOOK);
    assertThat(executor.getCorePoolSize()).isEqualTo(BASE_THREADS);
  }

  @Test
  void aLookAfterWhichACompletionEndedStartsNoThread() throws Exception {
    CountDownLatch first = new CountDownLatch(1);
    executor.execute(() -> await(first));
    for (int i = 1; i < BASE_THREADS + 2; i++) {
      executor.execute(() -> await(release));
    }
    time.advance(LOOK);

    first.countDown();
    while (executor.getCompletedTaskCount() == 0) {
      Thread.onSpinWait();
    }
    time.advance(LOOK);

    assertThat(executor.getPoolSize()).isEqualTo(BASE_THREADS);
  }

  private static void await(CountDownLatch latch) {
    try {
      latch.await(SAFETY_NET.toSeconds(), TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
