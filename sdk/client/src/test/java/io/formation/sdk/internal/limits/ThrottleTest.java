package io.formation.sdk.internal.limits;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.assertj.core.api.Assertions.withinPercentage;

import io.formation.sdk.RateLimitException;
import io.formation.sdk.TestFailures;
import io.formation.sdk.internal.Port;
import io.formation.sdk.internal.time.Sleeper;
import io.formation.sdk.internal.time.TestSleepers;
import io.formation.sdk.internal.time.Ticker;
import io.formation.sdk.internal.time.Time;
import io.formation.sdk.internal.transport.ApiRequest;
import io.formation.sdk.internal.transport.AsyncOperation;
import io.formation.sdk.internal.transport.CallOptions;
import io.formation.sdk.internal.transport.Outcome;
import io.formation.testkit.FakeTime;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import okhttp3.Headers;
import okhttp3.HttpUrl;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The client's shared view of the service's limits, stepped through with a manual clock. */
class ThrottleTest {
  static final HttpUrl SET = HttpUrl.get("https://api.example.com/v1/document_sets/a");
  static final HttpUrl OTHER_ORIGIN = HttpUrl.get("https://files.example.com/v1/x");

  final FakeTime time = FakeTime.manual();
  final Ticker ticker = time::nanoTime;
  final Sleeper sleeper = TestSleepers.of(time::sleep, time::delay);
  final RetryPolicy policy = policy(Duration.ZERO);

  Time time(java.util.function.DoubleSupplier random) {
    return new Time(time, ticker, sleeper, random);
  }

  RetryPolicy policy(Duration callTimeout) {
    return new RetryPolicy(2, Duration.ofMinutes(1), callTimeout, time(() -> 1.0));
  }

  /**
   * A throttle without a budget whose paused calls resume spread over the jitter, as with the
   * client's own random (seeded, so a run is repeatable).
   */
  Throttle jittered() {
    Random random = new Random(21);
    return new Throttle(time(random::nextDouble), policy, (Port) TestFailures.INSTANCE, 0, 0);
  }

  Throttle throttle(double perSecond, int burst) {
    return new Throttle(time(() -> 1.0), policy, (Port) TestFailures.INSTANCE, perSecond, burst);
  }

  /** A turn; once given, its request goes on the wire, as the transport's interceptor says. */
  static CompletableFuture<IOException> go(Throttle throttle, ApiRequest request) {
    CompletableFuture<IOException> turn = throttle.acquire(request);
    turn.thenRun(() -> throttle.leaving(request.url()));
    return turn;
  }

  static ApiRequest poll(HttpUrl url) {
    return ApiRequest.get(url, ApiRequest.ANY_JSON, CallOptions.NONE).asPoll(Long.MAX_VALUE);
  }

  static ApiRequest create() {
    return new ApiRequest(
        "POST",
        HttpUrl.get("https://api.example.com/v1/document_sets"),
        new byte[0],
        "*/*",
        CallOptions.NONE);
  }

  static ApiRequest create(Duration timeout) {
    return new ApiRequest(
        "POST",
        HttpUrl.get("https://api.example.com/v1/document_sets"),
        new byte[0],
        "*/*",
        new CallOptions(java.util.Map.of(), Optional.of(timeout), java.util.OptionalInt.empty()));
  }

  ApiRequest poll(HttpUrl url, Duration timeout) {
    return ApiRequest.get(url, ApiRequest.ANY_JSON, CallOptions.NONE).asPoll(ticker.after(timeout));
  }

  Duration since(long reading) {
    return Duration.ofNanos(time.nanoTime() - reading);
  }

  static Outcome answer(int status, String retryAfter) {
    Headers headers = retryAfter == null ? Headers.of() : Headers.of("Retry-After", retryAfter);
    return new Outcome(status, headers, new byte[0], false, null, true, false, null);
  }

  @Test
  void withoutABudgetOrAPauseEveryCallGoesAtOnce() {
    Throttle throttle = throttle(0, 0);
    for (int i = 0; i < 100; i++) {
      assertThat(go(throttle, poll(SET))).isDone();
    }
  }

  @Test
  void a429WithRetryAfterPausesEveryCallToThatOriginUntilThenWithJitter() {
    Throttle throttle = throttle(0, 0);
    throttle.observe(poll(SET), answer(429, "10"), time.nanoTime());

    CompletableFuture<IOException> held = go(throttle, create());
    CompletableFuture<IOException> elsewhere = go(throttle, poll(OTHER_ORIGIN));

    assertThat(elsewhere).isDone();
    time.advance(Duration.ofSeconds(10));
    assertThat(held).isNotDone();
    // Each paused call adds up to the pause again (here the most: random is 1.0).
    time.advance(Duration.ofSeconds(10));
    assertThat(held).isDone();
    assertThat(go(throttle, create())).isDone();
  }

  @Test
  void refusalsOfCallsSentDuringAPauseOrItsResumeDoNotPauseAgain() {
    Throttle throttle = throttle(0, 0);
    long sentTogether = time.nanoTime();
    throttle.observe(poll(SET), answer(429, "10"), sentTogether);
    time.advance(Duration.ofSeconds(2));
    // Another call sent at the same moment comes back refused two seconds later: old news.
    throttle.observe(poll(SET), answer(429, "10"), sentTogether);
    CompletableFuture<IOException> held = go(throttle, poll(SET));
    time.advance(Duration.ofMillis(8_000 + 10_000));
    assertThat(held).isDone();
    // A call sent while the held calls resume (up to 10 s after the pause) is refused: expected.
    throttle.observe(
        poll(SET), answer(429, "10"), time.nanoTime() - Duration.ofSeconds(1).toNanos());
    assertThat(go(throttle, poll(SET))).isDone();

    // Once they have all resumed, a refusal pauses the origin again.
    throttle.observe(poll(SET), answer(429, "10"), time.nanoTime());
    assertThat(go(throttle, poll(SET))).isNotDone();
  }

