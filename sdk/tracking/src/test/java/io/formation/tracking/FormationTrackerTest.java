package io.formation.tracking;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.formation.sandbox.FormationSandbox;
import io.formation.sandbox.SandboxOptions;
import io.formation.sdk.AuthenticationException;
import io.formation.sdk.FormationClient;
import io.formation.sdk.NotFoundException;
import io.formation.sdk.PermissionDeniedException;
import io.formation.sdk.PollOptions;
import io.formation.sdk.PollTimeoutException;
import io.formation.sdk.WaitState;
import io.formation.sdk.model.DocumentSet;
import io.formation.sdk.model.DocumentSetState;
import io.formation.testkit.FakeTime;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The tracker on HSQLDB (the table from the shipped SQL file) against the sandbox. The sandbox's
 * clock, moved by the test, decides the states; where the tracker's own time matters (a pause, a
 * retry), its clock is moved too. The client is a real one, on the wall clock, so its polls come a
 * few tens of milliseconds apart.
 */
class FormationTrackerTest {
  /**
   * Polls come quickly on the wall clock; the sandbox's clock decides what they see. The wait's
   * deadline, as the tracker's by default, is days away: far past any clock the tests move.
   */
  private static final PollOptions FAST =
      PollOptions.builder()
          .initialInterval(Duration.ofMillis(30))
          .multiplier(1.0)
          .maxInterval(Duration.ofMillis(30))
          .jitter(0.0)
          .timeout(Duration.ofDays(30))
          .build();

  private static final Duration STEP = Duration.ofMinutes(10);

  /** How long the tests' trackers pause a set whose token is refused. */
  private static final Duration PAUSE = Duration.ofMinutes(15);

  /**
   * A tracker clock this far ahead of the wall clock finds every poll the client schedules due at
   * once, and only what the tracker schedules by its own clock (a pause, a retry) waits for the
   * test to move it.
   */
  private static final Duration AHEAD = Duration.ofHours(1);

  @RegisterExtension final Closing closing = new Closing();
  private final FakeTime sandboxClock = new FakeTime(Instant.now());
  private final Recorder recorder = new Recorder();
  private DataSource database = Tables.hsqldb();

  private FormationSandbox sandbox(SandboxOptions options) {
    return closing.add(FormationSandbox.start(options.withClock(sandboxClock)));
  }

  private FormationSandbox stepwiseSandbox() {
    return sandbox(SandboxOptions.defaults().withProcessingLag(STEP).withStepDelay(STEP));
  }

  /** A sandbox whose submitted sets are complete at once. */
  private FormationSandbox completingSandbox() {
    return sandbox(
        SandboxOptions.defaults().withProcessingLag(Duration.ZERO).withStepDelay(Duration.ZERO));
  }

  private interface Hook {
    void run() throws Exception;
  }

  /** A recorder that counts the completions it is told and runs the hook at the first one. */
  private static Recorder atFirstCompletion(AtomicInteger completions, Hook hook) {
    return new Recorder() {
      @Override
      public void completed(DocumentSet set) throws Exception {
        super.completed(set);
        if (completions.incrementAndGet() == 1) {
          hook.run();
        }
      }
    };
  }

  private FormationClient client(FormationSandbox sandbox, String token) {
    return closing.add(
        FormationClient.builder()
            .baseUrl(sandbox.baseUrl())
            .accessToken(token)
            .allowInsecureHttp(true)
            .maxRetries(0)
            .build());
  }

  private FormationTracker.Builder tracker(FormationClient client, TrackingHandler handler) {
    return FormationTracker.builder(client, database, handler)
        .pollOptions(FAST)
        .pollingInterval(Duration.ofMillis(20))
        .instanceName("test");
  }

  private FormationTracker started(FormationTracker.Builder builder) {
    FormationTracker tracker = closing.add(builder.build());
    tracker.start();
    return tracker;
  }

  private static long polls(FormationSandbox sandbox, String id) {
    return sandbox.requests().stream()
        .filter(r -> r.method().equals("GET") && r.path().equals("/v1/document_sets/" + id))
        .count();
  }

