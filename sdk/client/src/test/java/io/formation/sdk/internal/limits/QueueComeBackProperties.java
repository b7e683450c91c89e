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
import java.util.concurrent.CompletionException;
import java.util.function.DoubleSupplier;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.statistics.Statistics;
import okhttp3.Headers;
import okhttp3.HttpUrl;
import org.assertj.core.data.Offset;

/**
 * "No call is held past what its caller allowed" (docs/retries-and-rate-limits.md), the come-back
 * half: a call the per-origin queue turns away, at the door or later as its deadline comes, fails
 * with a {@link RateLimitException} whose {@code retryAfter()} says when to come back. Under a
 * learned rate that is at most the time the rate takes to climb back, hold and double once ({@link
 * AdaptiveRate#CLIMB_SECONDS} + {@link AdaptiveRate#HOLD_SECONDS} + 3 s, the slowest doubling);
 * under a request budget, which never rises, it is the queue's drain at the budget, not capped.
 *
 * <p>Driven through random sequences of events on a manual clock: answers, refusals (429 with
 * Retry-After absent, 0, 1 or 5), waits, bursts of creates or polls with timeouts from 100 ms to 60
 * s (or none), and cancellations. A call given its turn leaves OkHttp's queue as the transport's
 * interceptor says; stopped there by a pause it acquires again with its first try's deadline, as
 * {@code Transport} does. Every call's future is looked at after each event, and once the events
 * are over, after time enough for every call still waiting to end.
 *
 * <p>A property that never reaches the queue's refusals would prove nothing: each property collects
 * whether a try saw one and checks that a share of the tries did ({@link Statistics} coverage).
 */
class QueueComeBackProperties {
  static final HttpUrl SETS = HttpUrl.get("https://api.example.com/v1/document_sets");
  static final HttpUrl SET = HttpUrl.get("https://api.example.com/v1/document_sets/a");

  /** The most a learned rate takes to climb back, hold and double once. */
  static final Duration RISEN =
      Duration.ofNanos(
          (long) ((AdaptiveRate.CLIMB_SECONDS + AdaptiveRate.HOLD_SECONDS + 3) * 1_000_000_000L));

  /** What happens next. */
  sealed interface Event permits Answers, Refusals, Pass, Calls, Cancel {}

  /**
   * {@code count} calls answered 200 one after another over {@code millis}: those in flight, oldest
   * first, then others sent 50 ms before.
   */
  record Answers(int count, int millis) implements Event {}

  /**
   * {@code count} calls refused with 429 at once; {@code retryAfter} null if absent. A run of 23 or
   * more from the start teaches a rate: the refused share of about the last hundred answers passes
   * a fifth.
   */
  record Refusals(int count, String retryAfter) implements Event {}

  /** Time passes. */
  record Pass(int millis) implements Event {}

  /** A burst of creates or polls, one per timeout; a timeout of -1 is none. */
  record Calls(boolean polls, List<Integer> timeoutsMs) implements Event {}

  /** Callers give up {@code count} waiting calls, the newest or the oldest first. */
  record Cancel(int count, boolean newest) implements Event {}

  record Run(List<Event> events, long seed) {}

  record BudgetRun(double perSecond, int burst, List<Event> events) {}

  // --- Under a learned rate ---

  @Property(tries = 300)
  void aCallTheQueueTurnsAwayUnderALearnedRateIsToldToComeBackWithinARiseOfTheRate(
      @ForAll("runs") Run run) {
    Random random = new Random(run.seed());
    Driver driver = new Driver(0, 0, random::nextDouble);
    int learnedRefusals = 0;
    Duration longest = Duration.ZERO;
    boolean shortened = false;
    for (Event event : thenTimeToEnd(run.events())) {
      driver.apply(event);
      for (Refused refused : driver.newlyRefused()) {
        if (!refused.byQueue()) {
          continue;
        }
        Optional<Duration> retryAfter = refused.failure().retryAfter();
        assertThat(retryAfter).as("%s: retryAfter()", refused).isPresent();
        assertThat(retryAfter.get().isNegative())
            .as("%s: retryAfter() negative", refused)
            .isFalse();
        // Without a budget the queue holds calls only once a refusal taught a rate.
        assertThat(refused.rate()).as("%s: the rate learned", refused).isFinite();
        assertThat(retryAfter.get())
            .as("%s at a learned rate of %.2f/s", refused, refused.rate())
            .isLessThanOrEqualTo(RISEN);
        learnedRefusals++;
        shortened |= refused.waiting() > refused.rate() * RISEN.toNanos() / 1e9;
        longest = retryAfter.get().compareTo(longest) > 0 ? retryAfter.get() : longest;
      }
    }
    Statistics.label("a queue refusal under a learned rate").collect(learnedRefusals > 0);
    // Where the cap is what the promise is about: more calls waiting than the rate then drains
    // within it (an estimate: those held by a pause count too).
    Statistics.label("a queue refusal with more waiting than the rate drains within the cap")
        .collect(shortened);
    Statistics.label("queue refusals under a learned rate")
        .collect(
            learnedRefusals == 0
                ? "0"
                : learnedRefusals < 10 ? "1-9" : learnedRefusals < 100 ? "10-99" : "100+");
    if (learnedRefusals > 0) {
      Statistics.label("longest retryAfter")
          .collect(
              longest.compareTo(Duration.ofSeconds(1)) < 0
                  ? "< 1 s"
                  : longest.compareTo(Duration.ofSeconds(3)) < 0 ? "1-3 s" : "3-5 s");
    }
    Statistics.label("a queue refusal under a learned rate")
        .coverage(coverage -> coverage.check(true).percentage(p -> p >= 35));
  }