  @Test
  void a503WithRetryAfterPausesTooButOneWithoutRetryAfterDoesNot() {
    Throttle throttle = throttle(0, 0);
    throttle.observe(poll(SET), answer(503, null), time.nanoTime());
    assertThat(go(throttle, poll(SET))).isDone();
    throttle.observe(poll(SET), answer(503, "2"), time.nanoTime());
    assertThat(go(throttle, poll(SET))).isNotDone();
  }

  @Test
  void aPollIsNotHeldPastItsDeadlineButToldItCannotBeSent() {
    Throttle throttle = throttle(0, 0);
    throttle.observe(poll(SET), answer(429, "30"), time.nanoTime());
    ApiRequest poll =
        ApiRequest.get(SET, ApiRequest.ANY_JSON, CallOptions.NONE)
            .asPoll(ticker.after(Duration.ofSeconds(5)));

    CompletableFuture<IOException> turn = go(throttle, poll);

    assertThat(turn).isCompletedExceptionally();
    assertThat(failure(turn))
        .hasMessageContaining("past this poll's timeout or its wait's deadline")
        .extracting(RateLimitException::retryAfter)
        .isEqualTo(Optional.of(Duration.ofSeconds(30)));
  }

  // --- Holds never outlive their caller (issue 18) ---

  @Test
  void aRetryAfterLongerThanMaxRetryAfterPausesTheOriginForMaxRetryAfterOnly() {
    Throttle throttle = throttle(0, 0);
    throttle.observe(poll(SET), answer(429, "99999999999"), time.nanoTime());

    CompletableFuture<IOException> held = go(throttle, create());

    // maxRetryAfter is a minute here; the call adds as much again of jitter at most.
    time.advance(Duration.ofSeconds(119));
    assertThat(held).isNotDone();
    time.advance(Duration.ofSeconds(1));
    assertThat(held).isCompleted();
  }

  @Test
  void aCallThatThePauseWouldHoldPastItsTimeoutFailsAtOnceWithTheTimeToRetry() {
    Throttle throttle = throttle(0, 0);
    throttle.observe(poll(SET), answer(429, "99999999999"), time.nanoTime());

    CompletableFuture<IOException> turn = go(throttle, create(Duration.ofSeconds(5)));

    assertThat(turn).isCompletedExceptionally();
    assertThat(failure(turn))
        .hasMessageContaining("past this call's timeout")
        .extracting(RateLimitException::retryAfter)
        .isEqualTo(Optional.of(Duration.ofMinutes(1)));
  }

  @Test
  void theClientsCallTimeoutBoundsTheHoldOfACallWithoutItsOwn() {
    Throttle throttle =
        new Throttle(
            time(() -> 1.0), policy(Duration.ofSeconds(10)), (Port) TestFailures.INSTANCE, 0, 0);
    throttle.observe(poll(SET), answer(429, "30"), time.nanoTime());

    assertThat(failure(go(throttle, create()))).isInstanceOf(RateLimitException.class);
  }

  @Test
  void aCallBehindAQueueLongerThanItsTimeoutFailsAtOnce() {
    Throttle throttle = throttle(1, 1);
    for (int i = 0; i < 8; i++) {
      go(throttle, create());
    }

    CompletableFuture<IOException> hurried = go(throttle, create(Duration.ofSeconds(1)));
    CompletableFuture<IOException> shortWait = go(throttle, poll(SET, Duration.ofSeconds(1)));

    // Seven wait ahead of it: its turn would come in eight seconds.
    assertThat(failure(hurried).retryAfter()).contains(Duration.ofSeconds(8));
    assertThat(failure(shortWait)).hasMessageContaining("queue");
  }

  @Test
  void aPollOvertakenInTheQueueFailsWhenItsDeadlineComesNotWhenItsTurnDoes() {
    Throttle throttle = throttle(1, 1);
    go(throttle, create());
    CompletableFuture<IOException> poll = go(throttle, poll(SET, Duration.ofSeconds(3)));
    for (int i = 0; i < 5; i++) {
      go(throttle, create());
    }

    time.advance(Duration.ofMillis(2_999));
    assertThat(poll).isNotDone();
    time.advance(Duration.ofMillis(1));
    assertThat(failure(poll)).isInstanceOf(RateLimitException.class);
  }

  @Test
  void aCallHeldByAPauseKeepsTheTimeoutOfItsFirstTryWhenThePauseEnds() {
    Throttle throttle = throttle(1, 1);
    go(throttle, create());
    throttle.observe(create(), answer(429, "3"), time.nanoTime());
    CompletableFuture<IOException> first = go(throttle, create(Duration.ofSeconds(3)));
    CompletableFuture<IOException> second = go(throttle, create(Duration.ofSeconds(3)));

    time.advance(Duration.ofSeconds(3));

    // The pause gave back one token: the first goes; the second's turn is a second past its
    // timeout.
    assertThat(first).isCompleted();
    assertThat(failure(second)).hasMessageContaining("queue");
  }

  @Test
  void aQueuedCallWhoseTurnACutPushesPastItsTimeoutFailsAtItsTimeout() {
    Throttle throttle = throttle(0, 0);
    sendAt(throttle, 100, Duration.ofSeconds(1));
    throttle.observe(create(), answer(429, null), time.nanoTime());
    for (int i = 0; i < 300; i++) {
      go(throttle, create());
    }
    // Its turn is about four seconds away, far from its timeout, when the limit falls and refusals
    // keep the rate at its floor.
    CompletableFuture<IOException> call = go(throttle, create(Duration.ofSeconds(30)));
    for (int ms = 0; ms < 29_700; ms += 150) {
      time.advance(Duration.ofMillis(150));
      refuseTheCallsInFlight(throttle, null);
    }
    assertThat(throttle.rate(SET)).isLessThan(5);
    assertThat(call).isNotDone();

    time.advance(Duration.ofMillis(300));

    assertThat(failure(call)).hasMessageContaining("queue");
  }