  /**
   * Waits for the tracker's threads with its clock held by the test, moving the clock on by 25 ms
   * at each look: db-scheduler's look for due sets waits out its polling interval (20 ms here) on
   * that clock, so a look that began just before the test moved the clock waits for the next move.
   */
  /** A set whose forms are all submitted, with the sandbox past its processing lag. */
  private String submittedPastItsLag(FormationClient client) {
    String id = SubmittedSets.one(client);
    sandboxClock.advance(STEP);
    return id;
  }

  private static void untilNudging(
      FakeTime trackerClock, BooleanSupplier condition, Supplier<String> state)
      throws InterruptedException {
    Waits.until(
        () -> {
          if (condition.getAsBoolean()) {
            return true;
          }
          trackerClock.advance(Duration.ofMillis(25));
          return false;
        },
        Duration.ofSeconds(20),
        state);
  }

  /**
   * Moves the tracker's clock on by {@code total}, a minute at a time, and after each minute waits
   * until the set is not due (nor being polled): whatever the tracker does at that time is done.
   */
  private static void minuteByMinute(
      FakeTime trackerClock, Duration total, FormationTracker tracker, String id)
      throws InterruptedException {
    for (Duration moved = Duration.ZERO;
        moved.compareTo(total) < 0;
        moved = moved.plus(Duration.ofMinutes(1))) {
      trackerClock.advance(Duration.ofMinutes(1));
      untilNudging(
          trackerClock,
          () ->
              tracker
                  .tracked(id)
                  .map(t -> !t.polling() && t.nextPollAt().isAfter(trackerClock.instant()))
                  .orElse(true),
          () -> "at " + trackerClock.instant() + ": " + tracker.tracked(id));
    }
  }

  @Test
  void followsASetToCompletionTellingEachNewStateAndLeavesNoTaskBehind() throws Exception {
    FormationSandbox sandbox = stepwiseSandbox();
    FormationClient client = client(sandbox, sandbox.token());
    FormationTracker tracker = started(tracker(client, recorder));
    String id = SubmittedSets.one(client);

    assertThat(tracker.track(id)).isTrue();
    // Within the processing lag the set reads input_needed: the change is told, as a wait's
    // listener hears it, but that it needs input is not.
    Waits.until(() -> polls(sandbox, id) >= 2, Duration.ofSeconds(20), recorder::toString);
    assertThat(recorder.events()).containsExactly("changed " + id + " input_needed");

    List<String> progression = sandbox.options().progression();
    for (String state : progression.subList(0, progression.size() - 1)) {
      sandboxClock.advance(STEP);
      recorder.awaitEvent(e -> e.equals("changed " + id + " " + state));
    }
    sandboxClock.advance(STEP);
    recorder.awaitEvent(e -> e.startsWith("completed " + id));

    List<String> expected = new ArrayList<>();
    expected.add("changed " + id + " input_needed");
    progression
        .subList(0, progression.size() - 1)
        .forEach(s -> expected.add("changed " + id + " " + s));
    expected.add("completed " + id + " complete");
    assertThat(recorder.events()).containsExactlyElementsOf(expected);
    Waits.until(() -> tracker.tracked().isEmpty(), Duration.ofSeconds(20), tracker::toString);
    assertThat(tracker.tracked(id)).isEmpty();
  }

  @Test
  void theViewShowsEachTrackedSetsLastStateAndNextPoll() throws Exception {
    FormationSandbox sandbox = stepwiseSandbox();
    FormationClient client = client(sandbox, sandbox.token());
    FakeTime trackerClock = new FakeTime(Instant.now());
    FormationTracker tracker =
        started(
            tracker(client, recorder)
                .clock(trackerClock)
                .pollOptions(FAST.newBuilder().firstPollWithin(Duration.ofMinutes(1)).build()));
    String id = submittedPastItsLag(client);

    tracker.track(id);
    TrackedSet before = tracker.tracked(id).orElseThrow();
    assertThat(before.lastState()).isEmpty();
    assertThat(before.polling()).isFalse();

    // Its first poll falls within a minute on the tracker's clock, which stands still until moved.
    assertThat(before.nextPollAt()).isAfter(trackerClock.instant());
    assertThat(polls(sandbox, id)).isZero();
    trackerClock.advance(Duration.ofMinutes(2));
    recorder.awaitEvent(e -> e.equals("changed " + id + " signature_requests_needed"));
    Waits.until(
        () -> tracker.tracked(id).orElseThrow().lastState().isPresent(),
        Duration.ofSeconds(20),
        recorder::toString);

    TrackedSet after = tracker.tracked(id).orElseThrow();
    assertThat(after.lastState()).contains(DocumentSetState.SIGNATURE_REQUESTS_NEEDED);
    assertThat(after.nextPollAt()).isAfter(before.nextPollAt());
    assertThat(tracker.tracked()).extracting(TrackedSet::setId).containsExactly(id);
  }

