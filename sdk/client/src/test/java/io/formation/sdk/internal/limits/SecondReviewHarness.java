package io.formation.sdk.internal.limits;

import static io.formation.sdk.internal.limits.RatePromisesReviewTest.SET;
import static io.formation.sdk.internal.limits.RatePromisesReviewTest.answer;
import static io.formation.sdk.internal.limits.RatePromisesReviewTest.create;
import static io.formation.sdk.internal.limits.RatePromisesReviewTest.go;

import io.formation.sdk.TestFailures;
import io.formation.sdk.internal.Port;
import io.formation.sdk.internal.time.Sleeper;
import io.formation.sdk.internal.time.TestSleepers;
import io.formation.sdk.internal.time.Time;
import io.formation.sdk.internal.transport.ApiRequest;
import io.formation.sdk.internal.transport.CallOptions;
import io.formation.testkit.FakeTime;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.PriorityQueue;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.function.DoubleSupplier;

/** The second review's shared helpers: a throttle on a manual clock, and a simulated service. */
final class SecondReviewHarness {
  final FakeTime clock = FakeTime.manual();
  final Time time;
  final RetryPolicy policy;

  SecondReviewHarness(DoubleSupplier random) {
    this(random, Duration.ZERO, Duration.ZERO);
  }

  /**
   * A client's time whose timers fire {@code lag} after they are due, as a busy scheduler's may.
   */
  SecondReviewHarness(DoubleSupplier random, Duration callTimeout, Duration lag) {
    Sleeper sleeper =
        TestSleepers.of(
            clock::sleep,
            d -> d.isZero() || lag.isZero() ? clock.delay(d) : clock.delay(d.plus(lag)));
    time = new Time(clock, clock::nanoTime, sleeper, random);
    policy = new RetryPolicy(2, Duration.ofMinutes(1), callTimeout, time);
  }

  long now() {
    return clock.nanoTime();
  }

  void advance(Duration by) {
    clock.advance(by);
  }

  void advanceMillis(long ms) {
    clock.advance(Duration.ofMillis(ms));
  }

  Throttle throttle(double budget, int burst) {
    return new Throttle(time, policy, (Port) TestFailures.INSTANCE, budget, burst);
  }

  static ApiRequest poll(long deadline) {
    return ApiRequest.get(SET, ApiRequest.ANY_JSON, CallOptions.NONE).asPoll(deadline);
  }

  static Throwable failure(CompletableFuture<?> turn) {
    return turn.handle((v, e) -> e).join();
  }

  /**
   * One client against a service limited by a token bucket (none when {@code limit} is infinite),
   * which also refuses a share {@code noise} of requests whatever the rate. The client keeps {@code
   * waitingCalls} calls waiting at every moment, or offers {@code offered} a second; each answer
   * comes after a latency drawn from {@code minLatencyMs} to {@code maxLatencyMs}. Counts the cuts
   * of the rate: a refusal after which the rate is 75% of what it was just before, or less.
   */
  final class Service {
    double limit = Double.POSITIVE_INFINITY;
    double burst = 100;
    double tokens = 100;
    double noise;
    String noiseRetryAfter = "0";
    String limitRetryAfter = "1";
    double offered = Double.POSITIVE_INFINITY;
    int waitingCalls = 100;
    int minLatencyMs = 1;
    int maxLatencyMs = 1;
    final Random random;
    final Throttle throttle;
    long refilled = now();
    double owed;
    final List<CompletableFuture<IOException>> waiting = new ArrayList<>();
    int cuts;
    final List<Long> cutTimes = new ArrayList<>();
    double lowestRate = Double.POSITIVE_INFINITY;

    record Flight(long at, long sentAt) {}

    final PriorityQueue<Flight> inFlight =
        new PriorityQueue<>((a, b) -> Long.compare(a.at(), b.at()));

    Service(long seed, Throttle throttle) {
      random = new Random(seed);
      this.throttle = throttle;
    }

    void refuse(long sentAt, String retryAfter) {
      double before = throttle.rate(SET);
      throttle.observe(create(), answer(429, retryAfter), sentAt);
      double after = throttle.rate(SET);
      if (after <= 0.75 * before) {
        cuts++;
        cutTimes.add(now());
      }
    }

    /** Answered and refused calls of each second. */
    List<int[]> serve(Duration during) {
      List<int[]> seconds = new ArrayList<>();
      for (long ms = 0; ms < during.toMillis(); ms++) {
        if (ms % 1_000 == 0) {
          seconds.add(new int[2]);
        }
        if (offered == Double.POSITIVE_INFINITY) {
          while (waiting.size() < waitingCalls) {
            waiting.add(go(throttle, create()));
          }
        } else {
          owed += offered / 1_000;
          for (; owed >= 1; owed--) {
            waiting.add(go(throttle, create()));
          }
        }
        advanceMillis(1);
        long now = now();
        if (limit != Double.POSITIVE_INFINITY) {
          tokens = Math.min(burst, tokens + (now - refilled) * limit / 1e9);
        }
        refilled = now;
        for (var it = waiting.iterator(); it.hasNext(); ) {
          CompletableFuture<IOException> turn = it.next();
          if (turn.isDone()) {
            it.remove();
            if (!turn.isCompletedExceptionally()) {
              int latency = minLatencyMs + random.nextInt(maxLatencyMs - minLatencyMs + 1);
              inFlight.add(new Flight(now - 1_000_000L + latency * 1_000_000L, now - 1_000_000L));
            }
          }
        }
        int[] second = seconds.get(seconds.size() - 1);
        while (!inFlight.isEmpty() && inFlight.peek().at() <= now) {
          long sentAt = inFlight.poll().sentAt();
          if (random.nextDouble() < noise) {
            second[1]++;
            refuse(sentAt, noiseRetryAfter);
          } else if (limit == Double.POSITIVE_INFINITY || tokens >= 1) {
            tokens--;
            second[0]++;
            throttle.observe(create(), answer(200, null), sentAt);
          } else {
            second[1]++;
            refuse(sentAt, limitRetryAfter);
          }
        }
        lowestRate = Math.min(lowestRate, throttle.rate(SET));
      }
      return seconds;
    }
  }
}