  @Test
  void pollsAgeSoThatASteadyLoadOfInteractiveCallsCannotStarveThem() {
    Throttle throttle = throttle(10, 1);
    for (int i = 0; i < 10; i++) {
      go(throttle, create());
    }
    CompletableFuture<IOException> poll = go(throttle, poll(SET));
    long queued = time.nanoTime();
    // Interactive calls keep coming at the budget's whole rate: the queue never empties.
    while (!poll.isDone() && since(queued).compareTo(Duration.ofSeconds(10)) < 0) {
      go(throttle, create());
      time.advance(Duration.ofMillis(100));
    }

    assertThat(poll).isCompleted();
    assertThat(since(queued)).isLessThanOrEqualTo(Duration.ofSeconds(3));
  }

  @Test
  void aTurnWhoseFutureTheCallerCompletedIsGivenBackAndSpendsNoToken() {
    for (Consumer<CompletableFuture<String>> abandon :
        List.<Consumer<CompletableFuture<String>>>of(
            f -> f.complete("enough"),
            f -> f.completeExceptionally(new IllegalStateException("gave up")),
            f -> f.cancel(false),
            f -> f.orTimeout(1, TimeUnit.NANOSECONDS))) {
      Throttle throttle = throttle(1, 1);
      go(throttle, create());
      AsyncOperation<String> operation = new AsyncOperation<>(Runnable::run);
      CompletableFuture<IOException> abandoned = go(throttle, create());
      operation.track(abandoned);
      CompletableFuture<IOException> next = go(throttle, create());

      abandon.accept(operation.result());
      // Only the caller's abandon can end this turn: the manual time has not moved.
      abandoned.handle((value, error) -> null).join();
      time.advance(Duration.ofSeconds(1));

      assertThat(abandoned).isCancelled();
      assertThat(next).isCompleted();
    }
  }

  @Test
  void callsWhoseCallersGaveUpNoLongerCountInTheQueueAheadOfALaterCall() {
    for (Consumer<CompletableFuture<String>> abandon :
        List.<Consumer<CompletableFuture<String>>>of(
            f -> f.orTimeout(1, TimeUnit.NANOSECONDS),
            f -> f.cancel(false),
            f -> f.complete("enough"))) {
      Throttle throttle = throttle(2, 1);
      go(throttle, create());
      for (int i = 0; i < 6; i++) {
        AsyncOperation<String> operation = new AsyncOperation<>(Runnable::run);
        operation.track(go(throttle, create()));
        abandon.accept(operation.result());
        operation.result().handle((value, error) -> null).join();
      }

      CompletableFuture<IOException> hurried = go(throttle, create(Duration.ofSeconds(1)));

      // Only its own turn is ahead of it, half a second away: queued, not refused.
      assertThat(hurried).isNotDone();
      time.advance(Duration.ofMillis(500));
      assertThat(hurried).isCompletedWithValue(null);
    }
  }

  @Test
  void aPollLateInTheQueueIsToldTheWaitOfTheLiveCallsOnly() {
    Throttle throttle = throttle(1, 1);
    go(throttle, create());
    CompletableFuture<IOException> poll = go(throttle, poll(SET, Duration.ofMillis(2_500)));
    go(throttle, create());
    go(throttle, create());
    go(throttle, create());
    for (int i = 0; i < 5; i++) {
      go(throttle, create()).cancel(false);
    }

    time.advance(Duration.ofMillis(2_500));

    // Two creates have gone; the third and the poll itself were still waiting, not the five.
    assertThat(failure(poll).retryAfter()).contains(Duration.ofSeconds(2));
  }

  @Test
  void aWaitingCallHangsNoCallbackOnItsTurnWhetherHeldByAPauseOrTimedInTheQueue() {
    Throttle throttle = throttle(1, 1);
    go(throttle, create());
    CompletableFuture<IOException> timed = throttle.acquire(poll(SET, Duration.ofSeconds(3)));
    throttle.observe(poll(SET), answer(429, "10"), time.nanoTime());
    CompletableFuture<IOException> paused = throttle.acquire(create());

    // Thousands wait at once: each is one object, not a chain of futures and callbacks.
    assertThat(timed.getNumberOfDependents()).isZero();
    assertThat(paused.getNumberOfDependents()).isZero();
  }

  @Test
  void aCallAbandonedDuringAPauseTakesNoTurnAfterIt() {
    Throttle throttle = throttle(1, 1);
    throttle.observe(poll(SET), answer(429, "10"), time.nanoTime());
    CompletableFuture<IOException> abandoned = go(throttle, create());
    abandoned.complete(null);
    time.advance(Duration.ofSeconds(20));

    // The budget's one token is still there: the abandoned call did not spend it.
    assertThat(go(throttle, create())).isCompleted();
  }

  @Test
  void theCallersFutureCompletesOnTheCompletionExecutorNotOnTheThreadThatEndedTheStep() {
    List<Runnable> queued = new ArrayList<>();
    AsyncOperation<String> operation = new AsyncOperation<>(queued::add);

    operation.complete("done");

    assertThat(operation.result()).isNotDone();
    queued.forEach(Runnable::run);
    assertThat(operation.result()).isCompletedWithValue("done");
  }

  // --- The adaptive rate (issue 21) ---

  @Test
  void beforeAnyRefusalNothingIsHeld() {
    Throttle throttle = throttle(0, 0);
    sendAt(throttle, 1_000, Duration.ofSeconds(1));
    assertThat(throttle.rate(SET)).isInfinite();
  }

  @Test
  void aRefusalSlowsTheOriginToSeventyPercentOfTheRateItWasSending() {
    Throttle throttle = throttle(0, 0);
    sendAt(throttle, 100, Duration.ofSeconds(1));

    throttle.observe(create(), answer(429, null), time.nanoTime());

    assertThat(throttle.rate(SET)).isCloseTo(70, within(0.5));
    // CUBIC climbs fast at first: about 81 go in the first second, never the 100 refused.
    assertThat(servedInOneSecond(throttle)).isBetween(74, 84);
    assertThat(go(throttle, poll(OTHER_ORIGIN))).isCompleted();
  }

