package io.formation.sdk;

import static io.formation.sdk.Fixtures.documentSet;
import static io.formation.sdk.Fixtures.status;
import static java.time.Duration.ofMillis;
import static java.time.Duration.ofSeconds;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.formation.sdk.internal.time.Sleeper;
import io.formation.sdk.internal.time.TestSleepers;
import io.formation.sdk.model.DocumentSet;
import io.formation.sdk.model.DocumentSetState;
import io.formation.testkit.FakeTime;
import java.io.InterruptedIOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;
import mockwebserver3.junit5.StartStop;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Polling until complete. Every scenario runs through the blocking and the async method: they share
 * the decisions, so they must sleep, notify and fail the same way.
 */
class AwaitCompletionTest {
  private static final String ID = "ds_1";

  @StartStop final MockWebServer server = new MockWebServer();
  final FakeTime time = new FakeTime();
  final List<String> seen = new CopyOnWriteArrayList<>();

  /** How a test waits: the blocking method, or the async one's future. */
  /** No jitter, doubling from 1 s up to 10 s, and a listener that records each state seen. */
  PollOptions.Builder options() {
    return PollOptions.builder()
        .initialInterval(ofSeconds(1))
        .multiplier(2)
        .maxInterval(ofSeconds(10))
        .jitter(0)
        .onStateChange(set -> seen.add(set.state().value()));
  }

  void script(String... states) {
    for (String state : states) {
      server.enqueue(documentSet(ID, state));
    }
  }

  void assertEveryRequestPolledTheSet(int count) throws InterruptedException {
    assertThat(server.getRequestCount()).isEqualTo(count);
    for (int i = 0; i < count; i++) {
      RecordedRequest request = server.takeRequest();
      assertThat(request.getMethod()).isEqualTo("GET");
      assertThat(request.getTarget()).isEqualTo("/v1/document_sets/" + ID);
    }
  }

  @ParameterizedTest
  @EnumSource(Mode.class)
  void pollsThroughEveryStateUntilCompleteNotifyingEachChangeOnce(Mode mode) throws Exception {
    script(
        "input_needed",
        "input_needed",
        "signature_requests_needed",
        "awaiting_payment",
        "notarizing",
        "filing_in_progress",
        "filing_in_progress",
        "finalizing",
        "complete");
    DocumentSet done;
    try (FormationClient client = TestClients.client(server, time)) {
      done =
          mode.await(
              client, ID, options().maxInterval(ofSeconds(5)).waitThroughInputNeeded(true).build());
    }

    assertThat(done.id()).isEqualTo(ID);
    assertThat(done.state()).isEqualTo(DocumentSetState.COMPLETE);
    assertThat(seen)
        .containsExactly(
            "input_needed",
            "signature_requests_needed",
            "awaiting_payment",
            "notarizing",
            "filing_in_progress",
            "finalizing",
            "complete");
    assertThat(time.sleeps())
        .containsExactly(
            ofSeconds(1),
            ofSeconds(2),
            ofSeconds(4),
            ofSeconds(5),
            ofSeconds(5),
            ofSeconds(5),
            ofSeconds(5),
            ofSeconds(5));
    assertEveryRequestPolledTheSet(9);
  }

  @ParameterizedTest
  @EnumSource(Mode.class)
  void theListenerSeesTheSetOnTheFirstPollEvenWhenItIsAlreadyComplete(Mode mode) throws Exception {
    script("complete");
    List<DocumentSet> sets = new CopyOnWriteArrayList<>();
    try (FormationClient client = TestClients.client(server, time)) {
      mode.await(client, ID, options().onStateChange(sets::add).build());
    }
    assertThat(sets).extracting(DocumentSet::id).containsExactly(ID);
    assertThat(time.sleeps()).isEmpty();
    assertEveryRequestPolledTheSet(1);
  }