  @Provide
  Arbitrary<Run> runs() {
    Arbitrary<Event> event =
        Arbitraries.frequencyOf(
            Tuple.of(4, calls()),
            Tuple.of(2, answers()),
            Tuple.of(
                3,
                Combinators.combine(
                        Arbitraries.frequencyOf(
                            Tuple.of(2, Arbitraries.integers().between(1, 5)),
                            Tuple.of(3, Arbitraries.integers().between(20, 40))),
                        Arbitraries.of("none", "0", "1", "5")
                            .map(value -> "none".equals(value) ? null : value))
                    .as(Refusals::new)),
            Tuple.of(3, pass()),
            Tuple.of(1, cancel()));
    return Combinators.combine(event.list().ofMinSize(10).ofMaxSize(80), Arbitraries.longs())
        .as(Run::new);
  }

  // --- Under a budget ---

  @Property(tries = 150)
  void aCallTheQueueTurnsAwayUnderABudgetIsToldWhenTheQueueDrainsAtTheBudget(
      @ForAll("budgetRuns") BudgetRun run) {
    Driver driver = new Driver(run.perSecond(), run.burst(), () -> 1.0);
    int refusals = 0;
    boolean pastRisen = false;
    for (Event event : thenTimeToEnd(run.events())) {
      driver.apply(event);
      for (Refused refused : driver.newlyRefused()) {
        if (!refused.byQueue()) {
          continue;
        }
        Duration retryAfter = refused.failure().retryAfter().orElseThrow();
        // No refusal teaches a rate here: the budget's rate is the one rate.
        assertThat(refused.rate()).isEqualTo(run.perSecond());
        if (refused.expectedNanos() >= 0) {
          // At the door: the wait of the live calls ahead and this one, less the tokens in the
          // bucket, at the budget; the model's tokens differ only by floating-point rounding.
          assertThat(retryAfter.toNanos())
              .as("%s at a budget of %s/s", refused, run.perSecond())
              .isCloseTo(refused.expectedNanos(), Offset.offset(1_000L));
        } else {
          // Overtaken in the queue until its deadline: the drain of a whole number of live calls
          // at the budget, however long.
          long drained = Math.round(retryAfter.toNanos() / 1e9 * run.perSecond());
          assertThat(drained)
              .as("%s: calls its retryAfter drains", refused)
              .isBetween(0L, (long) driver.made);
          assertThat(retryAfter.toNanos())
              .as("%s at a budget of %s/s", refused, run.perSecond())
              .isCloseTo((long) (drained / run.perSecond() * 1e9), Offset.offset(1_000L));
        }
        refusals++;
        pastRisen |= retryAfter.compareTo(RISEN) > 0;
      }
    }
    Statistics.label("a queue refusal under a budget").collect(refusals > 0);
    Statistics.label("a budget's retryAfter past a learned rate's cap").collect(pastRisen);
    Statistics.label("a queue refusal under a budget")
        .coverage(coverage -> coverage.check(true).percentage(p -> p >= 40));
    Statistics.label("a budget's retryAfter past a learned rate's cap")
        .coverage(coverage -> coverage.check(true).percentage(p -> p >= 10));
  }

  @Provide
  Arbitrary<BudgetRun> budgetRuns() {
    // No refusal: a learned rate under the budget would cap the come-back again.
    Arbitrary<Event> event =
        Arbitraries.frequencyOf(
            Tuple.of(3, calls()),
            Tuple.of(1, answers()),
            Tuple.of(3, pass()),
            Tuple.of(1, cancel()));
    return Combinators.combine(
            Arbitraries.doubles().between(1, 50).ofScale(2),
            Arbitraries.integers().between(1, 10),
            event.list().ofMinSize(3).ofMaxSize(30))
        .as(BudgetRun::new);
  }