  @Test
  void anIdThatIsNotADocumentSetIdIsRefusedWithAClearErrorAndNothingIsTrackedOrSent()
      throws Exception {
    FormationSandbox sandbox = stepwiseSandbox();
    FormationClient client = client(sandbox, sandbox.token());
    FormationTracker tracker = started(tracker(client, recorder));

    assertThatThrownBy(() -> tracker.track(".."))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("dot segment");
    assertThatThrownBy(() -> tracker.track(" "))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("blank");

    assertThat(tracker.tracked()).isEmpty();
    assertThat(sandbox.requests()).isEmpty();
  }

  @Test
  void anUnknownSetEndsItsTrackingWithTheReasonAfterOnePoll() throws Exception {
    FormationSandbox sandbox = stepwiseSandbox();
    FormationClient client = client(sandbox, sandbox.token());
    FormationTracker tracker = started(tracker(client, recorder));

    tracker.track("ds_doesnotexist");

    recorder.awaitEvent(e -> e.equals("ended ds_doesnotexist NotFoundException"));
    assertThat(recorder.reasons).singleElement().isInstanceOf(NotFoundException.class);
    Waits.until(() -> tracker.tracked().isEmpty(), Duration.ofSeconds(20), recorder::toString);
    assertThat(polls(sandbox, "ds_doesnotexist")).isEqualTo(1);
  }

  @Test
  void aRefusedTokenPausesTheSetsTrackingAndReportsItInsteadOfHammering() throws Exception {
    FormationSandbox sandbox = stepwiseSandbox();
    String id = SubmittedSets.one(client(sandbox, sandbox.token()));
    FormationClient revoked = client(sandbox, "revoked-token");
    FakeTime trackerClock = new FakeTime(Instant.now().plus(AHEAD));
    FormationTracker tracker =
        started(tracker(revoked, recorder).clock(trackerClock).pauseOnRefusal(PAUSE));

    tracker.track(id);

    recorder.awaitEvent(e -> e.equals("paused " + id + " AuthenticationException"));
    Instant retryAt = recorder.retryAts.get(0);
    assertThat(retryAt)
        .isAfterOrEqualTo(trackerClock.instant().plus(Duration.ofMinutes(15)).minusSeconds(1));
    Waits.until(
        () -> tracker.tracked(id).map(t -> !t.polling()).orElse(false),
        Duration.ofSeconds(20),
        recorder::toString);
    assertThat(tracker.tracked(id).orElseThrow().nextPollAt()).isEqualTo(retryAt);
    assertThat(recorder.reasons).singleElement().isInstanceOf(AuthenticationException.class);
    assertThat(polls(sandbox, id)).isEqualTo(1);

    // The pause counts from the poll's answer, on the tracker's clock.
    trackerClock.advance(Duration.between(trackerClock.instant(), retryAt));
    Waits.until(() -> recorder.events().size() == 2, Duration.ofSeconds(20), recorder::toString);
    assertThat(polls(sandbox, id)).isEqualTo(2);
  }

