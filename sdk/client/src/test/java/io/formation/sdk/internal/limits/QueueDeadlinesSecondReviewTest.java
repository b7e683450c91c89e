package io.formation.sdk.internal.limits;

import static io.formation.sdk.internal.limits.RatePromisesReviewTest.answer;
import static io.formation.sdk.internal.limits.RatePromisesReviewTest.create;
import static io.formation.sdk.internal.limits.RatePromisesReviewTest.go;
import static io.formation.sdk.internal.limits.SecondReviewHarness.failure;
import static io.formation.sdk.internal.limits.SecondReviewHarness.poll;
import static org.assertj.core.api.Assertions.assertThat;

import io.formation.sdk.RateLimitException;
import io.formation.sdk.internal.transport.ApiRequest;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/**
 * A second review of "No call is held past what its caller allowed": calls queued or paused must
 * neither get their turn after their own deadline nor be left waiting past it, at the edges the
 * first reviews did not reach (overtaking both ways, a probe slowed by a slow answer, a pause
 * meeting OkHttp's queue, a late scheduler, the client closing).
 */
class QueueDeadlinesSecondReviewTest {
  final SecondReviewHarness harness = new SecondReviewHarness(() -> 1.0);

  /** Records when a turn ended: given (value), or failed. */
  record Watched(CompletableFuture<IOException> turn, long deadline, long[] doneAt) {
    boolean givenLate() {
      return turn.isDone() && !turn.isCompletedExceptionally() && doneAt[0] > deadline;
    }
  }

  Watched watch(CompletableFuture<IOException> turn, long deadline) {
    long[] doneAt = {-1};
    turn.whenComplete((v, e) -> doneAt[0] = harness.now());
    return new Watched(turn, deadline, doneAt);
  }

  // --- Overtaken ---

  @Test
  void aPollWithAFarDeadlineOvertakenByLaterInteractiveCallsIsDoneByItsDeadline() {
    Throttle throttle = harness.throttle(1, 1);
    go(throttle, create());
    long deadline = harness.now() + Duration.ofSeconds(15).toNanos();
    // Its turn is a second away when it is queued, far within its 15 s.
    CompletableFuture<IOException> poll = go(throttle, poll(deadline));
    // Thirty creates come right after it: each goes first (it has not waited a second longer).
    for (int i = 0; i < 30; i++) {
      go(throttle, create());
    }

    harness.advance(Duration.ofSeconds(15));

    assertThat(poll).as("poll overtaken by 30 creates, at its 15 s deadline").isDone();
    assertThat(failure(poll)).isInstanceOf(RateLimitException.class);
  }

  @Test
  void anInteractiveCallOvertakenByPollsThatAgedIsDoneByItsTimeout() {
    Throttle throttle = harness.throttle(1, 1);
    go(throttle, create());
    // Thirty polls of waits without a deadline are queued.
    for (int i = 0; i < 30; i++) {
      go(throttle, poll(Long.MAX_VALUE));
    }
    harness.advance(Duration.ofMillis(1_500));

    // No interactive call is ahead of it: its turn is expected in half a second, and its timeout
    // is 12 s. But every poll ahead has waited more than a second longer: they all go first.
    long deadline = harness.now() + Duration.ofSeconds(12).toNanos();
    CompletableFuture<IOException> call = go(throttle, create(Duration.ofSeconds(12)));
    assertThat(call).isNotDone();

    harness.advance(Duration.ofSeconds(12));

    assertThat(harness.now()).isEqualTo(deadline);
    assertThat(call).as("create behind 28 aged polls, at its 12 s timeout").isDone();
  }

  // --- The rate slowed without a cut ---

