package io.formation.sdk;

import static io.formation.sdk.Fixtures.documentSet;
import static io.formation.sdk.Fixtures.status;
import static java.time.Duration.ofMillis;
import static java.time.Duration.ofMinutes;
import static java.time.Duration.ofSeconds;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.formation.sdk.model.Form;
import io.formation.testkit.FakeTime;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import mockwebserver3.Dispatcher;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;
import mockwebserver3.SocketEffect;
import mockwebserver3.junit5.StartStop;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A reviewer's attacks on the promises the docs and javadoc make about waits, at the edges of time
 * and failure. Each test is named after the promise it holds the SDK to.
 */
class WaitPromisesReviewTest {
  private static final String ID = "ds_1";
  private static final Instant START = FakeTime.START;

  @StartStop final MockWebServer server = new MockWebServer();

  /** Answers from a script, then with {@code otherwise}; records the fake ticker at each poll. */
  static final class Recorder extends Dispatcher {
    final FakeTime time;
    final Deque<MockResponse> script = new ArrayDeque<>();
    final List<Long> ticks = new ArrayList<>();
    final List<Instant> instants = new ArrayList<>();
    Supplier<MockResponse> otherwise = () -> status(418);

    Recorder(FakeTime time) {
      this.time = time;
    }

    @Override
    public synchronized MockResponse dispatch(RecordedRequest request) {
      if (request.getTarget().contains("document_sets/")
          && !request.getTarget().endsWith("/forms")) {
        ticks.add(time.nanoTime());
        instants.add(time.instant());
      }
      MockResponse next = script.poll();
      return next != null ? next : otherwise.get();
    }

    synchronized List<Duration> gaps() {
      List<Duration> gaps = new ArrayList<>();
      for (int i = 1; i < ticks.size(); i++) {
        gaps.add(Duration.ofNanos(ticks.get(i) - ticks.get(i - 1)));
      }
      return gaps;
    }
  }

  static PollOptions.Builder noJitter() {
    return PollOptions.builder().initialInterval(ofSeconds(1)).multiplier(2).jitter(0);
  }

  // No two polls closer than 100 ms.

  @ParameterizedTest
  @EnumSource(Mode.class)
  void noTwoPollsComeCloserThan100MillisecondsOnAClockThatReadsFractionsOfAMillisecond(Mode mode)
      throws Exception {
    // Clock.systemUTC() reads microseconds on Java 17: a wall clock half a millisecond past a ms.
    FakeTime time = new FakeTime(START.plusNanos(500_000));
    Recorder recorder = new Recorder(time);
    server.setDispatcher(recorder);
    recorder.script.add(documentSet(ID, "finalizing"));
    recorder.script.add(documentSet(ID, "finalizing"));
    recorder.script.add(documentSet(ID, "complete"));
    PollOptions options = noJitter().initialInterval(ofMillis(1)).maxInterval(ofMillis(1)).build();
    try (FormationClient client = TestClients.builder(server, time).maxRetries(0).build()) {
      mode.await(client, client.documentSets().startWait(ID, options), options);
    }
    assertThat(recorder.ticks).hasSize(3);
    assertThat(recorder.gaps())
        .allSatisfy(gap -> assertThat(gap).isGreaterThanOrEqualTo(ofMillis(100)));
  }

  @ParameterizedTest
  @EnumSource(Mode.class)
  void aStepCalledAgainAtOnceOnAClockThatReadsFractionsOfAMillisecondWaitsTheWhole100Milliseconds(
      Mode mode) throws Exception {
    FakeTime time = new FakeTime(START.plusNanos(900_000));
    Recorder recorder = new Recorder(time);
    server.setDispatcher(recorder);
    recorder.script.add(documentSet(ID, "finalizing"));
    recorder.script.add(documentSet(ID, "finalizing"));
    PollOptions options = noJitter().build();
    try (FormationClient client = TestClients.client(server, time)) {
      WaitState wait = client.documentSets().startWait(ID, options);
      WaitState after = mode.poll(client, wait, options).waitState();
      mode.poll(client, WaitState.decode(after.encode()), options);
    }
    assertThat(recorder.gaps())
        .singleElement()
        .satisfies(gap -> assertThat(gap).isGreaterThanOrEqualTo(ofMillis(100)));
  }

  // The timeout names the failure it ended on.