  @Test
  void aRefusalSlowsToSeventyPercentOfWhatTheServiceAnsweredWhenFarMoreWasSent() {
    Throttle throttle = throttle(0, 0);
    // 1,000 a second sent, of which the service answered one in five: it allows about 200.
    long gap = 1_000_000L;
    for (int i = 0; i < 1_000; i++) {
      assertThat(go(throttle, create())).isCompleted();
      if (i % 5 == 0) {
        throttle.observe(create(), answer(200, null), time.nanoTime());
      }
      time.advance(Duration.ofNanos(gap));
    }

    throttle.observe(create(), answer(429, null), time.nanoTime());

    assertThat(throttle.rate(SET)).isCloseTo(140, within(1.0));
  }

  @Test
  void aPauseIsNotMeasuredAsASpellOfSlowSendingOrAnswering() {
    Throttle throttle = throttle(0, 0);
    sendAndAnswerAt(throttle, 1_000, Duration.ofSeconds(1));
    refuseTheCallsInFlight(throttle, "1");
    // A call in flight when the pause began is answered during it.
    long inFlight = time.nanoTime() - 1;
    time.advance(Duration.ofMillis(50));
    throttle.observe(create(), answer(200, null), inFlight);
    time.advance(Duration.ofMillis(950));

    sendAndAnswerAt(throttle, 500, Duration.ofMillis(150));
    refuseTheCallsInFlight(throttle, null);

    // Cut from what was sent and answered since the pause, or more: averaging the pause in as a
    // second of nearly nothing cut it to about 320 a second.
    assertThat(throttle.rate(SET)).isBetween(0.7 * 500, 0.7 * 1_000);
  }

  @Test
  void refusalsOfCallsSentBeforeTheCutOrJustAfterItCutOnlyOnce() {
    Throttle throttle = throttle(0, 0);
    sendAt(throttle, 100, Duration.ofSeconds(1));
    long inFlight = time.nanoTime() - 1;
    for (int i = 0; i < 50; i++) {
      throttle.observe(create(), answer(429, null), inFlight);
    }
    assertThat(throttle.rate(SET)).isCloseTo(70, within(0.5));

    // Sent after the cut, but before its answers could show: the same refusal, not a new one.
    time.advance(Duration.ofMillis(99));
    throttle.observe(create(), answer(429, null), time.nanoTime());
    double climbing = throttle.rate(SET);
    assertThat(climbing).isGreaterThan(70);

    time.advance(Duration.ofMillis(1));
    throttle.observe(create(), answer(429, null), time.nanoTime());
    assertThat(throttle.rate(SET)).isCloseTo(0.7 * climbing, within(0.5));
  }

  @Test
  void learnsALimitFromAColdStartWithoutCuttingItselfDownToTheFloor() {
    Throttle throttle = jittered();
    LimitedService service = new LimitedService(2_000, 100);

    List<int[]> seconds = service.serve(throttle, Duration.ofSeconds(8));

    // Once learned (the first second is the first Retry-After's pause), every second is answered
    // at 70% of the limit or more. Cutting again for each refusal of a call sent just after a cut,
    // while the service's bucket was still empty, took the rate down to its floor of 1 a second.
    assertThat(seconds.subList(2, 8))
        .allSatisfy(second -> assertThat(second[0]).isGreaterThanOrEqualTo(1_400));
    int answered = seconds.stream().mapToInt(second -> second[0]).sum();
    int refused = seconds.stream().mapToInt(second -> second[1]).sum();
    assertThat(refused).isLessThan((answered + refused) / 20);
  }

  @Test
  void theLearnedRateClimbsBackToNinetyPercentOfTheRateCutFromAndHoldsThere() {
    Throttle throttle = throttle(0, 0);
    sendAt(throttle, 100, Duration.ofSeconds(1));
    throttle.observe(create(), answer(429, null), time.nanoTime());

    // Back at 90 once the climb is over, and held there, unprobed, for the hold.
    time.advance(seconds(AdaptiveRate.CLIMB_SECONDS));
    assertThat((double) servedInOneSecond(throttle, AdaptiveRate.HOLD_SECONDS))
        .isCloseTo(90 * AdaptiveRate.HOLD_SECONDS, within(2.0));
  }

  @Test
  void theClimbBackStartsWhenThePauseOfTheRefusalEnds() {
    Throttle throttle = throttle(0, 0);
    sendAt(throttle, 100, Duration.ofSeconds(1));
    throttle.observe(create(), answer(429, "5"), time.nanoTime());

    // Nothing went, so nothing was learned, in the 5 s pause: calls resume at 70 a second.
    time.advance(Duration.ofSeconds(5));
    assertThat(throttle.rate(SET)).isCloseTo(70, within(0.5));
    time.advance(Duration.ofSeconds(2));
    assertThat(throttle.rate(SET)).isCloseTo(90, within(0.5));
  }

  @Test
  void aCutFromLessThanAWindowOfMeasuringIsAGuessAndNotHeld() {
    Throttle throttle = throttle(0, 0);
    // Refused 50 ms into a cold start: 100 a second is a guess from five calls.
    sendAt(throttle, 100, Duration.ofMillis(50));
    refuseTheCallsInFlight(throttle, null);
    assertThat(throttle.rate(SET)).isCloseTo(70, within(0.5));

    // AWS's climb back to 100, in cbrt(100 * 0.75) = 4.2 s, then doubling: ten seconds on, it is
    // past 1,000 a second, where a measured cut holds 90.
    time.advance(Duration.ofSeconds(10));
    assertThat(throttle.rate(SET)).isGreaterThan(1_000);
  }

  @Test
  void aCutInTheFirstSecondOfSendingIsAGuessThoughItsWindowsWereMeasured() {
    Throttle throttle = throttle(0, 0);
    // A cold start's ramp, measured over four windows, meets the limit: no rate was held against
    // it, so the rate climbs back to 500 a second and probes on, where a measured cut holds 450.
    sendAt(throttle, 500, Duration.ofMillis(400));
    refuseTheCallsInFlight(throttle, null);

    time.advance(seconds(AdaptiveRate.CLIMB_SECONDS + 0.5));
    assertThat(throttle.rate(SET)).isGreaterThan(500);
  }

