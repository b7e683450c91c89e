package io.formation.sdk.internal.time;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class SchedulerSleeperTest {
  @Test
  void closeFailsTheWaitsStillPending() {
    SchedulerSleeper sleeper = new SchedulerSleeper();
    CompletableFuture<Void> wait = sleeper.delay(Duration.ofHours(1));
    sleeper.close();
    assertThat(wait)
        .isCompletedExceptionally()
        .failsWithin(Duration.ZERO)
        .withThrowableOfType(ExecutionException.class)
        .withCauseInstanceOf(IllegalStateException.class)
        .withMessageContaining("closed");
  }

  @Test
  void aWaitAskedForAfterCloseIsAFailedFutureNotAThrow() {
    SchedulerSleeper sleeper = new SchedulerSleeper();
    sleeper.close();
    assertThat(sleeper.delay(Duration.ofMillis(1))).isCompletedExceptionally();
  }

  @Test
  void closeWakesWhatAPendingWaitWakesWithTheFailure() {
    SchedulerSleeper sleeper = new SchedulerSleeper();
    AtomicReference<Throwable> woken = new AtomicReference<>();
    sleeper.after(Duration.ofHours(1), woken::set);
    sleeper.close();
    assertThat(woken.get())
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("closed");
  }

  @Test
  void aCancelledWaitWakesNothing() {
    SchedulerSleeper sleeper = new SchedulerSleeper();
    AtomicBoolean woken = new AtomicBoolean();
    sleeper.after(Duration.ofHours(1), failure -> woken.set(true)).cancel(false);
    sleeper.close();
    assertThat(woken).isFalse();
  }

  @Test
  void aWaitAskedForAfterCloseWakesWithTheFailureAtOnce() {
    SchedulerSleeper sleeper = new SchedulerSleeper();
    sleeper.close();
    AtomicReference<Throwable> woken = new AtomicReference<>();
    sleeper.after(Duration.ofMillis(1), woken::set);
    assertThat(woken.get()).isInstanceOf(IllegalStateException.class);
  }
}