  @ParameterizedTest
  @EnumSource(Mode.class)
  void aStepWhoseFailedPollLeftNoRoomForAnotherBeforeTheDeadlineNamesThatFailureAsTheCause(
      Mode mode) throws Exception {
    FakeTime time = new FakeTime();
    Recorder recorder = new Recorder(time);
    server.setDispatcher(recorder);
    recorder.otherwise = () -> status(400);
    // Polls at 0, 4 and 8 minutes fail; the next falls at the deadline, 50 ms after the last one.
    PollOptions options =
        noJitter().timeout(ofMinutes(8).plusMillis(50)).retryFailuresAfter(ofMinutes(4)).build();
    try (FormationClient client = TestClients.builder(server, time).maxRetries(0).build()) {
      WaitState wait = client.documentSets().startWait(ID, options);
      PollTimeoutException timedOut = null;
      for (int step = 0; step < 10 && timedOut == null; step++) {
        try {
          PollResult result = mode.poll(client, wait, options);
          assertThat(result.kind()).isEqualTo(PollResult.Kind.FAILED);
          wait = result.waitState();
          // The partner's scheduler runs the next step exactly when it was told to.
          time.advance(Duration.between(time.instant(), result.nextPollAt()));
        } catch (PollTimeoutException e) {
          timedOut = e;
        }
      }
      assertThat(timedOut).isNotNull();
      assertThat(recorder.ticks).hasSize(3);
      assertThat(timedOut).hasCauseInstanceOf(BadRequestException.class);
    }
  }

  @ParameterizedTest
  @EnumSource(Mode.class)
  void aStepTakenUpJustAfterTheDeadlineNamesTheFailureOfTheLastPollAsTheCause(Mode mode)
      throws Exception {
    FakeTime time = new FakeTime();
    Recorder recorder = new Recorder(time);
    server.setDispatcher(recorder);
    recorder.otherwise = () -> status(403);
    PollOptions options =
        noJitter().timeout(ofMinutes(10)).retryFailuresAfter(ofMinutes(4)).build();
    try (FormationClient client = TestClients.builder(server, time).maxRetries(0).build()) {
      WaitState wait = client.documentSets().startWait(ID, options);
      PollResult last = null;
      for (int step = 0; step < 3; step++) {
        last = mode.poll(client, wait, options);
        assertThat(last.kind()).isEqualTo(PollResult.Kind.FAILED);
        wait = last.waitState();
        time.advance(Duration.between(time.instant(), last.nextPollAt()));
      }
      // The scheduler runs the step due at the deadline one second late.
      time.advance(ofSeconds(1));
      WaitState late = wait;
      assertThatThrownBy(() -> mode.poll(client, late, options))
          .isInstanceOf(PollTimeoutException.class)
          .hasCauseInstanceOf(PermissionDeniedException.class);
    }
  }

  // Every wait ends at its deadline, whatever the service answers.

  static Stream<Arguments> answersThatNeverEnd() {
    Supplier<MockResponse> inputNeeded = () -> documentSet(ID, "input_needed");
    Supplier<MockResponse> unavailable = () -> status(503);
    Supplier<MockResponse> slowDown =
        () -> new MockResponse.Builder().code(429).addHeader("Retry-After", "3600").build();
    Supplier<MockResponse> slowDownNoHint = () -> status(429);
    Supplier<MockResponse> unauthorized = () -> status(401);
    Supplier<MockResponse> badRequest = () -> status(400);
    Supplier<MockResponse> notJson = () -> Fixtures.json("{\"data\": {");
    Supplier<MockResponse> dropped =
        () ->
            new MockResponse.Builder()
                .onResponseStart(SocketEffect.ShutdownConnection.INSTANCE)
                .build();
    UnaryOperator<PollOptions.Builder> plain = b -> b;
    UnaryOperator<PollOptions.Builder> pausing = b -> b.retryFailuresAfter(ofSeconds(3));
    UnaryOperator<PollOptions.Builder> forever =
        b ->
            b.retryFailuresAfter(ChronoUnit.FOREVER.getDuration())
                .inputNeededGrace(ChronoUnit.FOREVER.getDuration())
                .firstPollWithin(ChronoUnit.FOREVER.getDuration())
                .maxInterval(ChronoUnit.FOREVER.getDuration());
    UnaryOperator<PollOptions.Builder> oneNanosecond = b -> b.timeout(Duration.ofNanos(1));
    return Mode.inEveryMode(
        Stream.of(
            Arguments.of("input_needed", inputNeeded, plain),
            Arguments.of("input_needed, grace forever", inputNeeded, forever),
            Arguments.of("input_needed, 1 ns", inputNeeded, oneNanosecond),
            Arguments.of("503", unavailable, plain),
            Arguments.of("503, 1 ns", unavailable, oneNanosecond),
            Arguments.of("429 Retry-After 3600", slowDown, plain),
            Arguments.of("429", slowDownNoHint, plain),
            Arguments.of("401 paused on", unauthorized, pausing),
            Arguments.of("400 paused on forever", badRequest, forever),
            Arguments.of("invalid JSON paused on", notJson, pausing),
            Arguments.of("dropped connection", dropped, plain),
            Arguments.of("dropped connection, 1 ns", dropped, oneNanosecond)));
  }