  @Test
  void withoutRefusalsTheRateProbesUpwardOnceTheHoldIsOver() {
    Throttle throttle = throttle(0, 0);
    sendAt(throttle, 100, Duration.ofSeconds(1));
    throttle.observe(create(), answer(429, null), time.nanoTime());

    // Past the climb and the hold, unrefused, it doubles from 90 every PROBE_DOUBLING_SECONDS:
    // the integral of 90 * 2^(t / d) over the first second, then as much again times 2^(1 / d).
    time.advance(seconds(AdaptiveRate.CLIMB_SECONDS + AdaptiveRate.HOLD_SECONDS));
    double d = AdaptiveRate.PROBE_DOUBLING_SECONDS;
    double first = 90 * d / Math.log(2) * (Math.pow(2, 1 / d) - 1);
    assertThat((double) servedInOneSecond(throttle)).isCloseTo(first, withinPercentage(8));
    assertThat((double) servedInOneSecond(throttle))
        .isCloseTo(first * Math.pow(2, 1 / d), withinPercentage(8));
  }

  @Test
  void aProbeAfterAnAnswerThatTookAMinuteStillDoublesEveryThreeSeconds() {
    Throttle throttle = throttle(0, 0);
    sendAt(throttle, 100, Duration.ofSeconds(1));
    // One answer came a minute after its request: a probe waits for refusals that slow, up to a
    // point, or a raised limit would take hours to find.
    throttle.observe(
        create(), answer(200, null), time.nanoTime() - Duration.ofMinutes(1).toNanos());
    refuseTheCallsInFlight(throttle, null);

    time.advance(seconds(AdaptiveRate.CLIMB_SECONDS + AdaptiveRate.HOLD_SECONDS + 6));

    assertThat(throttle.rate(SET)).isCloseTo(90 * 4, withinPercentage(5));
  }

  @Test
  void aCallTheQueueTurnsAwayUnderALearnedRateIsToldToComeBackOnceTheRateHasRisen() {
    Throttle throttle = throttle(0, 0);
    sendAndAnswerAt(throttle, 1_000, Duration.ofSeconds(1));
    refuseTheCallsInFlight(throttle, null);
    // Twenty thousand polls queue behind a rate cut to about 700/s: half a minute at that rate.
    for (int i = 0; i < 20_000; i++) {
      go(throttle, poll(SET));
    }

    CompletableFuture<IOException> hurried = go(throttle, poll(SET, Duration.ofSeconds(1)));

    // The rate climbs back, holds and doubles (in 3 s at most) within seconds: asked to stay away
    // for the queue's drain at the rate of the cut, every wait would stop for half a minute.
    Duration risen = seconds(AdaptiveRate.CLIMB_SECONDS + AdaptiveRate.HOLD_SECONDS + 3);
    assertThat(failure(hurried).retryAfter().orElseThrow()).isLessThanOrEqualTo(risen);
  }

  @Test
  void aCallTheQueueTurnsAwayUnderABudgetIsToldWhenTheQueueDrains() {
    Throttle throttle = throttle(1, 1);
    for (int i = 0; i < 100; i++) {
      go(throttle, poll(SET));
    }

    CompletableFuture<IOException> hurried = go(throttle, poll(SET, Duration.ofSeconds(1)));

    // A budget never rises: the drain at its rate is when a turn is free.
    assertThat(failure(hurried).retryAfter()).contains(Duration.ofSeconds(100));
  }

  @Test
  void aRefusalWhileCallsTrickleBackFromAPauseCutsTheLearnedRateByHalfAtMost() {
    Throttle throttle = throttle(0, 0);
    sendAndAnswerAt(throttle, 1_000, Duration.ofSeconds(1));
    refuseTheCallsInFlight(throttle, null);
    time.advance(Duration.ofSeconds(3));
    double learned = throttle.rate(SET);

    // Calls come back slowly, as they resume from a pause, and the service refuses a run of them
    // (another instance took the limit meanwhile): 70% of the trickle would all but stop the
    // client, and its waits would be told to come back a minute later.
    sendAndAnswerAt(throttle, 40, Duration.ofSeconds(1));
    refuseTheCallsInFlight(throttle, null);

    assertThat(throttle.rate(SET)).isGreaterThanOrEqualTo(0.49 * learned);
  }

  @Test
  void theRateNeverFallsBelowAFloorThatStillServesAWait() {
    Throttle throttle = throttle(0, 0);
    sendAt(throttle, 100, Duration.ofSeconds(1));
    for (int i = 0; i < 100; i++) {
      time.advance(Duration.ofNanos(AdaptiveRate.MEASURE_WINDOW_NANOS));
      throttle.observe(create(), answer(429, null), time.nanoTime());
    }
    // Cut down to the floor, and at most climbing back from it since the last cut.
    assertThat(throttle.rate(SET)).isBetween(AdaptiveRate.MIN_RATE, 2 * AdaptiveRate.MIN_RATE);

    CompletableFuture<IOException> poll = go(throttle, poll(SET));
    time.advance(Duration.ofSeconds(1));
    assertThat(poll).isCompleted();
  }

  @Test
  void aRetryAfterStillWinsOverALearnedRate() {
    Throttle throttle = throttle(0, 0);
    sendAt(throttle, 1_000, Duration.ofSeconds(1));
    throttle.observe(create(), answer(429, "5"), time.nanoTime());
    assertThat(throttle.rate(SET)).isGreaterThan(600);

    CompletableFuture<IOException> held = go(throttle, create());

    // 5 s, and as much again of jitter (random is 1.0 here).
    time.advance(Duration.ofMillis(9_999));
    assertThat(held).isNotDone();
    time.advance(Duration.ofMillis(1));
    assertThat(held).isCompleted();
  }

