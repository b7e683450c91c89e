package io.formation.sdk;

import static io.formation.sdk.Fixtures.documentSet;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import mockwebserver3.MockWebServer;
import mockwebserver3.junit5.StartStop;
import org.junit.jupiter.api.Test;

/**
 * Deadlines, the request budget and the grace of a wait are measured on the monotonic ticker: a
 * step of the wall clock (NTP, a resumed VM, an operator) changes none of them.
 */
class MonotonicTimeTest {
  @StartStop final MockWebServer server = new MockWebServer();
  final FakeTime time = new FakeTime();
  final SteppedClock wall = new SteppedClock(time);

  FormationClient.Builder client() {
    return TestClients.builder(server, time).clock(wall);
  }

  @Test
  void aWallClockStepForwardOfAnHourDoesNotEndAThirtyMinuteWait() {
    server.enqueue(documentSet("ds_1", "filing_in_progress"));
    server.enqueue(documentSet("ds_1", "complete"));
    PollOptions options = PollOptions.builder().timeout(Duration.ofMinutes(30)).jitter(0).build();

    try (FormationClient client = client().build()) {
      // The step happens between the first and the second poll.
      client
          .documentSets()
          .awaitCompletion(
              "ds_1",
              options.newBuilder().onStateChange(set -> wall.step(Duration.ofHours(1))).build());
    }

    assertThat(server.getRequestCount()).isEqualTo(2);
  }

  @Test
  void aWallClockStepBackOfAnHourDoesNotStallTheRequestBudget() {
    for (int i = 0; i < 3; i++) {
      server.enqueue(documentSet("ds_1", "filing_in_progress"));
    }

    try (FormationClient client = client().requestBudget(1, 1).build()) {
      client.documentSets().get("ds_1");
      wall.step(Duration.ofHours(-1));
      client.documentSets().get("ds_1");
      client.documentSets().get("ds_1");
    }

    assertThat(server.getRequestCount()).isEqualTo(3);
    // Two turns of a one-per-second budget: about two seconds of waiting, not an hour.
    assertThat(time.sleeps().stream().reduce(Duration.ZERO, Duration::plus))
        .isLessThanOrEqualTo(Duration.ofSeconds(3));
  }

  @Test
  void aWallClockStepDuringAResumedWaitMovesNeitherItsPollsNorItsDeadline() {
    PollOptions options =
        PollOptions.builder()
            .initialInterval(Duration.ofSeconds(4))
            .maxInterval(Duration.ofSeconds(4))
            .timeout(Duration.ofSeconds(60))
            .jitter(0)
            .onStateChange(set -> wall.step(Duration.ofHours(1)))
            .build();
    server.enqueue(documentSet("ds_1", "filing_in_progress"));
    server.enqueue(documentSet("ds_1", "finalizing"));
    server.enqueue(documentSet("ds_1", "complete"));

    try (FormationClient client = client().build()) {
      // The wall clock is read once, when the wait is taken up; each change then steps it an hour.
      WaitState saved = WaitState.decode(client.documentSets().startWait("ds_1", options).encode());
      client.documentSets().awaitCompletion(saved, options);
    }

    assertThat(server.getRequestCount()).isEqualTo(3);
    assertThat(time.sleeps()).containsExactly(Duration.ofSeconds(4), Duration.ofSeconds(4));
  }

  /** The wall clock: fake time plus whatever steps the test makes. */
  static final class SteppedClock extends Clock {
    private final FakeTime time;
    private volatile Duration offset = Duration.ZERO;

    SteppedClock(FakeTime time) {
      this.time = time;
    }

    void step(Duration by) {
      offset = offset.plus(by);
    }

    @Override
    public Instant instant() {
      return time.instant().plus(offset);
    }

    @Override
    public ZoneId getZone() {
      return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
      return this;
    }
  }
}
