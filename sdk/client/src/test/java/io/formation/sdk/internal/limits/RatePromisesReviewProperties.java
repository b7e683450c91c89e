package io.formation.sdk.internal.limits;

import static org.assertj.core.api.Assertions.assertThat;

import io.formation.sdk.RateLimitException;
import io.formation.sdk.TestFailures;
import io.formation.sdk.internal.Port;
import io.formation.sdk.internal.time.TestSleepers;
import io.formation.sdk.internal.time.Time;
import io.formation.sdk.internal.transport.ApiRequest;
import io.formation.sdk.internal.transport.CallOptions;
import io.formation.sdk.internal.transport.Outcome;
import io.formation.testkit.FakeTime;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import okhttp3.Headers;
import okhttp3.HttpUrl;

/** A reviewer's properties of the throttle over random sequences of answers, refusals and gaps. */
class RatePromisesReviewProperties {
  static final HttpUrl SETS = HttpUrl.get("https://api.example.com/v1/document_sets");

  /** One thing that happens: an answer to a call sent {@code sentAgoMs} before, then a gap. */
  record Event(int status, String retryAfter, int sentAgoMs, int gapMs, boolean send) {}

  record Run(double budget, int burst, List<Event> events) {}

  final class Harness {
    final FakeTime clock = FakeTime.manual();
    final Time time;
    final RetryPolicy policy;

    Harness(java.util.function.DoubleSupplier random) {
      time = new Time(clock, clock::nanoTime, TestSleepers.of(clock::sleep, clock::delay), random);
      policy = new RetryPolicy(2, Duration.ofMinutes(1), Duration.ZERO, time);
    }

    Throttle throttle(double budget, int burst) {
      return new Throttle(time, policy, (Port) TestFailures.INSTANCE, budget, burst);
    }
  }

  // --- The floor and the ceiling, whatever happens ---

  @Property(tries = 300)
  void theRateIsNeverBelowTheFloorNorAnyCallServedPastTheBudget(@ForAll("runs") Run run) {
    Harness harness = new Harness(() -> 1.0);
    Throttle throttle = harness.throttle(run.budget(), run.burst());
    FakeTime clock = harness.clock;

    for (Event event : run.events()) {
      if (event.send()) {
        go(throttle, create());
      }
      long sentAt = clock.nanoTime() - Duration.ofMillis(event.sentAgoMs()).toNanos();
      throttle.observe(create(), answer(event.status(), event.retryAfter()), sentAt);
      assertThat(throttle.rate(SETS)).isGreaterThanOrEqualTo(AdaptiveRate.MIN_RATE);
      clock.advance(Duration.ofMillis(event.gapMs()));
    }

    // Past any pause (a minute at most, and as much again of jitter), calls go at the floor or
    // more, and never past the budget.
    clock.advance(Duration.ofMinutes(3));
    List<CompletableFuture<IOException>> turns = new ArrayList<>();
    for (int i = 0; i < 2_000; i++) {
      turns.add(go(throttle, create()));
    }
    clock.advance(Duration.ofSeconds(2));
    long served = turns.stream().filter(t -> t.isDone() && !t.isCompletedExceptionally()).count();
    turns.forEach(t -> t.cancel(false));
    assertThat(served).isGreaterThanOrEqualTo(2);
    if (run.budget() > 0) {
      assertThat(served).isLessThanOrEqualTo((long) Math.ceil(2 * run.budget()) + run.burst());
    }
  }

  @Provide
  Arbitrary<Run> runs() {
    Arbitrary<Event> event =
        Combinators.combine(
                Arbitraries.of(200, 200, 200, 429, 429, 503),
                Arbitraries.of("none", "0", "1", "5"),
                Arbitraries.integers().between(0, 500),
                Arbitraries.frequencyOf(
                    net.jqwik.api.Tuple.of(8, Arbitraries.integers().between(0, 5)),
                    net.jqwik.api.Tuple.of(2, Arbitraries.integers().between(0, 300)),
                    net.jqwik.api.Tuple.of(1, Arbitraries.integers().between(0, 20_000))),
                Arbitraries.of(true, false))
            .as((status, ra, ago, gap, send) -> new Event(status, retryAfter(ra), ago, gap, send));
    return Combinators.combine(
            Arbitraries.of(0.0, 0.0, 1.0, 5.0, 20.0, 150.0),
            Arbitraries.integers().between(1, 5),
            event.list().ofMinSize(20).ofMaxSize(600))
        .as((budget, burst, events) -> new Run(budget, budget > 0 ? burst : 0, events));
  }

  // --- A steady share of noise never cuts and never pauses, with calls in flight ---

  record Noise(
      double perSecond, double share, String retryAfter, int latencyMs, int seconds, long seed) {}