  @ParameterizedTest
  @EnumSource(Mode.class)
  void jitterShortensEachWaitByTheJitterTimesTheRandom(Mode mode) throws Exception {
    PollOptions options =
        options()
            .initialInterval(ofSeconds(2))
            .multiplier(1.5)
            .maxInterval(ofSeconds(4))
            .jitter(0.5)
            .build();
    script(
        "filing_in_progress", "filing_in_progress", "filing_in_progress", "finalizing", "complete");
    try (FormationClient client = TestClients.client(server, time)) {
      mode.await(client, ID, options);
    }
    // The random is fixed at 1.0: each wait is the interval less half of it.
    assertThat(time.sleeps())
        .containsExactly(ofSeconds(1), ofMillis(1500), ofSeconds(2), ofSeconds(2));

    FakeTime otherTime = new FakeTime();
    script(
        "filing_in_progress", "filing_in_progress", "filing_in_progress", "finalizing", "complete");
    try (FormationClient client =
        TestClients.random(TestClients.builder(server, otherTime), () -> 0.25).build()) {
      mode.await(client, ID, options);
    }
    assertThat(otherTime.sleeps())
        .containsExactly(ofMillis(1750), ofMillis(2625), ofMillis(3500), ofMillis(3500));
  }

  @ParameterizedTest
  @EnumSource(Mode.class)
  void theDefaultsWaitOneSecondGrowingByHalfLessTenPercentJitter(Mode mode) throws Exception {
    script("filing_in_progress", "finalizing", "complete");
    try (FormationClient client = TestClients.client(server, time)) {
      if (mode == Mode.BLOCKING) {
        client.documentSets().awaitCompletion(ID);
      } else {
        client
            .documentSets()
            .awaitCompletionAsync(ID, PollOptions.defaults())
            .get(30, TimeUnit.SECONDS);
      }
    }
    assertThat(time.sleeps()).containsExactly(ofMillis(900), ofMillis(1350));
  }

  @ParameterizedTest
  @EnumSource(Mode.class)
  void a429WithRetryAfterAndA503InTheMiddleAreRiddenThrough(Mode mode) throws Exception {
    server.enqueue(documentSet(ID, "filing_in_progress"));
    server.enqueue(new MockResponse.Builder().code(429).addHeader("Retry-After", "7").build());
    server.enqueue(documentSet(ID, "finalizing"));
    server.enqueue(status(503));
    server.enqueue(documentSet(ID, "complete"));
    DocumentSet done;
    try (FormationClient client = TestClients.client(server, time)) {
      done = mode.await(client, ID, options().build());
    }

    assertThat(done.state().isComplete()).isTrue();
    assertThat(seen).containsExactly("filing_in_progress", "finalizing", "complete");
    // Poll wait, the transport's Retry-After, poll wait, the transport's first backoff step.
    assertThat(time.sleeps())
        .containsExactly(ofSeconds(1), ofSeconds(7), ofSeconds(2), ofMillis(100));
    assertEveryRequestPolledTheSet(5);
  }

  @ParameterizedTest
  @EnumSource(Mode.class)
  void whenTheTransportDoesNotRetryThePollerRidesThroughHonouringRetryAfter(Mode mode)
      throws Exception {
    server.enqueue(documentSet(ID, "filing_in_progress"));
    server.enqueue(new MockResponse.Builder().code(429).addHeader("Retry-After", "7").build());
    server.enqueue(documentSet(ID, "finalizing"));
    server.enqueue(status(503));
    server.enqueue(documentSet(ID, "complete"));
    try (FormationClient client = TestClients.builder(server, time).maxRetries(0).build()) {
      mode.await(client, ID, options().build());
    }

    assertThat(seen).containsExactly("filing_in_progress", "finalizing", "complete");
    // 1 s; then 7 s from Retry-After (more than the 2 s interval); then 4 s; then 8 s.
    assertThat(time.sleeps())
        .containsExactly(ofSeconds(1), ofSeconds(7), ofSeconds(4), ofSeconds(8));
    assertEveryRequestPolledTheSet(5);
  }

  @ParameterizedTest
  @EnumSource(Mode.class)
  void theDeadlineStopsWithPollTimeoutCarryingTheLastSetSeen(Mode mode) throws Exception {
    PollOptions options =
        options()
            .initialInterval(ofSeconds(4))
            .multiplier(1)
            .maxInterval(ofSeconds(4))
            .timeout(ofSeconds(10))
            .build();
    script(
        "filing_in_progress", "filing_in_progress", "filing_in_progress", "finalizing", "complete");
    try (FormationClient client = TestClients.client(server, time)) {
      assertThatThrownBy(() -> mode.await(client, ID, options))
          .isInstanceOfSatisfying(
              PollTimeoutException.class,
              e -> {
                assertThat(e.lastSeen().orElseThrow().id()).isEqualTo(ID);
                assertThat(e.lastSeen().orElseThrow().state())
                    .isEqualTo(DocumentSetState.FINALIZING);
                assertThat(e.timeout()).isEqualTo(ofSeconds(10));
              });
    }
    // Polls at 0, 4, 8 and, the last wait cut short to the deadline, 10 s.
    assertThat(time.sleeps()).containsExactly(ofSeconds(4), ofSeconds(4), ofSeconds(2));
    assertEveryRequestPolledTheSet(4);
  }

