package io.formation.examples.web;

import static org.assertj.core.api.Assertions.assertThat;

import io.formation.sandbox.Faults;
import io.formation.sandbox.SandboxOptions;
import io.formation.testkit.FakeTime;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * Waits follow the sandbox's schedule: what once failed on a busy 2-core machine was a browser
 * test, with half of the service's requests failing, waiting a fixed minute for what the service's
 * own schedule made longer.
 */
class PatienceTest {
  private static final SandboxOptions REAL_CLOCK = SandboxOptions.defaults().withReview(true);

  @Test
  void onTheRealClockAWaitCoversTheSetsWholeScheduleOnALoadedMachine() {
    SandboxOptions slow =
        REAL_CLOCK.withStepDelay(Duration.ofSeconds(10)).withProcessingLag(Duration.ofSeconds(5));
    Duration schedule = Duration.ofSeconds(10 * slow.progression().size() + 5 * 2);

    assertThat(Patience.page(slow))
        .isGreaterThanOrEqualTo(schedule.multipliedBy(Patience.LOADED))
        .isGreaterThan(Patience.page(REAL_CLOCK));
  }

  @Test
  void aWaitGrowsWithTheShareOfRequestsThatFail() {
    Duration none = Patience.page(REAL_CLOCK);
    Duration half = Patience.page(REAL_CLOCK.withFaults(Faults.evenly(0.5)));

    // Each failed request costs a round more: half failing, twice the rounds.
    assertThat(half).isGreaterThanOrEqualTo(none.multipliedBy(2));
  }

  @Test
  void withHalfOfRequestsFailingABrowserWaitsLongerThanTheMinuteThatWasNotEnough() {
    SandboxOptions failingTest = FaultyServiceFlowTest.FaultyService.options(0.5, 6243);

    assertThat(Patience.page(failingTest)).isGreaterThan(Duration.ofMinutes(1).multipliedBy(3));
  }

  @Test
  void onTheTestClockTheServicesScheduleIsNotWaitedForOnlyThePagesAndTheBackendsOwn() {
    SandboxOptions slowOnTestClock =
        REAL_CLOCK
            .withClock(new FakeTime(SandboxForTests.START))
            .withStepDelay(Duration.ofHours(1));

    assertThat(Patience.page(slowOnTestClock))
        .isEqualTo(Patience.page(REAL_CLOCK.withClock(new FakeTime(SandboxForTests.START))))
        .isGreaterThanOrEqualTo(Patience.PAGE_PAUSE.multipliedBy(Patience.LOADED));
  }

  @Test
  void aHangGuardOutlastsSeveralWaitsAtTheirLongest() {
    Duration patience = Patience.page(REAL_CLOCK);

    assertThat(HangGuard.of(patience).limit())
        .isEqualTo(patience.multipliedBy(HangGuard.WAITS))
        .isGreaterThan(patience.multipliedBy(2));
  }
}
