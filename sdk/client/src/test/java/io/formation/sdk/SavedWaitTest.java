package io.formation.sdk;

import static io.formation.sdk.Fixtures.documentSet;
import static io.formation.sdk.Fixtures.status;
import static java.time.Duration.ofMillis;
import static java.time.Duration.ofSeconds;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import io.formation.sdk.model.ActionResult;
import io.formation.sdk.model.DocumentSetState;
import io.formation.sdk.model.Form;
import io.formation.sdk.model.FormAction;
import io.formation.testkit.FakeTime;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.QueueDispatcher;
import mockwebserver3.junit5.StartStop;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A wait saved as a string after any poll and resumed in another process goes on as if it had never
 * stopped. Every scenario of a step runs through {@code poll} and {@code pollAsync}, every resumed
 * wait through {@code awaitCompletion} and {@code awaitCompletionAsync}.
 */
class SavedWaitTest {
  private static final String ID = "ds_01HZX3K9Q2M7W8T4V6B5N0CRJD";
  private static final Instant START = Instant.parse("2026-01-01T00:00:00Z");

  @StartStop final MockWebServer server = new MockWebServer();
  final FakeTime time = new FakeTime();

  /** No jitter, doubling from 1 s up to 10 s, a 60 s grace. */
  PollOptions.Builder options() {
    return PollOptions.builder()
        .initialInterval(ofSeconds(1))
        .multiplier(2)
        .maxInterval(ofSeconds(10))
        .jitter(0);
  }

  @BeforeEach
  void answerAnUnscriptedPollWith418() {
    // A poll the test did not script fails the test at once instead of waiting for an answer.
    QueueDispatcher dispatcher = new QueueDispatcher();
    dispatcher.setFailFast(status(418));
    server.setDispatcher(dispatcher);
  }

  FormationClient client() {
    return TestClients.client(server, time);
  }

  void script(String... states) {
    for (String state : states) {
      server.enqueue(documentSet(ID, state));
    }
  }

  /** The wait as another process reads it back. */
  static WaitState saved(WaitState wait) {
    return WaitState.decode(wait.encode());
  }

  // The string form.

  @Test
  void aWaitWithEveryFieldSetRoundTripsThroughAStringWellUnder200Bytes() throws Exception {
    script("input_needed", "signature_requests_needed", "signature_requests_needed");
    try (FormationClient client = client()) {
      WaitState wait =
          client
              .documentSets()
              .startWait(ID, options().build())
              .withSubmission(START.minusSeconds(5));
      for (int i = 0; i < 3; i++) {
        wait = client.documentSets().poll(wait, options().build()).waitState();
        time.advance(Duration.between(time.instant(), wait.nextPoll()));
      }
      String encoded = wait.encode();

      assertThat(encoded.getBytes(StandardCharsets.UTF_8)).hasSizeLessThan(200);
      assertThat(encoded).matches("[A-Za-z0-9_.%-]+");
      WaitState read = WaitState.decode(encoded);
      assertThat(read).isEqualTo(wait);
      assertThat(read.setId()).isEqualTo(ID);
      assertThat(read.lastState()).contains(DocumentSetState.SIGNATURE_REQUESTS_NEEDED);
      assertThat(read.lastSubmission()).contains(START.minusSeconds(5));
      assertThat(read.polls()).isEqualTo(3);
      assertThat(read.interval()).isEqualTo(ofSeconds(8));
      assertThat(read.started()).isEqualTo(START);
      assertThat(read.deadline()).isEqualTo(START.plus(Duration.ofMinutes(30)));
    }
  }

  @Test
  void aVersionOneStringSavedByAnEarlierReleaseIsStillRead() {
    WaitState wait = WaitState.decode(Fixtures.read("waits/v1.txt").strip());

    assertThat(wait.setId()).isEqualTo(ID);
    assertThat(wait.lastState()).contains(DocumentSetState.SIGNATURE_REQUESTS_NEEDED);
    assertThat(wait.started()).isEqualTo(START);
    assertThat(wait.deadline()).isEqualTo(START.plus(Duration.ofMinutes(30)));
    assertThat(wait.interval()).isEqualTo(ofSeconds(8));
    assertThat(wait.lastSubmission()).contains(START.minusSeconds(12));
    assertThat(wait.lastPoll()).contains(START.plusSeconds(14));
    assertThat(wait.nextPoll()).isEqualTo(START.plusSeconds(22));
    assertThat(wait.polls()).isEqualTo(4);
    // What this release writes for it is what the fixture holds: the format did not drift.
    assertThat(wait.encode()).isEqualTo(Fixtures.read("waits/v1.txt").strip());
  }