  @ParameterizedTest
  @EnumSource(Mode.class)
  void theDeadlineWithoutASuccessfulPollTimesOutWithTheLastFailureAsCause(Mode mode)
      throws Exception {
    PollOptions options =
        options()
            .initialInterval(ofSeconds(1))
            .multiplier(1)
            .maxInterval(ofSeconds(1))
            .timeout(ofSeconds(3))
            .build();
    for (int i = 0; i < 5; i++) {
      server.enqueue(status(503));
    }
    try (FormationClient client = TestClients.builder(server, time).maxRetries(0).build()) {
      assertThatThrownBy(() -> mode.await(client, ID, options))
          .isInstanceOfSatisfying(
              PollTimeoutException.class,
              e -> {
                assertThat(e.lastSeen()).isEmpty();
                assertThat(e.documentSetId()).isEqualTo(ID);
                assertThat(e.getCause())
                    .isInstanceOfSatisfying(
                        ServerException.class, c -> assertThat(c.statusCode()).isEqualTo(503));
              });
    }
    assertThat(time.sleeps()).containsExactly(ofSeconds(1), ofSeconds(1), ofSeconds(1));
    assertThat(seen).isEmpty();
    assertEveryRequestPolledTheSet(4);
  }

  @ParameterizedTest
  @EnumSource(Mode.class)
  void inputNeededStopsTheWaitWithTheSet(Mode mode) throws Exception {
    script("filing_in_progress", "input_needed", "complete");
    try (FormationClient client = TestClients.client(server, time)) {
      assertThatThrownBy(() -> mode.await(client, ID, options().build()))
          .isInstanceOfSatisfying(
              InputNeededException.class,
              e -> {
                assertThat(e.documentSet().id()).isEqualTo(ID);
                assertThat(e.documentSet().state().needsInput()).isTrue();
              });
    }
    assertThat(seen).containsExactly("filing_in_progress", "input_needed");
    assertThat(time.sleeps()).containsExactly(ofSeconds(1));
    assertEveryRequestPolledTheSet(2);
  }

  @ParameterizedTest
  @EnumSource(Mode.class)
  void inputNeededIsPolledUntilTheGracePeriodEndsThenStopsTheWait(Mode mode) throws Exception {
    script("input_needed", "input_needed", "input_needed", "input_needed", "complete");
    PollOptions options = options().inputNeededGrace(ofSeconds(5)).build();
    try (FormationClient client = TestClients.client(server, time)) {
      assertThatThrownBy(() -> mode.await(client, ID, options))
          .isInstanceOfSatisfying(
              InputNeededException.class,
              e -> {
                assertThat(e.documentSet().id()).isEqualTo(ID);
                assertThat(e).hasMessageContaining("still input_needed");
              });
    }
    // Polls at 0, 1 and 3 s, and the last wait is cut short to end with the grace period, at 5 s.
    assertThat(time.sleeps()).containsExactly(ofSeconds(1), ofSeconds(2), ofSeconds(2));
    assertThat(seen).containsExactly("input_needed");
    assertEveryRequestPolledTheSet(4);
  }

  @ParameterizedTest
  @EnumSource(Mode.class)
  void aServiceStillProcessingTheLastSubmissionIsWaitedForWithTheDefaults(Mode mode)
      throws Exception {
    // Still input_needed 13 s into the wait (polls at 0, 1, 2.5, 4.75, 8.1 and 13.2 s with the
    // default 1 s growing by half), moved on by the poll at 20.8 s.
    script(
        "input_needed",
        "input_needed",
        "input_needed",
        "input_needed",
        "input_needed",
        "input_needed",
        "payment_processing",
        "complete");
    PollOptions defaults =
        PollOptions.defaults()
            .newBuilder()
            .jitter(0)
            .onStateChange(s -> seen.add(s.state().value()))
            .build();
    DocumentSet done;
    try (FormationClient client = TestClients.client(server, time)) {
      done = mode.await(client, ID, defaults);
    }
    assertThat(done.state().isComplete()).isTrue();
    assertThat(seen).containsExactly("input_needed", "payment_processing", "complete");
  }

