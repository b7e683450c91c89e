package io.formation.sdk;

import static io.formation.sdk.FaultClients.ID;
import static io.formation.sdk.FaultServer.Fault.json;
import static io.formation.sdk.Fixtures.documentSetBody;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.assertj.core.api.Assertions.fail;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import io.formation.sdk.FaultServer.Fault;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Waits that must end when they should, in real time: a poll deadline the transport's retries
 * cannot outlast, close() and interrupts that end blocked calls at once, and errors thrown on the
 * SDK's own threads that fail the future instead of vanishing. The bounds are generous (a broken
 * client takes 30 s or forever), so a busy machine does not flake them.
 */
@Timeout(value = 40, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class FaultPromptnessTest extends FaultFixture {
  private static final Duration PROMPTLY = Duration.ofSeconds(5);
  private static final String IN_PROGRESS = documentSetBody(ID, "filing_in_progress");

  Worker worker;

  @AfterEach
  void stopWorker() {
    if (worker != null) {
      worker.thread.interrupt();
    }
  }

  // --- errors on the SDK's threads

  @ParameterizedTest
  @ValueSource(booleans = {false, true})
  void anErrorThrownByAStateListenerFailsTheAsyncWaitAndTheClientGoesOnWorking(boolean onALaterPoll)
      throws Exception {
    if (onALaterPoll) {
      server.enqueue(json(200, IN_PROGRESS));
    }
    server.otherwise(json(200, documentSetBody(ID, "complete")));
    client = FaultClients.realTime(server).build();
    AssertionError boom = new AssertionError("listener failed");
    PollOptions options =
        PollOptions.builder()
            .initialInterval(Duration.ofMillis(10))
            .onStateChange(
                set -> {
                  if (set.state().isComplete()) {
                    throw boom;
                  }
                })
            .build();

    Throwable thrown =
        catchThrowable(
            () -> client.documentSets().awaitCompletionAsync(ID, options).get(5, TimeUnit.SECONDS));
    assertThat(thrown).isInstanceOf(ExecutionException.class);
    assertThat(FaultClients.causeChain(thrown)).contains(boom);

    assertThat(client.documentSets().getAsync(ID).get(5, TimeUnit.SECONDS).id()).isEqualTo(ID);
    assertThat(
            client
                .documentSets()
                .awaitCompletionAsync(ID, PollOptions.defaults())
                .get(5, TimeUnit.SECONDS)
                .state()
                .isComplete())
        .isTrue();
  }

  // --- the poll deadline

  static Stream<Arguments> unavailableServices() {
    return Stream.of(
        // The first poll's 503 pauses the origin for 30 s: the next poll is held back at once,
        // with the time to retry, rather than sent or held past the 2 s deadline.
        Arguments.of(
            "503 with Retry-After: 30",
            json(503, "").withHeader("Retry-After", "30"),
            RateLimitException.class),
        Arguments.of(
            "429 with Retry-After: 30",
            json(429, "").withHeader("Retry-After", "30"),
            RateLimitException.class),
        Arguments.of(
            "a reset on every connection", Fault.hangUpAfterRequest(true), NetworkException.class));
  }

  static Stream<Arguments> unavailableServicesInEveryMode() {
    return Mode.inEveryMode(unavailableServices());
  }

  @ParameterizedTest(name = "{0}, {3}")
  @MethodSource("unavailableServicesInEveryMode")
  void theDeadlineOfAWaitHoldsAgainstRetryAfterAndResets(
      String how, Fault fault, Class<? extends FormationException> lastFailure, Mode mode) {
    server.otherwise(fault);
    client = FaultClients.realTime(server).build();
    PollOptions options = PollOptions.builder().timeout(Duration.ofSeconds(2)).build();
    Throwable thrown =
        assertTimeoutPreemptively(
            Duration.ofSeconds(15),
            () -> catchThrowable(() -> mode.await(client, ID, options)),
            "a 2 s wait must not sit out a Retry-After of 30 s");
    assertPollTimeoutWithoutASetSeen(thrown, lastFailure);
  }

  private static void assertPollTimeoutWithoutASetSeen(
      Throwable thrown, Class<? extends FormationException> lastFailure) {
    assertThat(thrown).isInstanceOf(PollTimeoutException.class);
    assertThat(((PollTimeoutException) thrown).lastSeen()).isEmpty();
    assertThat(thrown.getCause()).isInstanceOf(lastFailure);
  }

  // --- close() ends blocked calls

  @Test
  void closeEndsACallSleepingBeforeARetryAtOnce() throws Exception {
    server.otherwise(json(503, "").withHeader("Retry-After", "30"));
    client = FaultClients.realTime(server).maxRetryAfter(Duration.ofSeconds(60)).build();
    assertEndedByClose(closedWhileParked(() -> client.documentSets().get(ID)));
    assertThat(server.requests()).hasSize(1);
  }

  @Test
  void closeEndsAWaitSleepingBetweenPollsAtOnce() throws Exception {
    server.otherwise(json(200, IN_PROGRESS));
    client = FaultClients.realTime(server).build();
    PollOptions options =
        PollOptions.builder()
            .initialInterval(Duration.ofSeconds(30))
            .maxInterval(Duration.ofSeconds(30))
            .jitter(0)
            .build();
    assertEndedByClose(closedWhileParked(() -> client.documentSets().awaitCompletion(ID, options)));
    assertThat(server.requests()).hasSize(1);
  }

  @Test
  void closeEndsACallWaitingOutAPauseAnEarlierAnswerAskedFor() throws Exception {
    server.enqueue(json(503, "").withHeader("Retry-After", "30"));
    server.otherwise(json(200, IN_PROGRESS));
    client = FaultClients.realTime(server).maxRetries(0).build();
    assertThat(catchThrowable(() -> client.documentSets().get(ID)))
        .isInstanceOf(ServerException.class);
    // The request counted is the earlier one: this call is held back before it sends anything.
    assertEndedByClose(closedWhileParked(() -> client.documentSets().get(ID)));
    assertThat(server.requests()).hasSize(1);
  }

  @Test
  void closeEndsACallWaitingForAnAnswerThatNeverComes() throws Exception {
    server.otherwise(Fault.hold());
    client = FaultClients.realTime(server).build();
    worker = Worker.start(() -> client.documentSets().get(ID));
    assertThat(server.awaitRequests(1, PROMPTLY)).isTrue();
    client.close();
    assertEndedByClose(worker.awaitEnd());
  }

  /**
   * Runs the call on a worker and closes the client once a request has reached the server and the
   * call has parked; {@return what the call threw}
   */
  private Throwable closedWhileParked(Runnable call) throws Exception {
    worker = Worker.start(call);
    assertThat(server.awaitRequests(1, PROMPTLY)).isTrue();
    worker.awaitParked();
    client.close();
    return worker.awaitEnd();
  }

  private static void assertEndedByClose(Throwable thrown) {
    assertThat(thrown).isInstanceOf(RuntimeException.class);
    assertThat(thrown.getMessage()).contains("closed");
  }

  /** The async twins: each future the client still owes must fail when it closes. */
  static Stream<Arguments> pendingFutures() {
    PollOptions slowPolls =
        PollOptions.builder()
            .initialInterval(Duration.ofSeconds(30))
            .maxInterval(Duration.ofSeconds(30))
            .jitter(0)
            .build();
    return Stream.of(
        Arguments.of(
            "waiting to retry after Retry-After: 30",
            json(503, "").withHeader("Retry-After", "30"),
            (Consumer<Holder>) h -> h.future = h.client.documentSets().getAsync(ID)),
        Arguments.of(
            "waiting between polls",
            json(200, IN_PROGRESS),
            (Consumer<Holder>)
                h -> h.future = h.client.documentSets().awaitCompletionAsync(ID, slowPolls)),
        Arguments.of(
            "waiting for an answer that never comes",
            Fault.hold(),
            (Consumer<Holder>) h -> h.future = h.client.documentSets().getAsync(ID)));
  }

  /** The client and the future a case started. */
  static final class Holder {
    FormationClient client;
    CompletableFuture<?> future;
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("pendingFutures")
  void closeFailsThePendingFuturesAtOnce(String how, Fault fault, Consumer<Holder> call)
      throws Exception {
    server.otherwise(fault);
    client = FaultClients.realTime(server).maxRetryAfter(Duration.ofSeconds(60)).build();
    Holder holder = new Holder();
    holder.client = client;
    call.accept(holder);
    assertThat(server.awaitRequests(1, PROMPTLY)).isTrue();
    client.close();
    Throwable thrown =
        catchThrowable(() -> holder.future.get(PROMPTLY.toSeconds(), TimeUnit.SECONDS));
    assertThat(thrown).as(how).isInstanceOf(ExecutionException.class);
  }

  // --- interrupts

  @Test
  void interruptingAThreadWaitingOnAPollEndsItPromptlyAndClosesTheConnection() throws Exception {
    server.otherwise(Fault.hold());
    client = FaultClients.realTime(server).build();
    worker = Worker.start(() -> client.documentSets().awaitCompletion(ID));
    assertThat(server.awaitRequests(1, PROMPTLY)).isTrue();
    worker.thread.interrupt();
    Throwable thrown = worker.awaitEnd();
    assertThat(thrown).isInstanceOf(FormationException.class);
    assertThat(worker.interruptedAtEnd).as("the interrupt flag, kept set").isTrue();
    assertThat(server.awaitPeerCloses(1, PROMPTLY))
        .as("the server saw the connection close")
        .isTrue();
  }

  @Test
  void interruptingAThreadWaitingOutAPauseEndsItPromptly() throws Exception {
    server.enqueue(json(429, "").withHeader("Retry-After", "30"));
    server.otherwise(json(200, IN_PROGRESS));
    client = FaultClients.realTime(server).maxRetries(0).build();
    assertThat(catchThrowable(() -> client.documentSets().get(ID)))
        .isInstanceOf(RateLimitException.class);
    worker = Worker.start(() -> client.documentSets().get(ID));
    worker.awaitParked();
    worker.thread.interrupt();
    assertThat(worker.awaitEnd()).isInstanceOf(FormationException.class);
    assertThat(worker.interruptedAtEnd).as("the interrupt flag, kept set").isTrue();
    assertThat(server.requests()).hasSize(1);
  }

  /** A thread running one blocking call, and how it ended. */
  static final class Worker {
    final Thread thread;
    final CompletableFuture<Throwable> ended = new CompletableFuture<>();
    volatile boolean interruptedAtEnd;

    private Worker(Runnable call) {
      thread =
          new Thread(
              () -> {
                Throwable thrown = null;
                try {
                  call.run();
                } catch (Throwable t) {
                  thrown = t;
                }
                interruptedAtEnd = Thread.currentThread().isInterrupted();
                ended.complete(thrown);
              },
              "fault-worker");
      thread.setDaemon(true);
    }

    static Worker start(Runnable call) {
      Worker worker = new Worker(call);
      worker.thread.start();
      return worker;
    }

    /** Waits until the thread parks (sleeps or waits), so a close finds it there. */
    void awaitParked() {
      long deadline = System.nanoTime() + PROMPTLY.toNanos();
      while (System.nanoTime() < deadline && !ended.isDone()) {
        Thread.State state = thread.getState();
        if (state == Thread.State.TIMED_WAITING || state == Thread.State.WAITING) {
          return;
        }
        LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(2));
      }
      fail("the call never started waiting; it is " + thread.getState());
    }

    /** What the call threw (null if it returned), failing if it is still blocked. */
    Throwable awaitEnd() throws Exception {
      Future<Throwable> end = ended;
      try {
        return end.get(PROMPTLY.toMillis(), TimeUnit.MILLISECONDS);
      } catch (TimeoutException e) {
        return fail("the call was still blocked after " + PROMPTLY, e);
      }
    }
  }
}