  @Test
  void aWaitWithoutADeadlineSavesNoneAndReadsBackAsNone() {
    try (FormationClient client = client()) {
      WaitState wait =
          client
              .documentSets()
              .startWait(
                  ID,
                  options().timeout(java.time.temporal.ChronoUnit.FOREVER.getDuration()).build());
      assertThat(wait.deadline()).isEqualTo(Instant.MAX);
      assertThat(WaitState.decode(wait.encode()).deadline()).isEqualTo(Instant.MAX);
    }
  }

  @Test
  void idsAndStatesWithAnyCharacterSurviveTheString() {
    try (FormationClient client = client()) {
      WaitState wait = client.documentSets().startWait("set.with/odd chars~é", options().build());
      assertThat(WaitState.decode(wait.encode()).setId()).isEqualTo("set.with/odd chars~é");
      assertThat(wait.encode()).matches("[A-Za-z0-9_.%-]+");
    }
  }

  @Test
  void garbageIsRefusedSayingWhatIsWrong() {
    String good = Fixtures.read("waits/v1.txt").strip();
    assertThat(refusal("")).contains("does not start with the version");
    assertThat(refusal("hello")).contains("does not start with the version");
    assertThat(refusal("w1.ds_1.finalizing")).contains("11 fields", "has 3");
    assertThat(refusal(good.replace("w1.", "w4."))).contains("format 4", "later version");
    assertThat(refusal(good.replace(".m", ".mi"))).contains("flags", "empty or \"m\"");
    assertThat(refusal(good.replace("w1.", "w0."))).contains("format 0 does not exist");
    assertThat(refusal(good.replace(".1800000.", ".soon."))).contains("deadline");
    assertThat(refusal(good.replace(".1800000.", ".-9999999999999999999.")))
        .contains("deadline field is out of range");
    assertThat(refusal(good.replace(".1800000.", ".-1800000."))).contains("before the start");
    assertThat(refusal(good.replace(".8000.", ".0."))).contains("interval must be 1 ms");
    assertThat(refusal(good.replace("ds_01HZ", "ds%G1HZ"))).contains("id field", "%-escape");
    assertThat(refusal(good.replace("ds_01HZ", "ds%\uff15F01HZ"))).contains("id field", "%-escape");
    assertThat(refusal(good.replace("ds_01HZ", "ds 01HZ"))).contains("id field", "U+0020");
    assertThat(refusal(good.replace(".m", ".x"))).contains("flags");
    assertThat(refusal(good.replace(".4.m", ".99999999999.m"))).contains("polls");
    assertThat(refusal("w1." + "x".repeat(5000))).contains("characters long");
    assertThatThrownBy(() -> WaitState.decode(null)).isInstanceOf(NullPointerException.class);
  }

  private static String refusal(String encoded) {
    return assertThatThrownBy(() -> WaitState.decode(encoded))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("Not a saved wait")
        .actual()
        .getMessage();
  }

  // One poll as one call.