  @ParameterizedTest
  @EnumSource(Mode.class)
  void firstPollWithinSpreadsTheFirstPollOverTheWindow(Mode mode) throws Exception {
    script("finalizing", "complete");
    try (FormationClient client = TestClients.client(server, time)) {
      mode.await(client, ID, options().firstPollWithin(ofSeconds(30)).build());
    }
    // The test's random is 1.0: the first poll comes at the end of the window.
    assertThat(time.sleeps()).containsExactly(ofSeconds(30), ofSeconds(1));
    assertEveryRequestPolledTheSet(2);
  }

  @ParameterizedTest
  @EnumSource(Mode.class)
  void aTimedOutWaitKeepsTheLastStateButNotItsJsonTree(Mode mode) throws Exception {
    script("finalizing", "finalizing");
    PollOptions options = options().timeout(ofSeconds(1)).build();
    try (FormationClient client = TestClients.client(server, time)) {
      assertThatThrownBy(() -> mode.await(client, ID, options))
          .isInstanceOfSatisfying(
              PollTimeoutException.class,
              e -> {
                DocumentSet last = e.lastSeen().orElseThrow();
                assertThat(last.id()).isEqualTo(ID);
                assertThat(last.state()).isEqualTo(DocumentSetState.FINALIZING);
                assertThat(last.raw().isMissingNode()).isTrue();
              });
    }
  }

  @ParameterizedTest
  @EnumSource(Mode.class)
  void aGraceOfZeroStopsAtTheFirstInputNeededWithoutWaiting(Mode mode) throws Exception {
    script("input_needed", "complete");
    try (FormationClient client = TestClients.client(server, time)) {
      assertThatThrownBy(
              () -> mode.await(client, ID, options().inputNeededGrace(Duration.ZERO).build()))
          .isInstanceOf(InputNeededException.class);
    }
    assertThat(time.sleeps()).isEmpty();
    assertEveryRequestPolledTheSet(1);
  }

  @ParameterizedTest
  @EnumSource(Mode.class)
  void aSetAskingForInputAgainAfterALaterStateStopsTheWaitAtOnce(Mode mode) throws Exception {
    script("input_needed", "signature_requests_needed", "input_needed", "complete");
    PollOptions options = options().inputNeededGrace(ofSeconds(600)).build();
    try (FormationClient client = TestClients.client(server, time)) {
      assertThatThrownBy(() -> mode.await(client, ID, options))
          .isInstanceOfSatisfying(
              InputNeededException.class,
              e -> assertThat(e).hasMessageContaining("asks for input again"));
    }
    assertThat(seen).containsExactly("input_needed", "signature_requests_needed", "input_needed");
    assertThat(time.sleeps()).containsExactly(ofSeconds(1), ofSeconds(2));
    assertEveryRequestPolledTheSet(3);
  }

  @ParameterizedTest
  @EnumSource(Mode.class)
  void statesTheInterfaceDoesNotListAreWaitedThroughAndReported(Mode mode) throws Exception {
    script("payment_processing", "in_review_by_counsel", "complete");
    DocumentSet done;
    try (FormationClient client = TestClients.client(server, time)) {
      done = mode.await(client, ID, options().build());
    }
    assertThat(done.state().isComplete()).isTrue();
    assertThat(seen).containsExactly("payment_processing", "in_review_by_counsel", "complete");
  }

  @ParameterizedTest
  @EnumSource(Mode.class)
  void waitThroughInputNeededKeepsPolling(Mode mode) throws Exception {
    script("input_needed", "input_needed", "finalizing", "complete");
    DocumentSet done;
    try (FormationClient client = TestClients.client(server, time)) {
      done = mode.await(client, ID, options().waitThroughInputNeeded(true).build());
    }
    assertThat(done.state().isComplete()).isTrue();
    assertThat(seen).containsExactly("input_needed", "finalizing", "complete");
    assertThat(time.sleeps()).containsExactly(ofSeconds(1), ofSeconds(2), ofSeconds(4));
    assertEveryRequestPolledTheSet(4);
  }