  @ParameterizedTest(name = "{0} {3}")
  @MethodSource("answersThatNeverEnd")
  void everyWaitEndsAtItsDeadlineWithoutPollingOrSleepingPastItWhateverTheServiceAnswers(
      String name,
      Supplier<MockResponse> answer,
      UnaryOperator<PollOptions.Builder> tweak,
      Mode mode)
      throws Exception {
    FakeTime time = new FakeTime();
    Recorder recorder = new Recorder(time);
    server.setDispatcher(recorder);
    recorder.otherwise = answer;
    PollOptions options =
        tweak.apply(noJitter().maxInterval(ofSeconds(4)).timeout(ofSeconds(20))).build();
    try (FormationClient client = TestClients.client(server, time)) {
      WaitState wait = client.documentSets().startWait(ID, options);
      assertThatThrownBy(() -> mode.await(client, wait, options))
          .isInstanceOf(PollTimeoutException.class);
      assertThat(time.instant()).isBeforeOrEqualTo(wait.deadline());
      assertThat(recorder.instants)
          .allSatisfy(at -> assertThat(at).isBeforeOrEqualTo(wait.deadline()));
      assertThat(recorder.gaps())
          .allSatisfy(gap -> assertThat(gap).isGreaterThanOrEqualTo(ofMillis(100)));
    }
  }

  @ParameterizedTest
  @EnumSource(Mode.class)
  void aDamagedStringStartedInYearMinus9999WithALongIntervalEndsAtItsDeadline(Mode mode)
      throws Exception {
    FakeTime time = new FakeTime();
    Recorder recorder = new Recorder(time);
    server.setDispatcher(recorder);
    recorder.otherwise = () -> documentSet(ID, "finalizing");
    long started = -253_402_300_799_999L;
    long deadline = START.plusSeconds(60).toEpochMilli();
    String damaged =
        "w1.ds_1.finalizing."
            + started
            + "."
            + (deadline - started)
            + "."
            + Duration.ofDays(36_500).toMillis()
            + ".."
            + "."
            + "0"
            + ".2147483647.m";
    WaitState wait = WaitState.decode(damaged);
    try (FormationClient client = TestClients.client(server, time)) {
      assertThatThrownBy(() -> mode.await(client, wait, noJitter().build()))
          .isInstanceOf(PollTimeoutException.class);
    }
    assertThat(time.instant()).isBeforeOrEqualTo(wait.deadline());
    assertThat(recorder.instants)
        .allSatisfy(at -> assertThat(at).isBeforeOrEqualTo(wait.deadline()));
  }

  // retryFailuresAfter.

  @ParameterizedTest
  @ValueSource(
      strings = {
        "not json",
        "[]",
        "{}",
        "{\"data\":null}",
        "{\"data\":{\"id\":\"ds_1\"}}",
        "{\"data\":{\"id\":\"ds_1\",\"attributes\":{\"state\":{\"nested\":1}}}}",
        "\"complete\""
      })
  void anAnswerThatIsNotASetIsPolledAgainAfterThePause(String body) throws Exception {
    FakeTime time = new FakeTime();
    Recorder recorder = new Recorder(time);
    server.setDispatcher(recorder);
    PollOptions options = noJitter().retryFailuresAfter(ofSeconds(30)).build();
    try (FormationClient client = TestClients.builder(server, time).maxRetries(0).build()) {
      for (Mode mode : Mode.values()) {
        recorder.script.add(Fixtures.json(body));
        WaitState wait = client.documentSets().startWait(ID, options);
        PollResult result = mode.poll(client, wait, options);
        assertThat(result.kind()).as(mode.name()).isEqualTo(PollResult.Kind.FAILED);
        assertThat(result.failure()).get().isInstanceOf(InvalidResponseException.class);
        assertThat(result.nextPollIn()).isEqualTo(ofSeconds(30));
      }
    }
  }