  @Test
  void followsARaisedLimitOnceTheHoldIsOverWithFewRefusals() {
    Throttle throttle = jittered();
    LimitedService service = new LimitedService(2_000, 100);

    List<int[]> high = service.serve(throttle, Duration.ofSeconds(10));
    service.limit = 500;
    List<int[]> low = service.serve(throttle, Duration.ofSeconds(10));
    service.limit = 2_000;
    List<int[]> raised = service.serve(throttle, Duration.ofSeconds(20));

    // The rate learned at the drop is held for 3 s after climbing back, then doubles until
    // refused: within 5 s of the rise, a second is answered at 90% of the raised limit.
    assertThat(raised.subList(0, 5))
        .anySatisfy(second -> assertThat(second[0]).isGreaterThanOrEqualTo(1_800));
    // The drop is followed within two seconds: from then on, at most 5% refused, its probes
    // included.
    int lowAnswered = low.subList(2, 10).stream().mapToInt(second -> second[0]).sum();
    int lowRefused = low.subList(2, 10).stream().mapToInt(second -> second[1]).sum();
    assertThat(lowRefused).isLessThanOrEqualTo((lowAnswered + lowRefused) / 20);
    // Probing upward costs few refusals: under 5% of all requests.
    int answered = 0;
    int refused = 0;
    for (List<int[]> phase : List.of(high, low, raised)) {
      for (int[] second : phase) {
        answered += second[0];
        refused += second[1];
      }
    }
    assertThat(refused).isLessThan((answered + refused) / 20);
  }

  // --- A limit or noise (issue 30) ---

  @ParameterizedTest
  @ValueSource(strings = {"0", "1", "5"})
  void refusalsAtASteadySmallShareNeitherSlowNorPauseTheOrigin(String retryAfter) {
    for (double share : new double[] {0.01, 0.02, 0.05}) {
      Throttle throttle = throttle(0, 0);
      Random random = new Random(30);
      // A minute at 500 a second: a gateway's burst window or a bad node, not a limit.
      for (int i = 0; i < 30_000; i++) {
        assertThat(go(throttle, create())).isCompleted();
        boolean refused = random.nextDouble() < share;
        throttle.observe(
            create(), refused ? answer(429, retryAfter) : answer(200, null), time.nanoTime());
        time.advance(Duration.ofMillis(2));
      }

      assertThat(throttle.rate(SET)).isInfinite();
    }
  }

  @Test
  void aSteadyShareOfRefusalsIsNoiseSoTheSameShareOnceALimitWasFoundCutsNothing() {
    Throttle throttle = foundALimitAtAThousandAndHeldIt();
    Random random = new Random(30);

    // 3% refused, spread as chance spreads them, long enough to be measured; then 4%: still noise.
    answerAt(throttle, 500, Duration.ofSeconds(8), i -> random.nextDouble() < 0.03);
    double before = throttle.rate(SET);
    answerAt(throttle, 500, Duration.ofSeconds(2), i -> random.nextDouble() < 0.04);

    assertThat(throttle.rate(SET)).isGreaterThanOrEqualTo(before);
  }

  /** A throttle whose limit was found at a thousand a second, climbed back and held. */
  Throttle foundALimitAtAThousandAndHeldIt() {
    Throttle throttle = throttle(0, 0);
    sendAndAnswerAt(throttle, 1_000, Duration.ofSeconds(1));
    refuseTheCallsInFlight(throttle, null);
    time.advance(seconds(AdaptiveRate.CLIMB_SECONDS));
    return throttle;
  }

  /**
   * Offers calls at a steady rate; each that gets its turn is answered at once, refused when {@code
   * refused} says for its place among the answers.
   */
  void answerAt(
      Throttle throttle, int perSecond, Duration during, java.util.function.IntPredicate refused) {
    long gap = 1_000_000_000L / perSecond;
    int answers = 0;
    for (long sent = 0; sent < during.toNanos(); sent += gap) {
      CompletableFuture<IOException> turn = go(throttle, create());
      if (turn.isDone()) {
        boolean no = refused.test(answers++);
        throttle.observe(create(), no ? answer(429, "0") : answer(200, null), time.nanoTime());
      } else {
        turn.cancel(false);
      }
      time.advance(Duration.ofNanos(gap));
    }
  }

  @Test
  void aRefusalAfterAQuietSpellPausesTheOriginWhateverWasAnsweredBefore() {
    Throttle throttle = throttle(0, 0);
    sendAndAnswerAt(throttle, 500, Duration.ofSeconds(10));
    time.advance(Duration.ofMinutes(1));

    throttle.observe(create(), answer(429, "10"), time.nanoTime());

    assertThat(go(throttle, create())).isNotDone();
  }

  @Test
  void refusalsThatCrowdOutTheAnswersPauseTheOriginEvenAfterLongSteadyTraffic() {
    Throttle throttle = throttle(0, 0);
    sendAndAnswerAt(throttle, 500, Duration.ofSeconds(10));

    refuseTheCallsInFlight(throttle, "10");

    assertThat(go(throttle, create())).isNotDone();
  }

  @Test
  void refusalsAmongTheFirstAnswersOfThirtyTwoThreadsAreNoiseWhileTheirCallsAreInFlight() {
    Throttle throttle = throttle(0, 0);
    Random random = new Random(30);
    // Thirty-two threads each send a call and wait 50 ms for its answer; the fifth answer and
    // then 3% of them are refused with "go on".
    long[] sentAt = new long[32];
    for (int thread = 0; thread < 32; thread++) {
      assertThat(go(throttle, create())).isCompleted();
      sentAt[thread] = time.nanoTime();
    }
    int answers = 0;
    for (int ms = 0; ms < 10_000; ms++) {
      time.advance(Duration.ofMillis(1));
      for (int thread = 0; thread < 32; thread++) {
        if (time.nanoTime() - sentAt[thread] >= Duration.ofMillis(50).toNanos()) {
          boolean refused = ++answers == 5 || random.nextDouble() < 0.03;
          throttle.observe(
              create(), refused ? answer(429, "0") : answer(200, null), sentAt[thread]);
          assertThat(go(throttle, create())).isCompleted();
          sentAt[thread] = time.nanoTime();
        }
      }
    }

    assertThat(throttle.rate(SET)).isInfinite();
  }