  // --- Events ---

  /** The events, then time for every call still waiting to end. */
  static List<Event> thenTimeToEnd(List<Event> events) {
    List<Event> all = new ArrayList<>(events);
    all.add(new Pass(120_000));
    return all;
  }

  static Arbitrary<Event> calls() {
    Arbitrary<Integer> timeout =
        Arbitraries.frequencyOf(
            Tuple.of(2, Arbitraries.just(-1)),
            Tuple.of(3, Arbitraries.integers().between(100, 1_000)),
            Tuple.of(3, Arbitraries.integers().between(1_000, 10_000)),
            Tuple.of(2, Arbitraries.integers().between(10_000, 60_000)));
    return Combinators.combine(
            Arbitraries.of(true, false), timeout.list().ofMinSize(1).ofMaxSize(150))
        .as(Calls::new);
  }

  static Arbitrary<Event> answers() {
    return Combinators.combine(
            Arbitraries.integers().between(1, 60),
            Arbitraries.frequencyOf(
                Tuple.of(1, Arbitraries.just(0)),
                Tuple.of(3, Arbitraries.integers().between(100, 3_000))))
        .as(Answers::new);
  }

  static Arbitrary<Event> pass() {
    return Arbitraries.frequencyOf(
            Tuple.of(5, Arbitraries.integers().between(1, 100)),
            Tuple.of(3, Arbitraries.integers().between(100, 1_000)),
            Tuple.of(2, Arbitraries.integers().between(1_000, 4_000)))
        .map(Pass::new);
  }

  static Arbitrary<Event> cancel() {
    return Combinators.combine(Arbitraries.integers().between(1, 30), Arbitraries.of(true, false))
        .as(Cancel::new);
  }

  /**
   * A call the throttle failed: how, when, at what rate, with how many other calls waiting then,
   * and for one refused at the door of a budget's queue, the come-back the budget's bucket says
   * (else -1).
   */
  record Refused(
      String what, RateLimitException failure, double rate, int waiting, long expectedNanos) {
    boolean byQueue() {
      return failure.getMessage().contains("queue");
    }

    @Override
    public String toString() {
      return what + ", retryAfter " + failure.retryAfter().orElse(null);
    }
  }

  /** A throttle on a manual clock, the calls made of it, and a model of a budget's bucket. */
  static final class Driver {
    final FakeTime clock = FakeTime.manual();
    final Time time;
    final RetryPolicy policy;
    final Throttle throttle;
    final double perSecond;
    final int burst;

    // The calls not yet looked at since they ended; when those sent went, oldest first.
    final List<Call> calls = new ArrayList<>();
    final Deque<long[]> inFlight = new ArrayDeque<>();
    int made;
    int pending;

    // Under a budget: the bucket's tokens as the budget fills it and each turn given takes one.
    double tokens;
    long refilled;

    Driver(double perSecond, int burst, DoubleSupplier draw) {
      time = new Time(clock, clock::nanoTime, TestSleepers.of(clock::sleep, clock::delay), draw);
      policy = new RetryPolicy(2, Duration.ofMinutes(1), Duration.ZERO, time);
      throttle = new Throttle(time, policy, (Port) TestFailures.INSTANCE, perSecond, burst);
      this.perSecond = perSecond;
      this.burst = burst;
      this.tokens = burst;
      this.refilled = clock.nanoTime();
    }

    final class Call {
      final String what;
      final ApiRequest request;
      final long deadline;
      CompletableFuture<IOException> turn;
      // Set when a budget's door refuses it: what the bucket says.
      long expectedNanos = -1;
      // Set as it fails: the rate then, and how many other calls were still waiting.
      double rateThen;
      int waitingThen;

      Call(String what, ApiRequest request, long deadline) {
        this.what = what;
        this.request = request;
        this.deadline = deadline;
      }

      void acquire(boolean first) {
        long expected = perSecond > 0 ? expected(request.isPoll()) : -1;
        CompletableFuture<IOException> next =
            first ? throttle.acquire(request) : throttle.acquire(request, deadline);
        turn = next;
        if (next.isDone()) {
          // Given its turn at once, or refused at the door.
          expectedNanos = expected;
          ended(next, false);
          return;
        }
        pending++;
        next.whenComplete((ignored, error) -> ended(next, true));
      }

      /** Its turn came, or it failed: what the throttle's rate and queue were then. */
      void ended(CompletableFuture<IOException> turn, boolean waited) {
        if (waited) {
          pending--;
        }
        if (!turn.isCompletedExceptionally()) {
          given();
        } else if (!turn.isCancelled()) {
          rateThen = throttle.rate(SET);
          waitingThen = pending;
        }
      }