  // Seeded: the first run found a counterexample with this seed (shrunk: 20.73/s, 1.34% refused,
  // Retry-After 0, answered 193 ms later).
  @Property(tries = 150, seed = "5341759394982532813")
  void aSteadyNoiseShareNeverCutsTheRateNorPausesTheOriginOnceWarm(
      @ForAll("steadyNoise") Noise noise) {
    Harness harness = new Harness(() -> 1.0);
    Throttle throttle = harness.throttle(0, 0);
    FakeTime clock = harness.clock;
    Random random = new Random(noise.seed());
    long gap = (long) (1e9 / noise.perSecond());
    long start = clock.nanoTime();
    long end = start + Duration.ofSeconds(noise.seconds()).toNanos();
    long warm = start + Duration.ofSeconds(25).toNanos();
    long latency = Duration.ofMillis(noise.latencyMs()).toNanos();
    Deque<Long> inFlight = new ArrayDeque<>();
    List<CompletableFuture<IOException>> held = new ArrayList<>();
    int heldWarm = 0;

    while (clock.nanoTime() < end) {
      long now = clock.nanoTime();
      while (!inFlight.isEmpty() && inFlight.peekFirst() + latency <= now) {
        long sentAt = inFlight.pollFirst();
        boolean refused = random.nextDouble() < noise.share();
        throttle.observe(
            create(), refused ? answer(429, noise.retryAfter()) : answer(200, null), sentAt);
      }
      held.removeIf(
          turn -> {
            if (turn.isDone()) {
              inFlight.addLast(now);
              return true;
            }
            return false;
          });
      CompletableFuture<IOException> turn = go(throttle, create());
      if (turn.isDone()) {
        inFlight.addLast(now);
      } else {
        held.add(turn);
        if (now >= warm) {
          heldWarm++;
        }
      }
      clock.advance(Duration.ofNanos(gap));
    }

    assertThat(throttle.rate(SETS)).isInfinite();
    assertThat(heldWarm).isZero();
  }

  @Provide
  Arbitrary<Noise> steadyNoise() {
    return Combinators.combine(
            Arbitraries.doubles().between(5, 2_000),
            Arbitraries.doubles().between(0.001, 0.05).ofScale(4),
            Arbitraries.of("0", "1", "5"),
            Arbitraries.integers().between(1, 200),
            Arbitraries.integers().between(30, 60),
            Arbitraries.longs())
        .as(Noise::new);
  }

  // --- Refusals of calls sent before a cut (or within a window after it) cut only once ---

  record Round(double perSecond, int late, List<Integer> sentBeforeCutMs, List<Integer> gapsMs) {}

  @Property(tries = 300)
  void refusalsOfCallsSentBeforeACutOrWithinAWindowAfterItDoNotCutAgain(
      @ForAll("rounds") Round round) {
    Harness harness = new Harness(() -> 1.0);
    Throttle throttle = harness.throttle(0, 0);
    FakeTime clock = harness.clock;
    long gap = (long) (1e9 / round.perSecond());
    long end = clock.nanoTime() + Duration.ofSeconds(2).toNanos();
    while (clock.nanoTime() < end) {
      go(throttle, create());
      throttle.observe(create(), answer(200, null), clock.nanoTime());
      clock.advance(Duration.ofNanos(gap));
    }
    long cutAt = clock.nanoTime();
    for (int i = 0; i < 30; i++) {
      throttle.observe(create(), answer(429, null), cutAt - 1);
    }
    double cut = throttle.rate(SETS);
    assertThat(cut).isFinite();

    for (int i = 0; i < round.sentBeforeCutMs().size(); i++) {
      clock.advance(Duration.ofMillis(round.gapsMs().get(i)));
      long sentAt;
      if (i < round.late()) {
        // Sent just after the cut, before its answers could show (within one measuring window).
        long after = Math.min(99, round.sentBeforeCutMs().get(i) % 100);
        sentAt = Math.min(clock.nanoTime(), cutAt + Duration.ofMillis(after).toNanos());
      } else {
        sentAt = cutAt - Duration.ofMillis(round.sentBeforeCutMs().get(i)).toNanos() - 1;
      }
      throttle.observe(create(), answer(429, null), sentAt);
      assertThat(throttle.rate(SETS)).isGreaterThanOrEqualTo(cut - 1e-9);
    }
  }

  @Provide
  Arbitrary<Round> rounds() {
    return Arbitraries.integers()
        .between(1, 200)
        .flatMap(
            n ->
                Combinators.combine(
                        Arbitraries.doubles().between(20, 3_000),
                        Arbitraries.integers().between(0, n),
                        Arbitraries.integers().between(0, 2_000).list().ofSize(n),
                        Arbitraries.integers().between(0, 40).list().ofSize(n))
                    .as(Round::new));
  }