  @Test
  void aSetWhoseAccessIsDeniedIsPausedOncePerPauseAndTrackedOnWhenAccessComesBack()
      throws Exception {
    FormationSandbox sandbox = stepwiseSandbox();
    FormationClient client = client(sandbox, sandbox.token());
    String id = SubmittedSets.one(client);
    sandbox.denyAccess(id, true);
    FakeTime trackerClock = new FakeTime(Instant.now().plus(AHEAD));
    FormationTracker tracker =
        started(tracker(client, recorder).clock(trackerClock).pauseOnRefusal(PAUSE));

    tracker.track(id);
    recorder.awaitEvent(e -> e.equals("paused " + id + " PermissionDeniedException"));
    // Two hours, a minute at a time: one refused request per pause of 15 minutes, no more.
    minuteByMinute(trackerClock, Duration.ofHours(2), tracker, id);

    // A pause counts from the refused poll's answer, so the eighth may fall just past two hours.
    assertThat(polls(sandbox, id)).isBetween(1L + 7, 1L + 8);
    assertThat(recorder.events())
        .hasSize((int) polls(sandbox, id))
        .allMatch(e -> e.equals("paused " + id + " PermissionDeniedException"));
    assertThat(recorder.reasons)
        .allSatisfy(
            reason ->
                assertThat(reason)
                    .isInstanceOf(PermissionDeniedException.class)
                    .hasMessageContaining("403"));
    assertThat(tracker.tracked(id).orElseThrow().nextPollAt())
        .isEqualTo(recorder.retryAts.get(recorder.retryAts.size() - 1));

    // Access comes back: at the end of the pause the set is polled and tracked on to the end.
    sandbox.denyAccess(id, false);
    sandboxClock.advance(STEP);
    trackerClock.advance(Duration.ofMinutes(15));
    untilNudging(
        trackerClock,
        () -> recorder.events().contains("changed " + id + " signature_requests_needed"),
        recorder::toString);
    sandboxClock.advance(STEP.multipliedBy(sandbox.options().progression().size()));
    untilNudging(trackerClock, () -> tracker.tracked().isEmpty(), recorder::toString);
    assertThat(recorder.events()).endsWith("completed " + id + " complete");
  }

  @Test
  void aRefusalThatLastsUntilTheWaitsDeadlineEndsTheTrackingWithTheRefusal() throws Exception {
    FormationSandbox sandbox = stepwiseSandbox();
    FormationClient client = client(sandbox, sandbox.token());
    String id = SubmittedSets.one(client);
    sandbox.denyAccess(id, true);
    // A tracker clock a minute behind the wall clock holds the first poll until the test moves it.
    FakeTime trackerClock = new FakeTime(Instant.now().minusSeconds(60));
    PollOptions fortyMinutes = FAST.newBuilder().timeout(Duration.ofMinutes(40)).build();
    FormationTracker tracker =
        started(
            tracker(client, recorder)
                .pollOptions(fortyMinutes)
                .clock(trackerClock)
                .pauseOnRefusal(PAUSE));
    WaitState wait = client.documentSets().startWait(id, fortyMinutes);

    tracker.track(id, wait);
    minuteByMinute(trackerClock, Duration.ofMinutes(90), tracker, id);

    // Refused at its first poll and after 15 and 30 minutes; picked a moment past its deadline (the
    // clock moves a minute at a time), it polls no more and ends, naming the last refusal.
    assertThat(recorder.events())
        .containsExactly(
            "paused " + id + " PermissionDeniedException",
            "paused " + id + " PermissionDeniedException",
            "paused " + id + " PermissionDeniedException",
            "ended " + id + " PollTimeoutException");
    assertThat(recorder.reasons.get(3)).hasCauseInstanceOf(PermissionDeniedException.class);
    assertThat(recorder.retryAts.get(2)).isEqualTo(wait.deadline());
    assertThat(polls(sandbox, id)).isEqualTo(3);
    assertThat(tracker.tracked()).isEmpty();
  }

  @Test
  void theWaitsOwnTimeoutEndsTheTrackingWithTheReasonAndLeavesNoTaskBehind() throws Exception {
    FormationSandbox sandbox = stepwiseSandbox();
    FormationClient client = client(sandbox, sandbox.token());
    String id = submittedPastItsLag(client);
    PollOptions aMoment = FAST.newBuilder().timeout(Duration.ofMillis(1)).build();
    FormationTracker tracker = started(tracker(client, recorder).pollOptions(aMoment));

    tracker.track(id);

    recorder.awaitEvent(e -> e.startsWith("ended " + id));
    assertThat(recorder.events()).containsExactly("ended " + id + " PollTimeoutException");
    assertThat(recorder.reasons)
        .singleElement()
        .isInstanceOfSatisfying(
            PollTimeoutException.class,
            timeout -> {
              assertThat(timeout.documentSetId()).isEqualTo(id);
              assertThat(timeout.timeout()).isEqualTo(Duration.ofMillis(1));
              // Picked past its deadline, the set is polled no more.
              assertThat(timeout.lastSeen()).isEmpty();
              assertThat(timeout)
                  .hasMessageContaining(id)
                  .hasMessageContaining("was not read")
                  .hasMessageContaining("ran out");
            });
    Waits.until(() -> tracker.tracked().isEmpty(), Duration.ofSeconds(20), recorder::toString);
    assertThat(polls(sandbox, id)).isZero();
  }

