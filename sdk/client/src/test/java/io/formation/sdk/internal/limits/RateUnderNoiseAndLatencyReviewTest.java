package io.formation.sdk.internal.limits;

import static io.formation.sdk.internal.limits.RatePromisesReviewTest.answer;
import static io.formation.sdk.internal.limits.RatePromisesReviewTest.perSecond;
import static io.formation.sdk.internal.limits.RatePromisesReviewTest.sum;
import static org.assertj.core.api.Assertions.assertThat;

import io.formation.sdk.internal.time.Sleeper;
import io.formation.sdk.internal.time.TestSleepers;
import io.formation.sdk.internal.time.Ticker;
import io.formation.sdk.internal.time.Time;
import io.formation.sdk.internal.transport.ApiRequest;
import io.formation.sdk.internal.transport.CallOptions;
import io.formation.testkit.FakeTime;
import java.time.Duration;
import java.util.List;
import java.util.Random;
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

  static ApiRequest poll(long deadline) {
    return ApiRequest.get(SET, ApiRequest.ANY_JSON, CallOptions.NONE).asPoll(deadline);
  }

  /** The shared simulated service, one client keeping 100 calls waiting, on a clock of its own. */
  static SecondReviewHarness.Service service(long seed) {
    Random random = new Random(seed * 31);
    SecondReviewHarness harness = new SecondReviewHarness(random::nextDouble);
    return harness.new Service(seed, harness.throttle(0, 0));
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
    SecondReviewHarness.Service service = service(5);
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
    SecondReviewHarness.Service service = service(3);
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
    SecondReviewHarness.Service service = service(9);
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