  @ParameterizedTest
  @EnumSource(Mode.class)
  void aSetTheServiceDoesNotKnowEndsTheWaitEvenWhenFailuresArePausedOn(Mode mode) throws Exception {
    FakeTime time = new FakeTime();
    Recorder recorder = new Recorder(time);
    server.setDispatcher(recorder);
    recorder.script.add(status(503));
    recorder.otherwise = () -> status(404);
    PollOptions options =
        noJitter()
            .retryFailuresAfter(ofSeconds(1))
            .timeout(ChronoUnit.FOREVER.getDuration())
            .build();
    try (FormationClient client = TestClients.builder(server, time).maxRetries(0).build()) {
      assertThatThrownBy(() -> mode.await(client, ID, options))
          .isInstanceOf(NotFoundException.class);
    }
    assertThat(recorder.ticks).hasSize(2);
  }

  // input_needed once per episode; stateChanged is what onStateChange heard.

  @ParameterizedTest
  @EnumSource(Mode.class)
  void inputNeededIsToldOncePerEpisodeAndStateChangedIsWhatTheListenerHeard(Mode mode)
      throws Exception {
    FakeTime time = new FakeTime();
    Recorder recorder = new Recorder(time);
    server.setDispatcher(recorder);
    String[] states = {
      "input_needed",
      "input_needed",
      "finalizing",
      "input_needed",
      "input_needed",
      "input_needed",
      "input_needed",
      "complete"
    };
    for (String state : states) {
      recorder.script.add(documentSet(ID, state));
    }
    AtomicInteger heard = new AtomicInteger();
    PollOptions options =
        noJitter()
            .inputNeededGrace(Duration.ZERO)
            .onStateChange(s -> heard.incrementAndGet())
            .build();
    List<PollResult.Kind> kinds = new ArrayList<>();
    try (FormationClient client = TestClients.client(server, time)) {
      WaitState wait = client.documentSets().startWait(ID, options);
      for (int i = 0; i < states.length; i++) {
        if (i == 5) {
          // Another process submitted the forms: the wait is told, and the episode starts again.
          wait = wait.withSubmission(time.instant());
        }
        int before = heard.get();
        PollResult result = mode.poll(client, WaitState.decode(wait.encode()), options);
        assertThat(result.stateChanged()).isEqualTo(heard.get() == before + 1);
        kinds.add(result.kind());
        wait = result.waitState();
        time.advance(Duration.between(time.instant(), result.nextPollAt()));
      }
    }
    assertThat(kinds)
        .containsExactly(
            PollResult.Kind.INPUT_NEEDED,
            PollResult.Kind.UNCHANGED,
            PollResult.Kind.CHANGED,
            PollResult.Kind.INPUT_NEEDED,
            PollResult.Kind.UNCHANGED,
            PollResult.Kind.INPUT_NEEDED,
            PollResult.Kind.UNCHANGED,
            PollResult.Kind.COMPLETE);
  }

  @Test
  void aStepwiseWaitSavedBeforeEveryPollTellsTheListenerAsOftenAsAnUnbrokenOne() throws Exception {
    // A state the service writes with an escape Java keeps as a lone surrogate.
    String body =
        "{\"data\":{\"type\":\"document_sets\",\"id\":\"ds_1\","
            + "\"attributes\":{\"state\":\"review_\\ud800\"}}}";
    FakeTime time = new FakeTime();
    Recorder recorder = new Recorder(time);
    server.setDispatcher(recorder);
    recorder.otherwise = () -> Fixtures.json(body);
    AtomicInteger heard = new AtomicInteger();
    PollOptions options = noJitter().onStateChange(s -> heard.incrementAndGet()).build();
    try (FormationClient client = TestClients.client(server, time)) {
      WaitState wait = client.documentSets().startWait(ID, options);
      for (int i = 0; i < 3; i++) {
        PollResult result = client.documentSets().poll(WaitState.decode(wait.encode()), options);
        wait = result.waitState();
        time.advance(Duration.between(time.instant(), result.nextPollAt()));
      }
    }
    assertThat(heard).hasValue(1);
  }

  // The string.

  @Test
  void startWaitRefusesAnIdItCannotSaveOrItsStringGivesTheSameIdBack() {
    String id = "ds_\uD800";
    try (FormationClient client = TestClients.client(server, new FakeTime())) {
      WaitState wait;
      try {
        wait = client.documentSets().startWait(id, PollOptions.defaults());
      } catch (IllegalArgumentException refused) {
        assertThat(refused).hasMessageContaining("document set id");
        return;
      }
      assertThat(WaitPromisesReviewProperties.visible(WaitState.decode(wait.encode()).setId()))
          .isEqualTo(WaitPromisesReviewProperties.visible(id));
    }
  }