  @ParameterizedTest
  @EnumSource(Mode.class)
  void a404StopsImmediately(Mode mode) throws Exception {
    server.enqueue(status(404));
    script("complete");
    try (FormationClient client = TestClients.client(server, time)) {
      assertThatThrownBy(() -> mode.await(client, ID, options().build()))
          .isInstanceOfSatisfying(
              NotFoundException.class, e -> assertThat(e.statusCode()).isEqualTo(404));
    }
    assertThat(seen).isEmpty();
    assertThat(time.sleeps()).isEmpty();
    assertEveryRequestPolledTheSet(1);
  }

  @ParameterizedTest
  @EnumSource(Mode.class)
  void a404AfterSomePollsStopsAtOnce(Mode mode) throws Exception {
    script("filing_in_progress");
    server.enqueue(status(404));
    script("complete");
    try (FormationClient client = TestClients.client(server, time)) {
      assertThatThrownBy(() -> mode.await(client, ID, options().build()))
          .isInstanceOf(NotFoundException.class);
    }
    assertThat(time.sleeps()).containsExactly(ofSeconds(1));
    assertEveryRequestPolledTheSet(2);
  }

  @ParameterizedTest
  @EnumSource(Mode.class)
  void otherNonTransientFailuresStopImmediately(Mode mode) throws Exception {
    server.enqueue(status(401));
    server.enqueue(status(403));
    server.enqueue(Fixtures.json("<html>not json</html>"));
    script("complete");
    try (FormationClient client = TestClients.client(server, time)) {
      assertThatThrownBy(() -> mode.await(client, ID, options().build()))
          .isInstanceOf(AuthenticationException.class);
      assertThatThrownBy(() -> mode.await(client, ID, options().build()))
          .isInstanceOf(PermissionDeniedException.class);
      assertThatThrownBy(() -> mode.await(client, ID, options().build()))
          .isInstanceOf(InvalidResponseException.class);
    }
    assertThat(time.sleeps()).isEmpty();
    assertEveryRequestPolledTheSet(3);
  }

  @ParameterizedTest
  @EnumSource(Mode.class)
  void aListenerThatThrowsEndsTheWaitWithItsException(Mode mode) throws Exception {
    script("filing_in_progress", "complete");
    IllegalStateException boom = new IllegalStateException("listener failed");
    try (FormationClient client = TestClients.client(server, time)) {
      PollOptions options =
          options()
              .onStateChange(
                  set -> {
                    throw boom;
                  })
              .build();
      assertThatThrownBy(() -> mode.await(client, ID, options)).isSameAs(boom);
    }
    assertEveryRequestPolledTheSet(1);
  }