      /** Its turn came: it leaves OkHttp's queue, or, paused there, acquires again. */
      void given() {
        long now = clock.nanoTime();
        take(now);
        if (throttle.leaving(request.url())) {
          acquire(false);
        } else {
          inFlight.add(new long[] {now});
        }
      }
    }

    void apply(Event event) {
      long now = clock.nanoTime();
      if (event instanceof Answers answers) {
        long step = answers.millis() * 1_000_000L / answers.count();
        for (int i = 0; i < answers.count(); i++) {
          observe(answer(200, null));
          clock.advance(Duration.ofNanos(step));
        }
      } else if (event instanceof Refusals refusals) {
        for (int i = 0; i < refusals.count(); i++) {
          observe(answer(429, refusals.retryAfter()));
        }
      } else if (event instanceof Pass pass) {
        clock.advance(Duration.ofMillis(pass.millis()));
      } else if (event instanceof Calls arrivals) {
        for (int timeoutMs : arrivals.timeoutsMs()) {
          ApiRequest request;
          if (arrivals.polls()) {
            long deadline = timeoutMs < 0 ? Long.MAX_VALUE : now + timeoutMs * 1_000_000L;
            request = ApiRequest.get(SET, ApiRequest.ANY_JSON, CallOptions.NONE).asPoll(deadline);
          } else {
            CallOptions options =
                timeoutMs < 0
                    ? CallOptions.NONE
                    : new CallOptions(
                        Map.of(), Optional.of(Duration.ofMillis(timeoutMs)), OptionalInt.empty());
            request = new ApiRequest("POST", SETS, new byte[0], "*/*", options);
          }
          Call call =
              new Call(
                  String.format(
                      "call %d (%s at %d ms, timeout %s)",
                      made++,
                      arrivals.polls() ? "poll" : "create",
                      now / 1_000_000,
                      timeoutMs < 0 ? "none" : timeoutMs + " ms"),
                  request,
                  policy.latestStart(request, now));
          calls.add(call);
          call.acquire(true);
        }
      } else if (event instanceof Cancel cancel) {
        int left = cancel.count();
        for (int i = 0; i < calls.size() && left > 0; i++) {
          Call call = calls.get(cancel.newest() ? calls.size() - 1 - i : i);
          if (!call.turn.isDone()) {
            call.turn.cancel(false);
            left--;
          }
        }
      }
    }

    void observe(Outcome outcome) {
      long[] sent = inFlight.poll();
      long sentAt = sent != null ? sent[0] : clock.nanoTime() - 50_000_000L;
      throttle.observe(
          new ApiRequest("POST", SETS, new byte[0], "*/*", CallOptions.NONE), outcome, sentAt);
    }

    /** The calls failed since the last look, each looked at once; the rest kept. */
    List<Refused> newlyRefused() {
      List<Refused> failed = new ArrayList<>();
      calls.removeIf(
          call -> {
            if (!call.turn.isDone()) {
              return false;
            }
            if (call.turn.isCompletedExceptionally() && !call.turn.isCancelled()) {
              Throwable error = call.turn.handle((value, e) -> e).join();
              error = error instanceof CompletionException wrapped ? wrapped.getCause() : error;
              assertThat(error).as(call.what).isInstanceOf(RateLimitException.class);
              failed.add(
                  new Refused(
                      call.what + " failed by " + clock.nanoTime() / 1_000_000 + " ms",
                      (RateLimitException) error,
                      call.rateThen,
                      call.waitingThen,
                      call.expectedNanos));
            }
            return true;
          });
      return failed;
    }

    /** The budget's bucket says this call's turn comes then, the live calls ahead going first. */
    long expected(boolean poll) {
      refill(clock.nanoTime());
      int interactive = 0;
      int polls = 0;
      for (Call call : calls) {
        if (call.turn != null && !call.turn.isDone()) {
          if (call.request.isPoll()) {
            polls++;
          } else {
            interactive++;
          }
        }
      }
      int ahead = interactive + (poll ? polls : 0);
      return (long) (Math.max(0, ahead + 1 - tokens) / perSecond * 1e9);
    }

    void take(long now) {
      if (perSecond > 0) {
        refill(now);
        tokens--;
      }
    }

    void refill(long now) {
      if (perSecond > 0) {
        tokens = Math.min(tokens + (now - refilled) * perSecond / 1e9, burst);
        refilled = now;
      }
    }
  }

  static Outcome answer(int status, String retryAfter) {
    Headers headers = retryAfter == null ? Headers.of() : Headers.of("Retry-After", retryAfter);
    return new Outcome(status, headers, new byte[0], false, null, true, false, null);
  }
}