  /**
   * A wait that knew of a submission two hours ago, with an hour of grace: a poll that reads {@code
   * input_needed} says at once that the set needs input, unless the tracker was told of a later
   * submission.
   */
  private static final PollOptions HOUR_OF_GRACE =
      FAST.newBuilder().inputNeededGrace(Duration.ofHours(1)).build();

  private WaitState submittedTwoHoursAgo(FormationClient client, String id) {
    return client
        .documentSets()
        .startWait(id, HOUR_OF_GRACE)
        .withSubmission(Instant.now().minus(Duration.ofHours(2)));
  }

  /** Calls {@code submitted} until no poll of the set is in flight, as its Javadoc asks. */
  private static boolean submitted(FormationTracker tracker, String id, Instant at)
      throws InterruptedException {
    boolean[] updated = new boolean[1];
    Waits.until(
        () -> {
          try {
            updated[0] = tracker.submitted(id, at);
            return true;
          } catch (IllegalStateException pollingNow) {
            return false;
          }
        },
        Duration.ofSeconds(20),
        () -> "still polling " + id);
    return updated[0];
  }

  @Test
  void aSubmissionToldToTheTrackerMovesTheGraceSoTheProcessingLagIsNotReportedAsInputNeeded()
      throws Exception {
    FormationSandbox sandbox = stepwiseSandbox();
    FormationClient client = client(sandbox, sandbox.token());
    String id = SubmittedSets.created(client);
    // A tracker clock a minute behind the wall clock holds the first poll until the test moves it.
    FakeTime trackerClock = new FakeTime(Instant.now().minusSeconds(60));
    FormationTracker tracker =
        started(tracker(client, recorder).pollOptions(HOUR_OF_GRACE).clock(trackerClock));
    tracker.track(id, submittedTwoHoursAgo(client, id));

    // The user submits after tracking began, say through another instance of the backend.
    SubmittedSets.submitEveryForm(client, id);
    Instant acceptedAt = Instant.now();
    assertThat(submitted(tracker, id, acceptedAt)).isTrue();
    assertThat(tracker.tracked(id).orElseThrow().waitState().orElseThrow().lastSubmission())
        .contains(acceptedAt.truncatedTo(java.time.temporal.ChronoUnit.MILLIS));

    // The service takes the values up (the sandbox's clock stays in its processing lag).
    trackerClock.advance(Duration.ofMinutes(2));
    untilNudging(trackerClock, () -> polls(sandbox, id) >= 3, recorder::toString);
    sandboxClock.advance(STEP);
    untilNudging(
        trackerClock,
        () -> recorder.events().contains("changed " + id + " signature_requests_needed"),
        recorder::toString);

    assertThat(recorder.events())
        .containsExactly(
            "changed " + id + " input_needed", "changed " + id + " signature_requests_needed");
    assertThat(tracker.submitted("ds_nottracked", acceptedAt)).isFalse();
  }

  @Test
  void aSubmissionToldToTheTrackerHasASetStillNeedingInputAfterItsGraceReportedAgain()
      throws Exception {
    FormationSandbox sandbox = stepwiseSandbox();
    FormationClient client = client(sandbox, sandbox.token());
    String id = SubmittedSets.created(client);
    WaitState wait = submittedTwoHoursAgo(client, id);
    FormationTracker tracker = started(tracker(client, recorder).pollOptions(HOUR_OF_GRACE));

    tracker.track(id, wait);
    recorder.awaitEvent(e -> e.equals("input " + id + " input_needed"));
    // Told once: polls that read it again tell nothing more.
    long seen = polls(sandbox, id);
    Waits.until(() -> polls(sandbox, id) >= seen + 3, Duration.ofSeconds(20), recorder::toString);
    assertThat(recorder.events())
        .containsExactly("changed " + id + " input_needed", "input " + id + " input_needed");

    // A later submission whose grace is over too (the values did not satisfy the service).
    assertThat(submitted(tracker, id, wait.lastSubmission().orElseThrow().plusSeconds(60)))
        .isTrue();

    Waits.until(() -> recorder.events().size() == 3, Duration.ofSeconds(20), recorder::toString);
    assertThat(recorder.events())
        .containsExactly(
            "changed " + id + " input_needed",
            "input " + id + " input_needed",
            "input " + id + " input_needed");
  }

