package io.formation.sdk.internal.limits;

import static io.formation.sdk.internal.limits.RatePromisesReviewTest.answer;
import static io.formation.sdk.internal.limits.RatePromisesReviewTest.create;
import static io.formation.sdk.internal.limits.RatePromisesReviewTest.go;
import static io.formation.sdk.internal.limits.RatePromisesReviewTest.perSecond;
import static io.formation.sdk.internal.limits.RatePromisesReviewTest.sum;
import static org.assertj.core.api.Assertions.assertThat;

import io.formation.sdk.TestFailures;
import io.formation.sdk.internal.Port;
import io.formation.sdk.internal.time.Sleeper;
import io.formation.sdk.internal.time.TestSleepers;
import io.formation.sdk.internal.time.Ticker;
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
import okhttp3.HttpUrl;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A review's attacks on the retry backoff and the adaptive rate at their edges, on an injected
 * clock: polls retried after "go on", noise that starts after a limit was found, and answers that
 * take hundreds of milliseconds.
 */
class RateUnderNoiseAndLatencyReviewTest {
  static final HttpUrl SET = HttpUrl.get("https://api.example.com/v1/document_sets/a");

  final FakeTime time = FakeTime.manual();
  final Ticker ticker = time::nanoTime;
  final Sleeper sleeper = TestSleepers.of(time::sleep, time::delay);

  Time time(java.util.function.DoubleSupplier random) {
    return new Time(time, ticker, sleeper, random);
  }

  RetryPolicy policy(double draw) {
    return new RetryPolicy(2, Duration.ofMinutes(1), Duration.ZERO, time(() -> draw));
  }

  Throttle throttle(long seed) {
    Random random = new Random(seed);
    return new Throttle(time(random::nextDouble), policy(1.0), (Port) TestFailures.INSTANCE, 0, 0);
  }

  static ApiRequest poll(long deadline) {
    return ApiRequest.get(SET, ApiRequest.ANY_JSON, CallOptions.NONE).asPoll(deadline);
  }

  /**
   * One client against a service limited by a token bucket (none when {@code limit} is infinite),
   * which also refuses a share {@code noise} of requests whatever the rate. The client offers
   * {@code offered} calls a second (or keeps {@code 100} waiting when infinite); each answer comes
   * after a latency drawn from {@code minLatencyMs} to {@code maxLatencyMs}.
   */
  final class Service {
    double limit = Double.POSITIVE_INFINITY;
    double burst = 100;
    double tokens = 100;
    double noise;
    String noiseRetryAfter = "0";
    String limitRetryAfter = "1";
    double offered = Double.POSITIVE_INFINITY;
    int minLatencyMs = 1;
    int maxLatencyMs = 1;
    final Random random;
    final Throttle throttle;
    long refilled = time.nanoTime();
    double owed;
    final List<CompletableFuture<IOException>> waiting = new ArrayList<>();

    record Flight(long at, long sentAt) {}

    final PriorityQueue<Flight> inFlight =
        new PriorityQueue<>((a, b) -> Long.compare(a.at(), b.at()));
    double lowestRate = Double.POSITIVE_INFINITY;

    Service(long seed) {
      random = new Random(seed);
      throttle = throttle(seed * 31);
    }