  @ParameterizedTest
  @EnumSource(Mode.class)
  void eachPollSaysWhatHappenedAndWhenToPollNext(Mode mode) throws Exception {
    script("filing_in_progress", "filing_in_progress");
    server.enqueue(new MockResponse.Builder().code(503).addHeader("Retry-After", "7").build());
    script("finalizing", "complete");
    List<PollResult> results = new ArrayList<>();
    try (FormationClient client = TestClients.builder(server, time).maxRetries(0).build()) {
      WaitState wait = client.documentSets().startWait(ID, options().build());
      for (int i = 0; i < 5; i++) {
        PollResult result = mode.poll(client, saved(wait), options().build());
        results.add(result);
        wait = result.waitState();
        time.advance(result.nextPollIn());
      }
    }

    assertThat(results)
        .extracting(PollResult::kind)
        .containsExactly(
            PollResult.Kind.CHANGED,
            PollResult.Kind.UNCHANGED,
            PollResult.Kind.FAILED_TRANSIENTLY,
            PollResult.Kind.CHANGED,
            PollResult.Kind.COMPLETE);
    // 1 s, 2 s, then the 503's Retry-After of 7 s (more than the 4 s interval), then 8 s.
    assertThat(results)
        .extracting(PollResult::nextPollIn)
        .containsExactly(ofSeconds(1), ofSeconds(2), ofSeconds(7), ofSeconds(8), Duration.ZERO);
    assertThat(results.get(0).nextPollAt()).isEqualTo(START.plusSeconds(1));
    assertThat(results.get(2).failure().orElseThrow())
        .isInstanceOfSatisfying(
            ServerException.class, e -> assertThat(e.statusCode()).isEqualTo(503));
    assertThat(results.get(2).set()).isEmpty();
    assertThat(results.get(2).waitState().lastState())
        .contains(DocumentSetState.FILING_IN_PROGRESS);
    assertThat(results.get(4).set().orElseThrow().state().isComplete()).isTrue();
    assertThat(results.get(4).waitState().polls()).isEqualTo(5);
    // Each call polled once, and the caller did all the waiting.
    assertThat(server.getRequestCount()).isEqualTo(5);
    assertThat(time.sleeps()).isEmpty();
  }

  @ParameterizedTest
  @EnumSource(Mode.class)
  void aStepwiseWaitSavedAfterEveryPollPollsExactlyWhenAnUnbrokenWaitDoes(Mode mode)
      throws Exception {
    String[] states = {
      "input_needed",
      "input_needed",
      "signature_requests_needed",
      "awaiting_payment",
      "awaiting_payment",
      "awaiting_payment",
      "filing_in_progress",
      "finalizing",
      "complete"
    };
    PollOptions options = options().jitter(0.3).build();
    script(states);
    try (FormationClient client =
        TestClients.random(TestClients.builder(server, time), () -> 0.5).build()) {
      mode.await(client, client.documentSets().startWait(ID, options), options);
    }
    List<Duration> unbroken = time.sleeps();

    FakeTime other = new FakeTime();
    script(states);
    WaitState wait;
    try (FormationClient client =
        TestClients.random(TestClients.builder(server, other), () -> 0.5).build()) {
      wait = client.documentSets().startWait(ID, options);
    }
    PollResult result;
    do {
      // A new client for every poll: a new process, which knows only the string.
      try (FormationClient client =
          TestClients.random(TestClients.builder(server, other), () -> 0.5).build()) {
        result = mode.poll(client, saved(wait), options);
      }
      wait = result.waitState();
      if (result.kind() != PollResult.Kind.COMPLETE) {
        other.sleep(result.nextPollIn());
      }
    } while (result.kind() != PollResult.Kind.COMPLETE);

    assertThat(other.sleeps()).isEqualTo(unbroken).hasSize(states.length - 1);
    assertThat(server.getRequestCount()).isEqualTo(2 * states.length);
  }

  @ParameterizedTest
  @EnumSource(Mode.class)
  void aStepThrowsWhatEndsAWait(Mode mode) throws Exception {
    server.enqueue(status(404));
    server.enqueue(status(401));
    server.enqueue(status(403));
    try (FormationClient client = client()) {
      WaitState wait = client.documentSets().startWait(ID, options().build());
      assertThatThrownBy(() -> mode.poll(client, wait, options().build()))
          .isInstanceOf(NotFoundException.class);
      time.advance(ofSeconds(1));
      assertThatThrownBy(() -> mode.poll(client, wait, options().build()))
          .isInstanceOf(AuthenticationException.class);
      time.advance(ofSeconds(1));
      assertThatThrownBy(() -> mode.poll(client, wait, options().build()))
          .isInstanceOf(PermissionDeniedException.class);
      // Past its deadline, a wait polls no more: it has ended.
      time.advance(Duration.ofMinutes(31));
      assertThatThrownBy(() -> mode.poll(client, wait, options().build()))
          .isInstanceOfSatisfying(
              PollTimeoutException.class,
              e -> assertThat(e.timeout()).isEqualTo(Duration.ofMinutes(30)));
    }
    assertThat(server.getRequestCount()).isEqualTo(3);
  }