  @Test
  void aSubmissionToldWhileTheSetIsBeingPolledIsRefusedWithAnAskToCallAgain() throws Exception {
    FormationSandbox sandbox = stepwiseSandbox();
    FormationClient client = client(sandbox, sandbox.token());
    String id = submittedPastItsLag(client);
    CountDownLatch release = new CountDownLatch(1);
    CountDownLatch inHandler = new CountDownLatch(1);
    Recorder holding =
        new Recorder() {
          @Override
          public void stateChanged(DocumentSet set) throws Exception {
            super.stateChanged(set);
            inHandler.countDown();
            release.await(20, TimeUnit.SECONDS);
          }
        };
    FormationTracker tracker = started(tracker(client, holding));
    tracker.track(id);
    assertThat(inHandler.await(20, TimeUnit.SECONDS)).isTrue();

    try {
      assertThatThrownBy(() -> tracker.submitted(id, Instant.now()))
          .isInstanceOf(IllegalStateException.class)
          .hasMessageContaining(id)
          .hasMessageContaining("again shortly");
    } finally {
      release.countDown();
    }
    assertThat(submitted(tracker, id, Instant.now())).isTrue();
  }

  @Test
  void aHandlerThatThrowsGetsTheSameEventAgainAndTheTrackerGoesOn() throws Exception {
    FormationSandbox sandbox = completingSandbox();
    FormationClient client = client(sandbox, sandbox.token());
    AtomicInteger calls = new AtomicInteger();
    Recorder seen =
        atFirstCompletion(
            calls,
            () -> {
              throw new java.io.IOException("the partner's database hiccuped");
            });
    FakeTime trackerClock = new FakeTime(Instant.now().plus(AHEAD));
    FormationTracker tracker =
        started(
            tracker(client, seen).clock(trackerClock).retryAfterFailure(Duration.ofSeconds(10)));
    String id = SubmittedSets.one(client);

    tracker.track(id);
    seen.awaitEvent(e -> e.startsWith("completed " + id));
    Waits.until(
        () ->
            tracker
                .tracked(id)
                .map(t -> t.consecutiveFailures() == 1 && !t.polling())
                .orElse(false),
        Duration.ofSeconds(20),
        seen::toString);
    assertThat(tracker.tracked(id).orElseThrow().nextPollAt())
        .isAfterOrEqualTo(trackerClock.instant().plusSeconds(9));

    trackerClock.advance(Duration.ofSeconds(11));
    Waits.until(() -> calls.get() == 2, Duration.ofSeconds(20), seen::toString);
    Waits.until(() -> tracker.tracked().isEmpty(), Duration.ofSeconds(20), seen::toString);

    // The scheduler lived on: another set is tracked to its end.
    String next = SubmittedSets.one(client);
    tracker.track(next);
    seen.awaitEvent(e -> e.startsWith("completed " + next));
    assertThat(seen.events())
        .containsExactly(
            "completed " + id + " complete",
            "completed " + id + " complete",
            "completed " + next + " complete");
  }

  @Test
  void anUnreachableDatabaseLosesNothingThePollRunsAgainLater() throws Exception {
    FlakyDataSource flaky = new FlakyDataSource(database);
    database = flaky;
    FormationSandbox sandbox = completingSandbox();
    FormationClient client = client(sandbox, sandbox.token());
    AtomicInteger calls = new AtomicInteger();
    // The database goes away between the handler's call and the tracker's saving it.
    Recorder handler = atFirstCompletion(calls, () -> flaky.down(true));
    FakeTime trackerClock = new FakeTime(Instant.now().plus(AHEAD));
    FormationTracker tracker =
        started(tracker(client, handler).clock(trackerClock).heartbeat(Duration.ofMillis(100), 4));
    String id = SubmittedSets.one(client);

    tracker.track(id);
    handler.awaitEvent(e -> e.startsWith("completed " + id));
    Waits.until(() -> flaky.refusals() > 0, Duration.ofSeconds(20), handler::toString);
    flaky.down(false);
    // The row still says an instance is polling it; once its heartbeats are overdue by the
    // tracker's clock, it is revived, polled again and its completion told again.
    assertThat(tracker.tracked(id)).hasValueSatisfying(t -> assertThat(t.polling()).isTrue());
    trackerClock.advance(Duration.ofMinutes(1)); // past 4 heartbeats of 100 ms

    Waits.until(() -> calls.get() == 2, Duration.ofSeconds(20), handler::toString);
    Waits.until(() -> tracker.tracked().isEmpty(), Duration.ofSeconds(20), handler::toString);
  }

