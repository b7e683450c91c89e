package io.formation.sdk.internal.transport;

import static org.assertj.core.api.Assertions.assertThat;

import io.formation.sdk.internal.time.SchedulerSleeper;
import io.formation.sdk.internal.time.Sleeper;
import io.formation.sdk.internal.time.TestSleepers;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

class AsyncOperationTest {
  @Test
  void aStepStartedByAWaitOverBeforeAfterReturnsIsTheOneACancelStops() {
    // A wait over at once wakes the operation inside after(), and its next step is tracked first.
    Sleeper over =
        TestSleepers.of(duration -> {}, duration -> CompletableFuture.<Void>completedFuture(null));
    AsyncOperation<String> operation = new AsyncOperation<>(null);
    CompletableFuture<String> next = new CompletableFuture<>();
    operation.after(over, Duration.ofSeconds(1), () -> operation.track(next));

    operation.result().cancel(true);

    assertThat(next).isCancelled();
  }

  @Test
  void aWaitFailedByAClosingClientFailsTheOperation() {
    SchedulerSleeper sleeper = new SchedulerSleeper();
    AsyncOperation<String> operation = new AsyncOperation<>(null);
    operation.after(sleeper, Duration.ofHours(1), () -> operation.complete("woken"));

    sleeper.close();

    assertThat(operation.result()).isCompletedExceptionally();
  }

  @Test
  void endingTheOperationCancelsItsWait() {
    CompletableFuture<Void> wait = new CompletableFuture<>();
    Sleeper pending = TestSleepers.of(duration -> {}, duration -> wait);
    AsyncOperation<String> operation = new AsyncOperation<>(null);
    operation.after(pending, Duration.ofHours(1), () -> operation.complete("woken"));

    operation.result().cancel(true);

    assertThat(wait).isCancelled();
  }

  @Test
  void whoeverSeesTheCallersFutureEndedSeesItsStepAlreadyGivenBack() {
    for (Consumer<CompletableFuture<String>> abandon :
        List.<Consumer<CompletableFuture<String>>>of(
            f -> f.cancel(false),
            f -> f.complete("enough"),
            f -> f.completeExceptionally(new TimeoutException()),
            f -> f.orTimeout(1, TimeUnit.NANOSECONDS))) {
      AsyncOperation<String> operation = new AsyncOperation<>(null);
      CompletableFuture<Void> step = new CompletableFuture<>();
      operation.track(step);
      CompletableFuture<Boolean> stepCancelledWhenSeen =
          operation.result().handle((value, error) -> step.isCancelled());

      abandon.accept(operation.result());

      assertThat(stepCancelledWhenSeen.join()).isTrue();
    }
  }
}