  @Test
  void waitsForTwoDifferentSetsAreNotEqual() {
    try (FormationClient client = TestClients.client(server, new FakeTime())) {
      PollOptions options = PollOptions.defaults();
      WaitState one = null;
      WaitState other = null;
      try {
        one = client.documentSets().startWait("ds_\uD800", options);
        other = client.documentSets().startWait("ds_?", options);
      } catch (IllegalArgumentException refused) {
        return;
      }
      assertThat(one.setId()).isNotEqualTo(other.setId());
      assertThat(one).as("%s equals %s", one.encode(), other.encode()).isNotEqualTo(other);
    }
  }

  @Test
  void aVersionOneStringWrittenBeforeIdsWereLimitedIsStillRead() {
    // The release before a56474b wrote a w1 string for any id that kept it within 2,048 characters.
    String id = "ds_" + "a".repeat(1200);
    String saved = "w1." + id + ".finalizing.1767225600000.1800000.8000..-12000.14000.4.m";
    assertThat(saved.length()).isLessThanOrEqualTo(2048);
    assertThat(WaitState.decode(saved).setId()).isEqualTo(id);
  }

  @Test
  void aNumberTooLargeForTheStringIsRefusedNamingItsField() {
    String good = Fixtures.read("waits/v1.txt").strip();
    String[] fields = good.split("\\.", -1);
    fields[3] = "9999999999999999999";
    assertThatThrownBy(() -> WaitState.decode(String.join(".", fields)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("Not a saved wait")
        .hasMessageContaining("start");
    String[] overflow = good.split("\\.", -1);
    overflow[8] = "9223372036854775807";
    assertThatThrownBy(() -> WaitState.decode(String.join(".", overflow)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("Not a saved wait")
        .hasMessageContaining("next poll");
  }

  // PollOptions.clock.

  @ParameterizedTest
  @EnumSource(Mode.class)
  void theGraceCountsOnTheOptionsClockFromASubmissionMadeThroughTheClient(Mode mode)
      throws Exception {
    FakeTime time = new FakeTime();
    Recorder recorder = new Recorder(time);
    server.setDispatcher(recorder);
    recorder.script.add(Fixtures.fixture("forms/list_plain_data.json"));
    recorder.script.add(Fixtures.fixture("actions/receipt.json"));
    recorder.script.add(documentSet(ID, "input_needed"));
    // The database's clock, which every instance agrees on, reads an hour past this machine's.
    Clock database = Clock.offset(time, Duration.ofHours(1));
    PollOptions options = noJitter().clock(database).inputNeededGrace(ofSeconds(60)).build();
    try (FormationClient client = TestClients.client(server, time)) {
      Form form = client.forms().list(ID).get(0);
      client.forms().submit(form, form.values());
      WaitState wait = client.documentSets().startWait(ID, options);
      assertThat(wait.started()).isEqualTo(database.instant());
      // The submission was accepted a moment ago; its grace of 60 s has not run.
      PollResult result = mode.poll(client, wait, options);
      assertThat(result.kind()).isNotEqualTo(PollResult.Kind.INPUT_NEEDED);
      assertThat(wait.lastSubmission()).contains(database.instant());
    }
  }

  @ParameterizedTest
  @EnumSource(Mode.class)
  void aWaitReadsItsStartDeadlineAndNextPollOnTheOptionsClock(Mode mode) throws Exception {
    FakeTime time = new FakeTime();
    Recorder recorder = new Recorder(time);
    server.setDispatcher(recorder);
    recorder.script.add(documentSet(ID, "finalizing"));
    Clock database = Clock.offset(time, Duration.ofHours(1));
    PollOptions options = noJitter().clock(database).timeout(ofMinutes(5)).build();
    try (FormationClient client = TestClients.client(server, time)) {
      WaitState wait = client.documentSets().startWait(ID, options);
      assertThat(wait.started()).isEqualTo(START.plusSeconds(3600));
      assertThat(wait.deadline()).isEqualTo(START.plusSeconds(3600 + 300));
      PollResult result = mode.poll(client, wait, options);
      assertThat(result.waitState().lastPoll()).contains(START.plusSeconds(3600));
      assertThat(result.nextPollAt()).isEqualTo(START.plusSeconds(3601));
    }
  }
}