  @Test
  void callsAnsweredBeforeAQuietSpellAreNotReadAsUnansweredAfterIt() {
    Throttle throttle = throttle(0, 0);
    List<Long> sent = new ArrayList<>();
    for (int i = 0; i < 50; i++) {
      go(throttle, create());
      sent.add(time.nanoTime());
      time.advance(Duration.ofMillis(5));
    }
    time.advance(Duration.ofMillis(200));
    sent.forEach(at -> throttle.observe(create(), answer(200, null), at));
    // Five quiet seconds, as in a pause: nothing goes out, nothing comes back.
    time.advance(Duration.ofSeconds(5));

    go(throttle, create());
    throttle.observe(create(), answer(429, "0"), time.nanoTime());

    assertThat(throttle.rate(SET)).isInfinite();
  }

  @Test
  void callsWaitingInOkHttpsQueueAreNotUnansweredSoANoisyRefusalAmongThemCutsNothing() {
    Throttle throttle = throttle(0, 0);
    // A thousand waits take their turns at once; OkHttp sends 16 at a time, each answered in 50 ms.
    List<ApiRequest> queued = new ArrayList<>();
    for (int i = 0; i < 1_000; i++) {
      ApiRequest request = poll(SET);
      assertThat(throttle.acquire(request)).isCompleted();
      queued.add(request);
    }
    Random random = new Random(30);
    while (queued.size() >= 16) {
      List<ApiRequest> inFlight = new ArrayList<>(queued.subList(0, 16));
      queued.subList(0, 16).clear();
      long sentAt = time.nanoTime();
      inFlight.forEach(request -> assertThat(throttle.leaving(request.url())).isFalse());
      time.advance(Duration.ofMillis(50));
      for (ApiRequest request : inFlight) {
        boolean refused = random.nextDouble() < 0.03;
        throttle.observe(request, refused ? answer(429, "0") : answer(200, null), sentAt);
      }
    }

    assertThat(throttle.rate(SET)).isInfinite();
  }

  @Test
  void aQuickRefusalWhileEarlierCallsAreStillInFlightIsNotALimit() {
    Throttle throttle = throttle(0, 0);
    // Thirty-two calls go at once and wait on new connections; a later call is refused at once.
    for (int i = 0; i < 32; i++) {
      assertThat(go(throttle, create())).isCompleted();
    }
    time.advance(Duration.ofMillis(30));
    assertThat(go(throttle, create())).isCompleted();
    throttle.observe(create(), answer(429, "0"), time.nanoTime());

    assertThat(throttle.rate(SET)).isInfinite();
  }

  @Test
  void aDroppedLimitIsFollowedInOneCutOnceItsRefusalsSpeakForEveryCall() {
    Throttle throttle = jittered();
    LimitedService service = new LimitedService(2_000, 100);
    service.latency = Duration.ofMillis(20);
    service.serve(throttle, Duration.ofSeconds(10));
    service.limit = 500;

    List<int[]> halves = service.serve(throttle, Duration.ofSeconds(3), Duration.ofMillis(500));

    // The drop refuses most calls, which wait out its Retry-After. The cut they bring is from
    // what the service answered since the last cut, not from windows that still count the old
    // limit: from the pause's end, calls go under the new limit until a probe. (From the smoothed
    // windows, a fifth of the first half second after the pause was refused.)
    assertThat(halves.subList(2, 4))
        .allSatisfy(half -> assertThat(half[1]).isLessThanOrEqualTo((half[0] + half[1]) / 20));
  }

  @Test
  void aLimitIsStillFoundAndFollowedUnderASteadyShareOfNoise() {
    Throttle throttle = jittered();
    LimitedService service = new LimitedService(2_000, 100);
    service.noise = 0.03;

    List<int[]> seconds = service.serve(throttle, Duration.ofSeconds(8));

    // Once learned, the limit's neighbourhood is kept: over the seconds after the first pause, 60%
    // of the limit or more is answered, and few requests are refused beyond the noise itself. (A
    // rate held a few percent over the limit refuses no more than noise does, and each of its
    // Retry-After pauses costs a second.) Cutting for every refusal took the rate to its floor.
    List<int[]> learned = seconds.subList(2, 8);
    assertThat(learned.stream().mapToInt(second -> second[0]).sum())
        .isGreaterThanOrEqualTo(learned.size() * 1_200);
    int answered = seconds.stream().mapToInt(second -> second[0]).sum();
    int refused = seconds.stream().mapToInt(second -> second[1]).sum();
    assertThat(refused).isLessThan((answered + refused) / 10);
  }

  @Test
  void fiveHundredAndThreesWithoutRetryAfterNeverTeachTheRate() {
    Throttle throttle = throttle(0, 0);
    for (int i = 0; i < 1_000; i++) {
      assertThat(go(throttle, create())).isCompleted();
      throttle.observe(create(), answer(503, null), time.nanoTime());
      time.advance(Duration.ofMillis(10));
    }

    assertThat(policy.teachesRate(answer(503, null))).isFalse();
    assertThat(throttle.rate(SET)).isInfinite();
    assertThat(go(throttle, create())).isCompleted();
  }

  /**
   * A service limited by a token bucket that answers 429 with {@code Retry-After: 1} beyond it,
   * after its latency (none unless set), sent far more calls than it allows: every millisecond of
   * injected time, the throttle has calls waiting.
   */
  final class LimitedService {
    double limit;
    final double burst;
    double tokens;
    // The share of requests refused at random whatever the limit, as by a gateway's burst window.
    double noise;
    final Random random = new Random(30);
    long refilled = time.nanoTime();
    final List<CompletableFuture<IOException>> waiting = new ArrayList<>();
    // When each request on the wire was sent; each is answered the latency after.
    final Deque<Long> inFlight = new ArrayDeque<>();
    Duration latency = Duration.ZERO;

    LimitedService(double limit, double burst) {
      this.limit = limit;
      this.burst = burst;
      this.tokens = burst;
    }

    /** Answered and refused calls of each second. */
    List<int[]> serve(Throttle throttle, Duration during) {
      return serve(throttle, during, Duration.ofSeconds(1));
    }