  // The input_needed grace counts from the last submission.

  @ParameterizedTest
  @EnumSource(Mode.class)
  void theGraceCountsFromTheLastSubmissionNotFromTheStartOfTheWait(Mode mode) throws Exception {
    script("input_needed", "input_needed", "input_needed", "input_needed", "input_needed");
    script("complete");
    try (FormationClient client = client()) {
      // Submitted 50 s before the wait began: 10 s of the 60 s grace are left.
      WaitState wait =
          client
              .documentSets()
              .startWait(ID, options().build())
              .withSubmission(START.minusSeconds(50));
      assertThatThrownBy(() -> mode.await(client, wait, options().build()))
          .isInstanceOfSatisfying(
              InputNeededException.class,
              e -> assertThat(e).hasMessageContaining("PT1M after the last submission"));
    }
    // Polls at 0, 1, 3 and 7 s; the next would be at 15 s, so the last one is at 10 s, the end of
    // the grace.
    assertThat(time.sleeps())
        .containsExactly(ofSeconds(1), ofSeconds(2), ofSeconds(4), ofSeconds(3));
    assertThat(server.getRequestCount()).isEqualTo(5);
  }

  @ParameterizedTest
  @EnumSource(Mode.class)
  void aSubmissionLongBeforeTheWaitLeavesNoGrace(Mode mode) throws Exception {
    script("input_needed", "complete");
    try (FormationClient client = client()) {
      WaitState wait =
          client
              .documentSets()
              .startWait(ID, options().build())
              .withSubmission(START.minusSeconds(600));
      PollResult result = mode.poll(client, wait, options().build());
      assertThat(result.kind()).isEqualTo(PollResult.Kind.INPUT_NEEDED);
      assertThat(result.failure().orElseThrow()).isInstanceOf(InputNeededException.class);
      assertThat(result.set().orElseThrow().state().needsInput()).isTrue();
    }
    assertThat(server.getRequestCount()).isEqualTo(1);
  }

  @ParameterizedTest
  @EnumSource(Mode.class)
  void aNewSubmissionAfterInputNeededGivesTheSetItsGraceAgain(Mode mode) throws Exception {
    script(
        "signature_requests_needed", "input_needed", "input_needed", "input_needed", "finalizing");
    try (FormationClient client = client()) {
      WaitState wait = client.documentSets().startWait(ID, options().build());
      wait = mode.poll(client, wait, options().build()).waitState();
      time.advance(ofSeconds(1));
      PollResult asked = mode.poll(client, wait, options().build());
      assertThat(asked.kind()).isEqualTo(PollResult.Kind.INPUT_NEEDED);
      assertThat(asked.failure().orElseThrow()).hasMessageContaining("asks for input again");
      time.advance(ofSeconds(2));
      // Nothing was submitted: polling again says nothing new, as it was told once.
      PollResult again = mode.poll(client, asked.waitState(), options().build());
      assertThat(again.kind()).isEqualTo(PollResult.Kind.UNCHANGED);

      WaitState submitted = again.waitState().withSubmission(time.instant());
      time.advance(ofSeconds(4));
      assertThat(mode.poll(client, saved(submitted), options().build()).kind())
          .isEqualTo(PollResult.Kind.UNCHANGED);
      time.advance(ofSeconds(8));
      assertThat(mode.poll(client, saved(submitted), options().build()).kind())
          .isEqualTo(PollResult.Kind.CHANGED);
    }
  }

  @ParameterizedTest
  @EnumSource(Mode.class)
  void aSubmissionAcceptedThroughTheClientIsTheLastSubmissionOfAWaitStartedAfterwards(Mode mode)
      throws Exception {
    server.enqueue(Fixtures.fixture("forms/list_plain_data.json"));
    server.enqueue(Fixtures.fixture("actions/receipt.json"));
    script("input_needed", "input_needed", "finalizing", "complete");
    try (FormationClient client = client()) {
      assertThat(client.documentSets().startWait(ID, PollOptions.defaults()).lastSubmission())
          .isEmpty();
      Form form = client.forms().list(ID).get(0);
      time.advance(ofSeconds(3));
      client.forms().submit(form, form.values());
      time.advance(ofSeconds(40));

      WaitState wait = client.documentSets().startWait(ID, options().build());
      assertThat(wait.lastSubmission()).contains(START.plusSeconds(3));
      assertThat(mode.await(client, wait, options().build()).state().isComplete()).isTrue();
    }
  }