  @Test
  void anUnreachableServiceLosesNothingTheSetIsPolledAgainAndFinishedLater() throws Exception {
    FormationSandbox sandbox = completingSandbox();
    FormationClient working = client(sandbox, sandbox.token());
    String id = SubmittedSets.one(working);
    // A service that is not there: a port nobody listens on any more.
    String gone;
    try (java.net.ServerSocket socket = new java.net.ServerSocket(0)) {
      gone = "http://127.0.0.1:" + socket.getLocalPort();
    }
    FormationClient unreachable =
        closing.add(
            FormationClient.builder()
                .baseUrl(gone)
                .accessToken(sandbox.token())
                .allowInsecureHttp(true)
                .maxRetries(0)
                .build());
    FormationTracker cut = started(tracker(unreachable, recorder));

    cut.track(id);
    Waits.until(
        () -> cut.tracked(id).map(t -> t.waitState().orElseThrow().polls() >= 3).orElse(false),
        Duration.ofSeconds(20),
        recorder::toString);
    cut.close();
    assertThat(recorder.events()).isEmpty();
    assertThat(cut.tracked(id)).hasValueSatisfying(t -> assertThat(t.lastState()).isEmpty());

    // The service is back (another instance reaches it): the same row goes on to the end.
    FormationTracker back = started(tracker(working, recorder));
    recorder.awaitEvent(e -> e.equals("completed " + id + " complete"));
    Waits.until(() -> back.tracked().isEmpty(), Duration.ofSeconds(20), recorder::toString);
    assertThat(recorder.events()).containsExactly("completed " + id + " complete");
  }

  @Test
  void trackingIsIdempotentAndResumesASavedWait() throws Exception {
    FormationSandbox sandbox = stepwiseSandbox();
    FormationClient client = client(sandbox, sandbox.token());
    FormationTracker tracker = tracker(client, recorder).build();
    closing.add(tracker);
    String id = SubmittedSets.one(client);
    WaitState saved = client.documentSets().startWait(id, FAST);

    assertThat(tracker.track(id, saved)).isTrue();
    assertThat(tracker.track(id)).isFalse();
    assertThat(tracker.tracked(id).orElseThrow().waitState()).contains(saved);
    assertThatThrownBy(() -> tracker.track("ds_other", saved))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(id);

    assertThat(tracker.untrack(id)).isTrue();
    assertThat(tracker.untrack(id)).isFalse();
    assertThat(tracker.tracked()).isEmpty();
  }

  @Test
  void theTableHoldsEachSetsWaitAsItsOwnCompactString() throws Exception {
    FormationSandbox sandbox = stepwiseSandbox();
    FormationClient client = client(sandbox, sandbox.token());
    FormationTracker tracker = closing.add(tracker(client, recorder).build());
    String id = SubmittedSets.one(client);

    tracker.track(id);

    String stored;
    try (Connection connection = database.getConnection();
        PreparedStatement query =
            connection.prepareStatement(
                "SELECT task_data FROM formation_tracking WHERE task_instance = ?")) {
      query.setString(1, id);
      try (ResultSet row = query.executeQuery()) {
        assertThat(row.next()).isTrue();
        stored = new String(row.getBytes(1), StandardCharsets.UTF_8);
      }
    }
    assertThat(stored)
        .isEqualTo(tracker.tracked(id).orElseThrow().waitState().orElseThrow().encode());
    assertThat(stored.getBytes(StandardCharsets.UTF_8).length).isLessThan(200);
  }
}