    /** Answered and refused calls of each span. */
    List<int[]> serve(Throttle throttle, Duration during, Duration each) {
      List<int[]> spans = new ArrayList<>();
      for (long ms = 0; ms < during.toMillis(); ms++) {
        if (ms % each.toMillis() == 0) {
          spans.add(new int[2]);
        }
        int[] span = spans.get(spans.size() - 1);
        while (waiting.size() < 100) {
          waiting.add(go(throttle, create()));
        }
        time.advance(Duration.ofMillis(1));
        long now = time.nanoTime();
        tokens = Math.min(burst, tokens + (now - refilled) * limit / 1e9);
        refilled = now;
        for (CompletableFuture<IOException> turn : List.copyOf(waiting)) {
          if (turn.isDone()) {
            waiting.remove(turn);
            assertThat(turn).isCompleted();
            // Sent during the millisecond just past.
            inFlight.add(now - 1);
          }
        }
        while (!inFlight.isEmpty() && now - inFlight.peek() > latency.toNanos()) {
          long sentAt = inFlight.remove();
          if (random.nextDouble() < noise) {
            span[1]++;
            // "Go on": the noise asks for no pause.
            throttle.observe(create(), answer(429, "0"), sentAt);
          } else if (tokens >= 1) {
            tokens--;
            span[0]++;
            throttle.observe(create(), answer(200, null), sentAt);
          } else {
            span[1]++;
            throttle.observe(create(), answer(429, "1"), sentAt);
          }
        }
      }
      return spans;
    }
  }

  @Test
  void aBudgetIsACeilingOnTheLearnedRate() {
    Throttle throttle = throttle(50, 1);
    sendAt(throttle, 50, Duration.ofSeconds(1));
    throttle.observe(create(), answer(429, null), time.nanoTime());
    time.advance(Duration.ofSeconds(30));

    // Long after the refusal CUBIC would allow far more than 50 a second; the budget does not.
    assertThat(servedInOneSecond(throttle)).isBetween(49, 51);
  }

  /** Sends calls at a steady rate, each going at once and answered at once. */
  void sendAndAnswerAt(Throttle throttle, int perSecond, Duration during) {
    long gap = 1_000_000_000L / perSecond;
    for (long sent = 0; sent < during.toNanos(); sent += gap) {
      assertThat(go(throttle, create())).isCompleted();
      throttle.observe(create(), answer(200, null), time.nanoTime());
      time.advance(Duration.ofNanos(gap));
    }
  }

  /**
   * A limit reached: the calls in flight come back refused together, far more than a steady share
   * of noise.
   */
  void refuseTheCallsInFlight(Throttle throttle, String retryAfter) {
    for (int i = 0; i < 30; i++) {
      throttle.observe(create(), answer(429, retryAfter), time.nanoTime());
    }
  }

  /** Sends calls at a steady rate; each goes at once. */
  void sendAt(Throttle throttle, int perSecond, Duration during) {
    long gap = 1_000_000_000L / perSecond;
    for (long sent = 0; sent < during.toNanos(); sent += gap) {
      assertThat(go(throttle, create())).isCompleted();
      time.advance(Duration.ofNanos(gap));
    }
  }

  /** How many of many calls queued now are let through in the next second; the rest give up. */
  int servedInOneSecond(Throttle throttle) {
    return servedInOneSecond(throttle, 1);
  }

  /** How many of a thousand waiting calls get their turn in that many seconds. */
  int servedInOneSecond(Throttle throttle, double seconds) {
    List<CompletableFuture<IOException>> turns = new ArrayList<>();
    for (int i = 0; i < 1_000; i++) {
      turns.add(go(throttle, create()));
    }
    time.advance(seconds(seconds));
    int served = (int) turns.stream().filter(turn -> turn.isDone() && !turn.isCancelled()).count();
    turns.forEach(turn -> turn.cancel(false));
    return served;
  }

  static Duration seconds(double seconds) {
    return Duration.ofNanos((long) (seconds * 1e9));
  }

  static RateLimitException failure(CompletableFuture<IOException> turn) {
    assertThat(turn).isCompletedExceptionally();
    Throwable error = turn.handle((value, e) -> e).join();
    assertThat(error).isInstanceOf(RateLimitException.class);
    return (RateLimitException) error;
  }

  @Test
  void theBudgetSpacesCallsAsConfigured() {
    Throttle throttle = throttle(2, 2);
    List<CompletableFuture<IOException>> turns = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      turns.add(go(throttle, poll(SET)));
    }
    // The burst goes at once, then one every half second.
    assertThat(turns).filteredOn(CompletableFuture::isDone).hasSize(2);
    time.advance(Duration.ofMillis(499));
    assertThat(turns).filteredOn(CompletableFuture::isDone).hasSize(2);
    time.advance(Duration.ofMillis(1));
    assertThat(turns).filteredOn(CompletableFuture::isDone).hasSize(3);
    time.advance(Duration.ofMillis(1_000));
    assertThat(turns).allMatch(CompletableFuture::isDone);
  }

  @Test
  void waitingCallsAreServedInTheOrderTheyCameAndCreatesGoBeforePolls() {
    Throttle throttle = throttle(1, 1);
    List<String> served = new ArrayList<>();
    go(throttle, poll(SET));
    for (String name : List.of("poll 1", "poll 2", "poll 3")) {
      go(throttle, poll(SET)).thenRun(() -> served.add(name));
    }
    go(throttle, create()).thenRun(() -> served.add("create"));

    for (int second = 0; second < 4; second++) {
      time.advance(Duration.ofSeconds(1));
    }

    assertThat(served).containsExactly("create", "poll 1", "poll 2", "poll 3");
  }

  @Test
  void aCancelledWaitGivesItsTurnToTheNextOne() {
    Throttle throttle = throttle(1, 1);
    go(throttle, poll(SET));
    CompletableFuture<IOException> cancelled = go(throttle, poll(SET));
    CompletableFuture<IOException> next = go(throttle, poll(SET));
    cancelled.cancel(false);
    time.advance(Duration.ofSeconds(1));
    assertThat(next).isDone();
  }

  @Test
  void closingTheSleeperFailsTheCallsStillWaitingForTheBudget() {
    Throttle throttle = throttle(1, 1);
    go(throttle, poll(SET));
    CompletableFuture<IOException> waiting = go(throttle, poll(SET));
    time.close();
    assertThat(waiting).isCompletedExceptionally();
  }
}