  @Test
  void aQueuedCallIsDoneByItsTimeoutWhenASlowAnswerSlowsTheProbeUnderIt() {
    Throttle throttle = harness.throttle(0, 0);
    // The very first answers are refusals: a guessed cut at the floor, climbing back in a second
    // and then probing, doubling every 0.7 s while answers are quick.
    for (int i = 0; i < 30; i++) {
      throttle.observe(create(), answer(429, null), harness.now());
    }
    harness.advance(Duration.ofSeconds(9));
    double probing = throttle.rate(RatePromisesReviewTest.SET);
    assertThat(probing).isGreaterThan(500);
    for (int i = 0; i < 27_000; i++) {
      go(throttle, create());
    }
    // Its turn is about 10 s away at the rate now (sooner, as the probe goes on); its timeout is
    // 10.5 s past that: no deadline timer.
    double expected = 27_001 / probing;
    Duration timeout = Duration.ofMillis((long) (expected * 1_000) + 10_500);
    long deadline = harness.now() + timeout.toNanos();
    Watched call = watch(go(throttle, create(timeout)), deadline);
    assertThat(call.turn()).as("queued, not refused at once").isNotDone();

    // An answer that took a second: the probe now doubles every 3 s, and the rate falls under
    // the queue, without a cut.
    throttle.observe(create(), answer(200, null), harness.now() - 1_000_000_000L);
    double slowed = throttle.rate(RatePromisesReviewTest.SET);
    harness.advance(timeout);

    assertThat(call.turn())
        .as(
            "rate %.0f/s, then %.0f/s after one slow answer; its timeout %s",
            probing, slowed, timeout)
        .isDone();
    assertThat(call.givenLate()).isFalse();
  }

  // --- Cuts ---

  @Test
  void manyCutsDuringAPauseWhileALongQueueWaitsHoldNoCallPastItsTimeout() {
    Throttle throttle = harness.throttle(0, 0);
    sendAndAnswer(throttle, 1_000, Duration.ofSeconds(2));
    long sentAt = harness.now();
    for (int i = 0; i < 40; i++) {
      throttle.observe(create(), answer(429, null), sentAt);
    }
    harness.advance(Duration.ofSeconds(3));
    List<Watched> calls = new ArrayList<>();
    for (int i = 0; i < 3_000; i++) {
      Duration timeout = Duration.ofMillis(2_000 + 37L * i);
      calls.add(watch(go(throttle, create(timeout)), harness.now() + timeout.toNanos()));
    }
    // Every 250 ms for 20 s, calls sent 100 ms before are refused (Retry-After 2: a
    // pause whenever most answers are refusals), each round a cut.
    for (int round = 0; round < 80; round++) {
      harness.advance(Duration.ofMillis(250));
      long sent = harness.now() - 100_000_000L;
      for (int i = 0; i < 30; i++) {
        throttle.observe(create(), answer(429, "2"), sent);
      }
      long now = harness.now();
      for (Watched call : calls) {
        assertThat(call.turn().isDone() || now <= call.deadline())
            .as("a call left waiting %d ms past its deadline", (now - call.deadline()) / 1_000_000)
            .isTrue();
        assertThat(call.givenLate()).isFalse();
      }
    }
  }

  // --- Edges of the deadline itself ---

  @Test
  void aCallWhoseTimeoutIsExactlyItsExpectedTurnGoesOrFailsAtItsTimeoutNotAfter() {
    Throttle throttle = harness.throttle(1, 1);
    go(throttle, create());
    long deadline = harness.now() + 1_000_000_000L;
    Watched call = watch(go(throttle, create(Duration.ofSeconds(1))), deadline);
    assertThat(call.turn()).isNotDone();

    harness.advance(Duration.ofSeconds(1));

    assertThat(call.turn()).isDone();
    assertThat(call.doneAt()[0]).isLessThanOrEqualTo(deadline);
  }

