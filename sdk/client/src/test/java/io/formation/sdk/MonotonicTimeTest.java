package io.formation.sdk;

import static io.formation.sdk.Fixtures.documentSet;
import static org.assertj.core.api.Assertions.assertThat;

import io.formation.testkit.FakeTime;
import java.time.Duration;
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

  FormationClient.Builder client() {
    return TestClients.builder(server, time);
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
              options
                  .newBuilder()
                  .onStateChange(set -> time.stepWallClock(Duration.ofHours(1)))
                  .build());
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
      time.stepWallClock(Duration.ofHours(-1));
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
            .onStateChange(set -> time.stepWallClock(Duration.ofHours(1)))
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
}