  @Test
  void pollOptionsCheckTheirValues() {
    PollOptions.Builder builder = PollOptions.builder();
    assertThatThrownBy(() -> builder.initialInterval(Duration.ZERO))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> builder.multiplier(0.5)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> builder.multiplier(Double.NaN))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> builder.jitter(1.5)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> builder.timeout(ofSeconds(-1)))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(
            () ->
                PollOptions.builder()
                    .initialInterval(ofSeconds(60))
                    .maxInterval(ofSeconds(30))
                    .build())
        .isInstanceOf(IllegalArgumentException.class);
    PollOptions custom = PollOptions.builder().initialInterval(ofSeconds(3)).build();
    assertThat(custom.newBuilder().jitter(0).build().initialInterval()).isEqualTo(ofSeconds(3));
    assertThat(PollOptions.defaults().initialInterval()).isEqualTo(ofSeconds(1));
  }

  @Test
  void aThreadInterruptedWhileWaitingStopsWithTheInterruptFlagStillSet() throws Exception {
    CountDownLatch sleeping = new CountDownLatch(1);
    Sleeper blocking =
        TestSleepers.of(
            duration -> {
              sleeping.countDown();
              new CountDownLatch(1).await();
            },
            duration -> new CompletableFuture<>());
    script("filing_in_progress", "complete");
    try (FormationClient client =
        TestClients.sleeper(TestClients.builder(server, time), blocking).build()) {
      Waiting waiting =
          Waiting.start(() -> client.documentSets().awaitCompletion(ID, options().build()));
      assertThat(sleeping.await(30, TimeUnit.SECONDS)).isTrue();
      waiting.thread.interrupt();
      waiting.assertStoppedByInterrupt();
      assertThat(waiting.failure.get()).hasCauseInstanceOf(InterruptedException.class);
    }
    assertEveryRequestPolledTheSet(1);
  }

  @Test
  void aThreadInterruptedDuringARealSleepStopsWithTheInterruptFlagStillSet() throws Exception {
    CountDownLatch polled = new CountDownLatch(1);
    script("filing_in_progress", "complete");
    try (FormationClient client = TestClients.realTime(server)) {
      PollOptions anHour =
          options()
              .initialInterval(Duration.ofHours(1))
              .maxInterval(Duration.ofHours(1))
              .timeout(Duration.ofHours(2))
              .onStateChange(set -> polled.countDown())
              .build();
      Waiting waiting = Waiting.start(() -> client.documentSets().awaitCompletion(ID, anHour));
      assertThat(polled.await(30, TimeUnit.SECONDS)).isTrue();
      // Whether the thread is already asleep or about to be, the interrupt ends the sleep.
      waiting.thread.interrupt();
      waiting.assertStoppedByInterrupt();
      assertThat(waiting.failure.get()).hasCauseInstanceOf(InterruptedException.class);
    }
    assertEveryRequestPolledTheSet(1);
  }

  @Test
  void anInterruptBeforeTheWaitStopsItAtOnce() throws Exception {
    script("filing_in_progress", "complete");
    try (FormationClient client = TestClients.client(server, time)) {
      PollOptions interrupting =
          options().onStateChange(set -> Thread.currentThread().interrupt()).build();
      Waiting waiting =
          Waiting.start(() -> client.documentSets().awaitCompletion(ID, interrupting));
      waiting.assertStoppedByInterrupt();
    }
    assertThat(time.sleeps()).isEmpty();
    assertEveryRequestPolledTheSet(1);
  }

  @Test
  void anInterruptDuringAPollStopsTheWaitWithTheInterruptFlagStillSet() throws Exception {
    // A sleeper that ignores interrupts, so the next poll starts with the thread interrupted.
    AtomicBoolean interruptNow = new AtomicBoolean(true);
    Sleeper ignoring =
        TestSleepers.of(duration -> {}, duration -> CompletableFuture.completedFuture(null));
    script("filing_in_progress", "finalizing", "complete");
    try (FormationClient client =
        TestClients.sleeper(TestClients.builder(server, time), ignoring).build()) {
      PollOptions interrupting =
          options()
              .onStateChange(
                  set -> {
                    if (interruptNow.getAndSet(false)) {
                      Thread.currentThread().interrupt();
                    }
                  })
              .build();
      Waiting waiting =
          Waiting.start(() -> client.documentSets().awaitCompletion(ID, interrupting));
      waiting.assertStoppedByInterrupt();
      assertThat(waiting.failure.get())
          .isExactlyInstanceOf(FormationException.class)
          .hasMessageContaining("Interrupted")
          .hasCauseInstanceOf(InterruptedIOException.class);
    }
    // The interrupted poll never reached the service, and no poll was tried after it.
    assertThat(server.getRequestCount()).isEqualTo(1);
  }

  /** A wait running on its own thread, so the test can interrupt it. */
  static final class Waiting {
    final Thread thread;
    final AtomicReference<Throwable> failure = new AtomicReference<>();
    final AtomicBoolean interruptFlagSet = new AtomicBoolean();

    private Waiting(Runnable wait) {
      this.thread =
          new Thread(
              () -> {
                try {
                  wait.run();
                } catch (Throwable e) {
                  failure.set(e);
                }
                interruptFlagSet.set(Thread.currentThread().isInterrupted());
              },
              "test-waiter");
    }

    static Waiting start(Runnable wait) {
      Waiting waiting = new Waiting(wait);
      waiting.thread.start();
      return waiting;
    }

    void assertStoppedByInterrupt() throws InterruptedException {
      // A safety net only: the interrupt ends the wait at once.
      thread.join(TimeUnit.SECONDS.toMillis(30));
      assertThat(thread.isAlive()).as("the waiting thread stopped").isFalse();
      assertThat(failure.get()).isInstanceOf(FormationException.class);
      assertThat(interruptFlagSet.get()).as("interrupt flag still set").isTrue();
    }
  }
}