  @Test
  void aPausedCallWhoseSchedulerWakesItLateIsNotGivenItsTurnAfterItsTimeout() {
    // The client's scheduler fires every timer 5 ms after it is due (a busy thread, a GC).
    SecondReviewHarness late =
        new SecondReviewHarness(() -> 1.0, Duration.ZERO, Duration.ofMillis(5));
    Throttle throttle = late.throttle(0, 0);
    // A cold client refused: every call paused 2 s.
    throttle.observe(create(), answer(429, "2"), late.now());
    long deadline = late.now() + Duration.ofSeconds(3).toNanos();
    long[] doneAt = {-1};
    CompletableFuture<IOException> turn = go(throttle, create(Duration.ofSeconds(3)));
    turn.whenComplete((v, e) -> doneAt[0] = late.now());

    late.advance(Duration.ofSeconds(4));

    // Held until its deadline (2 s and 1 s of jitter), woken 5 ms past it, and then let go.
    assertThat(turn).isDone();
    if (!turn.isCompletedExceptionally()) {
      assertThat(doneAt[0])
          .as("given its turn %d ms after its timeout", (doneAt[0] - deadline) / 1_000_000)
          .isLessThanOrEqualTo(deadline);
    }
  }

  // --- A pause meets calls already given their turn (OkHttp's queue) ---

  @Test
  void aQueuedCallHeldOnItsWayOutByAPauseKeepsTheTimeoutOfItsFirstTry() {
    Throttle throttle = harness.throttle(1, 1);
    go(throttle, create());
    ApiRequest request = create(Duration.ofSeconds(5));
    long deadline = harness.now() + Duration.ofSeconds(5).toNanos();
    // As the transport does (Transport.send and attemptAsync): a turn given, the request leaves
    // OkHttp's queue; a pause in force then holds it (PausedBeforeSending), and the call acquires
    // again with the deadline of its first try.
    List<CompletableFuture<IOException>> turns = new ArrayList<>();
    long[] sentAt = {-1};
    Runnable[] attempt = new Runnable[1];
    attempt[0] =
        () -> {
          CompletableFuture<IOException> turn = throttle.acquire(request, deadline);
          turns.add(turn);
          turn.thenRun(
              () -> {
                if (throttle.leaving(request.url())) {
                  attempt[0].run();
                } else {
                  sentAt[0] = harness.now();
                }
              });
        };
    attempt[0].run();
    harness.advance(Duration.ofMillis(500));
    // Another call's refusal pauses the origin 4 s (too few answers to tell: it speaks for all).
    throttle.observe(create(), answer(429, "4"), harness.now());

    harness.advance(Duration.ofSeconds(10));

    CompletableFuture<IOException> last = turns.get(turns.size() - 1);
    assertThat(turns).hasSizeGreaterThan(1);
    assertThat(last).isDone();
    if (!last.isCompletedExceptionally()) {
      assertThat(sentAt[0])
          .as("sent at %d ms, its timeout at %d ms", sentAt[0] / 1_000_000, deadline / 1_000_000)
          .isLessThanOrEqualTo(deadline);
    }
  }

  // --- The client closing ---

  @Test
  void closingFailsEveryCallQueuedOrPausedAtOnce() {
    Throttle throttle = harness.throttle(1, 1);
    go(throttle, create());
    List<CompletableFuture<IOException>> turns = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      turns.add(go(throttle, create(Duration.ofSeconds(3 + i))));
      turns.add(go(throttle, poll(harness.now() + Duration.ofSeconds(60).toNanos())));
    }
    throttle.observe(create(), answer(429, "5"), harness.now());
    for (int i = 0; i < 5; i++) {
      turns.add(go(throttle, create(Duration.ofSeconds(30))));
    }
    harness.advance(Duration.ofMillis(1_500));

    harness.clock.close();

    assertThat(turns).allSatisfy(turn -> assertThat(turn).isDone());
  }

  void sendAndAnswer(Throttle throttle, int perSecond, Duration during) {
    long gap = 1_000_000_000L / perSecond;
    for (long t = 0; t < during.toNanos(); t += gap) {
      go(throttle, create());
      throttle.observe(create(), answer(200, null), harness.now());
      harness.advance(Duration.ofNanos(gap));
    }
  }
}