    /** Answered and refused calls of each second. */
    List<int[]> serve(Duration during) {
      List<int[]> seconds = new ArrayList<>();
      for (long ms = 0; ms < during.toMillis(); ms++) {
        if (ms % 1_000 == 0) {
          seconds.add(new int[2]);
        }
        if (offered == Double.POSITIVE_INFINITY) {
          while (waiting.size() < 100) {
            waiting.add(go(throttle, create()));
          }
        } else {
          owed += offered / 1_000;
          for (; owed >= 1; owed--) {
            waiting.add(go(throttle, create()));
          }
        }
        time.advance(Duration.ofMillis(1));
        long now = time.nanoTime();
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
            throttle.observe(create(), answer(429, noiseRetryAfter), sentAt);
          } else if (limit == Double.POSITIVE_INFINITY || tokens >= 1) {
            tokens--;
            second[0]++;
            throttle.observe(create(), answer(200, null), sentAt);
          } else {
            second[1]++;
            throttle.observe(create(), answer(429, limitRetryAfter), sentAt);
          }
        }
        lowestRate = Math.min(lowestRate, throttle.rate(SET));
      }
      return seconds;
    }
  }

  // --- A poll's retry stays at least MIN_GAP after the failed poll ---

  @ParameterizedTest(name = "{0} with Retry-After: 0")
  @ValueSource(ints = {429, 503})
  void aPollRefusedWithRetryAfterZeroIsRetriedNoSoonerThan100MillisecondsAfterIt(int status) {
    RetryPolicy policy = policy(0.0);

    Duration delay = policy.delayAfter(poll(Long.MAX_VALUE), 1, answer(status, "0"));

    // "No two polls of one wait come closer than 100 ms", the transport's retry of a poll included.
    assertThat(delay).isNotNull().isGreaterThanOrEqualTo(RetryPolicy.MIN_GAP);
  }

  // --- Noise that starts after a limit was found ---

  @ParameterizedTest(name = "{0} refused, Retry-After {1}")
  @CsvSource({"0.03, 0", "0.03, 1", "0.03, 5", "0.05, 1"})
  void noiseThatStartsAfterALimitWasFoundDoesNotRatchetTheRateFarUnderTheLimit(
      double share, String retryAfter) {
    Service service = new Service(5);
    service.limit = 1_000;
    // Twenty clean seconds: the limit is found, the noise measured as none.
    service.serve(Duration.ofSeconds(20));
    service.noise = share;
    service.noiseRetryAfter = retryAfter;
    service.lowestRate = Double.POSITIVE_INFINITY;

    List<int[]> seconds = service.serve(Duration.ofSeconds(60));

    // A steady few percent is noise "however long it lasts": a cut or two at its start, no more.
    assertThat(service.lowestRate)
        .as("answered/refused per second: %s", perSecond(seconds))
        .isGreaterThanOrEqualTo(0.49 * 1_000 * AdaptiveRate.HOLD_SHARE);
    assertThat(sum(seconds.subList(5, 60), 0))
        .as("answered/refused per second: %s", perSecond(seconds))
        .isGreaterThanOrEqualTo(55 * 700);
  }

  // --- Probing a steady limit, answers slower than a millisecond ---

  @Test
  void aSteadyLimitWhoseAnswersTake300MillisecondsIsProbedWithUnderFivePercentRefused() {
    probedWithUnderFivePercentRefused(500, 300, 300);
  }

  @Test
  void aSteadyLimitWhoseAnswersTakeFrom1To300MillisecondsIsProbedWithUnderFivePercentRefused() {
    probedWithUnderFivePercentRefused(100, 1, 300);
  }

  void probedWithUnderFivePercentRefused(double limit, int fastest, int slowest) {
    Service service = new Service(3);
    service.limit = limit;
    service.minLatencyMs = fastest;
    service.maxLatencyMs = slowest;

    List<int[]> seconds = service.serve(Duration.ofSeconds(60));

    // Past the cold start, a probe every cycle is all that is refused, and a probe doubles no
    // faster than its refusals come back.
    List<int[]> steady = seconds.subList(10, 60);
    int answered = sum(steady, 0);
    int refused = sum(steady, 1);
    assertThat(refused)
        .as("answered/refused per second: %s", perSecond(seconds))
        .isLessThan((answered + refused) / 20);
  }

  @Test
  void aLimitThatDropsFourfoldIsFollowedAtSeventyPercentOrMoreWhenAnswersTake300Milliseconds() {
    Service service = new Service(9);
    service.limit = 2_000;
    service.minLatencyMs = 300;
    service.maxLatencyMs = 300;
    service.serve(Duration.ofSeconds(20));
    service.limit = 500;

    List<int[]> low = service.serve(Duration.ofSeconds(20));

    // Followed within a few seconds, and then every second answered at 70% of the limit or more.
    assertThat(low.subList(5, 20))
        .as("answered/refused per second: %s", perSecond(low))
        .allSatisfy(second -> assertThat(second[0]).isGreaterThanOrEqualTo(350));
  }
}
