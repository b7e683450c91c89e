package io.formation.sdk;

import static io.formation.sdk.Fixtures.documentSet;
import static io.formation.sdk.Fixtures.status;
import static java.time.Duration.ofMinutes;
import static java.time.Duration.ofSeconds;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.formation.testkit.FakeTime;
import java.time.Duration;
import java.time.Instant;
import mockwebserver3.MockWebServer;
import mockwebserver3.QueueDispatcher;
import mockwebserver3.junit5.StartStop;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Every wait ends at its deadline, whatever the set's state or the service's answers, and never
 * polls or sleeps past it; every id a wait accepts can be saved.
 */
class WaitDeadlineTest {
  private static final String ID = "ds_1";

  @StartStop final MockWebServer server = new MockWebServer();
  final FakeTime time = new FakeTime();

  @BeforeEach
  void answerAnUnscriptedPollWith418() {
    QueueDispatcher dispatcher = new QueueDispatcher();
    dispatcher.setFailFast(status(418));
    server.setDispatcher(dispatcher);
  }

  PollOptions.Builder tenMinutes() {
    return PollOptions.builder()
        .initialInterval(ofSeconds(1))
        .maxInterval(ofMinutes(5))
        .multiplier(2)
        .jitter(0)
        .inputNeededGrace(Duration.ZERO)
        .timeout(ofMinutes(10));
  }

  @ParameterizedTest
  @EnumSource(Mode.class)
  void aSetStillInputNeededWhenTheDeadlinePassesEndsTheWaitAtItsDeadline(Mode mode)
      throws Exception {
    server.enqueue(documentSet(ID, "input_needed"));
    PollOptions options = tenMinutes().build();
    try (FormationClient client = TestClients.client(server, time)) {
      WaitState wait = client.documentSets().startWait(ID, options);
      PollResult told = mode.poll(client, wait, options);
      assertThat(told.kind()).isEqualTo(PollResult.Kind.INPUT_NEEDED);
      assertThat(told.nextPollAt()).isBeforeOrEqualTo(wait.deadline());

      time.advance(ofMinutes(11));
      assertThatThrownBy(() -> mode.poll(client, told.waitState(), options))
          .isInstanceOfSatisfying(
              PollTimeoutException.class,
              e -> assertThat(e.lastSeen().orElseThrow().state().needsInput()).isTrue());
    }
    assertThat(server.getRequestCount()).isEqualTo(1);
  }

  @ParameterizedTest
  @EnumSource(Mode.class)
  void aFailureThatDoesNotPassIsPolledAfterThePauseUntilTheDeadlineAndThenNamedAsTheCause(Mode mode)
      throws Exception {
    for (int i = 0; i < 20; i++) {
      server.enqueue(status(400));
    }
    PollOptions options = tenMinutes().retryFailuresAfter(ofMinutes(4)).build();
    try (FormationClient client = TestClients.builder(server, time).maxRetries(0).build()) {
      WaitState wait = client.documentSets().startWait(ID, options);
      Instant deadline = wait.deadline();
      int polls = 0;
      while (true) {
        PollResult result;
        try {
          result = mode.poll(client, wait, options);
        } catch (PollTimeoutException e) {
          assertThat(e).hasCauseInstanceOf(BadRequestException.class);
          assertThat(time.instant()).isAfterOrEqualTo(deadline);
          break;
        }
        polls++;
        assertThat(result.kind()).isEqualTo(PollResult.Kind.FAILED);
        assertThat(result.nextPollAt()).isBeforeOrEqualTo(deadline);
        wait = result.waitState();
        time.advance(Duration.between(time.instant(), result.nextPollAt()));
      }
      // At 0, 4 and 8 minutes, then at the deadline, where the wait ends.
      assertThat(polls).isEqualTo(3);
    }
    assertThat(server.getRequestCount()).isEqualTo(4);
  }

  @ParameterizedTest
  @EnumSource(Mode.class)
  void aSavedWaitWhoseLastPollLiesYearsAfterItsDeadlineEndsAtTheDeadlineWithoutSleepingPastIt(
      Mode mode) {
    Instant start = time.instant();
    // Started now with a one-minute deadline; its last poll ten years on: damaged, or hostile.
    String hostile =
        "w1.ds_1.finalizing."
            + start.toEpochMilli()
            + ".60000.1000.."
            + Duration.ofDays(3650).toMillis()
            + "."
            + Duration.ofDays(3650).toMillis()
            + ".1.m";
    WaitState wait = WaitState.decode(hostile);
    try (FormationClient client = TestClients.client(server, time)) {
      assertThatThrownBy(() -> mode.await(client, wait, tenMinutes().build()))
          .isInstanceOf(PollTimeoutException.class);
    }
    assertThat(time.instant()).isBeforeOrEqualTo(start.plusSeconds(60));
    assertThat(server.getRequestCount()).isZero();
  }

  @Test
  void anIdTooLongToSaveIsRefusedWhenTheWaitStartsSayingWhy() {
    String id = "€".repeat(233);
    try (FormationClient client = TestClients.client(server, time)) {
      assertThatThrownBy(() -> client.documentSets().startWait(id, PollOptions.defaults()))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("document set id")
          .hasMessageContaining("1024");
      String longest = "€".repeat(113);
      String encoded = client.documentSets().startWait(longest, PollOptions.defaults()).encode();
      assertThat(WaitState.decode(encoded).setId()).isEqualTo(longest);
    }
  }
}
