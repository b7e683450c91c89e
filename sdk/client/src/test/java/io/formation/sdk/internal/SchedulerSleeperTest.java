package io.formation.sdk.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
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
}