  @Test
  void aGetActionIsNotASubmissionNorIsAFormTheClientNeverListed() {
    server.enqueue(Fixtures.fixture("forms/list_plain_data.json"));
    server.enqueue(Fixtures.fixture("actions/receipt.json"));
    server.enqueue(Fixtures.fixture("actions/receipt.json"));
    try (FormationClient client = client()) {
      Form form = client.forms().list(ID).get(0);
      client.forms().invoke(action("GET", form.actions().get(0).url()), form.values());
      client.forms().invoke(action("PUT", "/v1/opaque/elsewhere"), form.values());
      assertThat(client.documentSets().startWait(ID, PollOptions.defaults()).lastSubmission())
          .isEmpty();
    }
  }

  @Test
  void theClientRemembersTheSubmissionsOfTheLatestTenThousandSetsOnly() {
    Submissions submissions = new Submissions(time::nanoTime);
    for (int i = 0; i <= Submissions.SETS; i++) {
      submissions.listed("set_" + i, List.of(formWith("/a/" + i)));
      submissions.accepted(action("PUT", "/a/" + i), receipt());
    }
    assertThat(submissions.last("set_0", time)).isEmpty();
    assertThat(submissions.last("set_1", time)).contains(START);
    assertThat(submissions.last("set_" + Submissions.SETS, time)).contains(START);
  }

  // A resumed wait behaves as if it had never stopped.

  @ParameterizedTest
  @EnumSource(Mode.class)
  void aResumedWaitKeepsItsBackoff(Mode mode) throws Exception {
    script("filing_in_progress", "filing_in_progress", "filing_in_progress", "filing_in_progress");
    WaitState wait;
    try (FormationClient client = client()) {
      wait = client.documentSets().startWait(ID, options().build());
      for (int i = 0; i < 4; i++) {
        PollResult result = mode.poll(client, wait, options().build());
        wait = result.waitState();
        time.advance(result.nextPollIn());
      }
    }
    // The process was down from 15 s to 40 s, past the 23 s its next poll was due.
    time.advance(ofSeconds(25));
    script("filing_in_progress", "filing_in_progress", "finalizing", "complete");
    try (FormationClient client = client()) {
      mode.await(client, saved(wait), options().build());
    }
    // The interval had reached 10 s (1, 2, 4, 8, then capped): it goes on from there.
    assertThat(time.sleeps()).containsExactly(ofSeconds(10), ofSeconds(10), ofSeconds(10));
  }

  @ParameterizedTest
  @EnumSource(Mode.class)
  void aResumedWaitKeepsItsGraceFromTheSubmission(Mode mode) throws Exception {
    script("input_needed");
    WaitState wait;
    try (FormationClient client = client()) {
      wait = client.documentSets().startWait(ID, options().build()).withSubmission(START);
      wait = mode.poll(client, wait, options().build()).waitState();
    }
    // Down for 30 s: half of the grace is left, and a new process does not start it over.
    time.advance(ofSeconds(30));
    script("input_needed", "input_needed", "input_needed", "input_needed", "input_needed");
    script("input_needed", "complete");
    try (FormationClient client = client()) {
      WaitState resumed = saved(wait);
      assertThatThrownBy(() -> mode.await(client, resumed, options().build()))
          .isInstanceOf(InputNeededException.class);
    }
    // Polls at 30, 32, 36, 44, 54 and, cut short to the end of the grace, 60 s.
    assertThat(time.sleeps())
        .containsExactly(ofSeconds(2), ofSeconds(4), ofSeconds(8), ofSeconds(10), ofSeconds(6));
    assertThat(server.getRequestCount()).isEqualTo(7);
  }