  // --- No call held past its own timeout ---

  record Step(int kind, int timeoutMs, String retryAfter, int gapMs) {}

  record Calls(double budget, int burst, List<Step> steps) {}

  // Seeded: the first run found a counterexample with this seed.
  @Property(tries = 300, seed = "-902623577140368794")
  void noCallIsGivenItsTurnAfterItsOwnTimeoutNorLeftWaitingPastIt(@ForAll("calls") Calls calls) {
    Harness harness = new Harness(new Random(calls.steps().size())::nextDouble);
    Throttle throttle = harness.throttle(calls.budget(), calls.burst());
    FakeTime clock = harness.clock;
    record Waiting(
        CompletableFuture<IOException> turn, long deadline, long[] doneAt, String what) {}
    List<Waiting> all = new ArrayList<>();

    for (Step step : calls.steps()) {
      long now = clock.nanoTime();
      switch (step.kind()) {
        case 0, 1 -> {
          Duration timeout = Duration.ofMillis(step.timeoutMs());
          ApiRequest request =
              step.kind() == 0
                  ? new ApiRequest(
                      "POST",
                      SETS,
                      new byte[0],
                      "*/*",
                      new CallOptions(Map.of(), Optional.of(timeout), OptionalInt.empty()))
                  : ApiRequest.get(SETS, ApiRequest.ANY_JSON, CallOptions.NONE)
                      .asPoll(now + timeout.toNanos());
          long[] doneAt = {-1};
          CompletableFuture<IOException> turn = go(throttle, request);
          turn.whenComplete((v, e) -> doneAt[0] = clock.nanoTime());
          all.add(
              new Waiting(
                  turn,
                  now + timeout.toNanos(),
                  doneAt,
                  String.format(
                      "call %d (%s, queued at %d ms, timeout %d ms)",
                      all.size(),
                      step.kind() == 0 ? "create" : "poll",
                      now / 1_000_000,
                      step.timeoutMs())));
        }
        case 2 -> throttle.observe(create(), answer(429, step.retryAfter()), now);
        default -> throttle.observe(create(), answer(200, null), now);
      }
      clock.advance(Duration.ofMillis(step.gapMs()));
      long after = clock.nanoTime();
      for (Waiting waiting : all) {
        if (!waiting.turn().isDone()) {
          assertThat(after)
              .as("%s left waiting at %d ms", waiting.what(), after / 1_000_000)
              .isLessThanOrEqualTo(waiting.deadline());
        }
      }
    }
    clock.advance(Duration.ofMinutes(5));

    for (Waiting waiting : all) {
      assertThat(waiting.turn()).isDone();
      if (!waiting.turn().isCompletedExceptionally()) {
        assertThat(waiting.doneAt()[0])
            .as("%s given its turn after its own timeout", waiting.what())
            .isLessThanOrEqualTo(waiting.deadline());
      } else if (!waiting.turn().isCancelled()) {
        Throwable error = waiting.turn().handle((v, e) -> e).join();
        assertThat(error).isInstanceOf(RateLimitException.class);
        assertThat(waiting.doneAt()[0]).isLessThanOrEqualTo(waiting.deadline());
      }
    }
  }

  @Provide
  Arbitrary<Calls> calls() {
    Arbitrary<Step> step =
        Combinators.combine(
                Arbitraries.of(0, 0, 1, 1, 1, 2, 3, 3),
                Arbitraries.integers().between(50, 10_000),
                Arbitraries.of("0", "1", "3", "20", "120"),
                Arbitraries.integers().between(0, 1_500))
            .as(Step::new);
    return Combinators.combine(
            Arbitraries.of(0.0, 1.0, 3.0, 50.0),
            Arbitraries.integers().between(1, 3),
            step.list().ofMinSize(5).ofMaxSize(120))
        .as((budget, burst, steps) -> new Calls(budget, budget > 0 ? burst : 0, steps));
  }

  static CompletableFuture<IOException> go(Throttle throttle, ApiRequest request) {
    CompletableFuture<IOException> turn = throttle.acquire(request);
    turn.thenRun(() -> throttle.leaving(request.url()));
    return turn;
  }

  static String retryAfter(String value) {
    return "none".equals(value) ? null : value;
  }

  static Outcome answer(int status, String retryAfter) {
    Headers headers = retryAfter == null ? Headers.of() : Headers.of("Retry-After", retryAfter);
    return new Outcome(status, headers, new byte[0], false, null, true, false, null);
  }

  static ApiRequest create() {
    return new ApiRequest("POST", SETS, new byte[0], "*/*", CallOptions.NONE);
  }
}