  @ParameterizedTest
  @EnumSource(Mode.class)
  void aResumedWaitWhoseNextPollIsStillAheadPollsThen(Mode mode) throws Exception {
    script("awaiting_payment");
    WaitState wait;
    try (FormationClient client = client()) {
      wait = client.documentSets().startWait(ID, options().initialInterval(ofSeconds(8)).build());
      wait = mode.poll(client, wait, options().build()).waitState();
    }
    time.advance(ofSeconds(3));
    script("complete");
    try (FormationClient client = client()) {
      mode.await(client, saved(wait), options().firstPollWithin(ofSeconds(60)).build());
    }
    assertThat(time.sleeps()).containsExactly(ofSeconds(5));
  }

  @ParameterizedTest
  @EnumSource(Mode.class)
  void waitsResumedLateSpreadTheirFirstPollsOverFirstPollWithin(Mode mode) throws Exception {
    WaitState wait;
    try (FormationClient client = client()) {
      wait = client.documentSets().startWait(ID, options().build());
    }
    time.advance(Duration.ofMinutes(5));
    List<Duration> firstPolls = new ArrayList<>();
    for (double random : new double[] {0.0, 0.25, 0.9}) {
      FakeTime resumedAt = new FakeTime();
      resumedAt.advance(Duration.ofMinutes(5));
      script("complete");
      try (FormationClient client =
          TestClients.random(TestClients.builder(server, resumedAt), () -> random).build()) {
        mode.await(client, saved(wait), options().firstPollWithin(ofSeconds(40)).build());
      }
      firstPolls.add(resumedAt.sleeps().isEmpty() ? Duration.ZERO : resumedAt.sleeps().get(0));
    }
    assertThat(firstPolls).containsExactly(Duration.ZERO, ofSeconds(10), ofSeconds(36));
  }

  // Issue 18: the deadline bounds the first poll; polls keep a floor.

  @ParameterizedTest
  @EnumSource(Mode.class)
  void aOneSecondWaitWithFirstPollWithinFiveSecondsEndsAfterOneSecond(Mode mode) throws Exception {
    script("finalizing", "complete");
    PollOptions options = options().timeout(ofSeconds(1)).firstPollWithin(ofSeconds(5)).build();
    try (FormationClient client = client()) {
      assertThatThrownBy(
              () -> mode.await(client, client.documentSets().startWait(ID, options), options))
          .isInstanceOf(PollTimeoutException.class);
    }
    assertThat(time.sleeps()).containsExactly(ofSeconds(1));
    assertThat(server.getRequestCount()).isEqualTo(1);
  }

  @ParameterizedTest
  @EnumSource(Mode.class)
  void noTwoPollsComeCloserThan100MillisecondsWhateverTheOptionsSay(Mode mode) throws Exception {
    server.enqueue(status(503));
    server.enqueue(status(503));
    script("finalizing", "complete");
    PollOptions options = options().initialInterval(ofMillis(1)).maxInterval(ofMillis(1)).build();
    try (FormationClient client = TestClients.builder(server, time).maxRetries(0).build()) {
      mode.await(client, client.documentSets().startWait(ID, options), options);
    }
    assertThat(time.sleeps()).containsExactly(ofMillis(100), ofMillis(100), ofMillis(100));
  }

  @ParameterizedTest
  @EnumSource(Mode.class)
  void aStepCalledAgainAtOnceWaitsOutTheFloorFirst(Mode mode) throws Exception {
    script("finalizing", "finalizing");
    try (FormationClient client = client()) {
      WaitState wait = client.documentSets().startWait(ID, options().build());
      WaitState after = mode.poll(client, wait, options().build()).waitState();
      time.advance(ofMillis(30));
      mode.poll(client, after, options().build());
    }
    assertThat(time.sleeps()).containsExactly(ofMillis(70));
  }

  private static FormAction action(String method, String url) {
    return new FormAction(method, url, Optional.empty(), Optional.empty(), Fixtures.tree("{}"));
  }

  private static Form formWith(String url) {
    JsonNode empty = Fixtures.tree("{}");
    return new Form("f", empty, empty, empty, List.of(action("PUT", url)), empty);
  }

  private static ActionResult receipt() {
    return new ActionResult(200, Fixtures.tree("{}"), Optional.empty(), Optional.empty());
  }
}
