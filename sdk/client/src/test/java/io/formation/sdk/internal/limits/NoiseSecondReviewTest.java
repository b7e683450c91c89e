package io.formation.sdk.internal.limits;

import static io.formation.sdk.internal.limits.RatePromisesReviewTest.perSecond;
import static io.formation.sdk.internal.limits.RatePromisesReviewTest.sum;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Disabled;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A second review of "A limit, or noise": a steady few percent refused whatever the rate must not
 * ratchet a found limit's rate down, a real limit must still be found and followed under it, and a
 * cold start's overshoot must not be taken for noise.
 */
class NoiseSecondReviewTest {
  SecondReviewHarness.Service service(long seed, double limit, double burst) {
    Random random = new Random(seed);
    SecondReviewHarness harness = new SecondReviewHarness(random::nextDouble);
    SecondReviewHarness.Service service = harness.new Service(seed, harness.throttle(0, 0));
    service.limit = limit;
    service.burst = burst;
    service.tokens = burst;
    return service;
  }

  // --- Noise that starts once a limit was found ---

  @ParameterizedTest(name = "{0} refused, Retry-After {1}, answers in {2}-{3} ms")
  @CsvSource({"0.03, 1, 1, 50"})
  void noiseStartingOnceALimitOfAThousandWasFoundIsNotCutAgainAndAgain(
      double share, String retryAfter, int fastest, int slowest) {
    noiseStartingOnceALimitWasFound(share, retryAfter, fastest, slowest);
  }

  @ParameterizedTest(name = "{0} refused, Retry-After {1}, answers in {2}-{3} ms")
  @CsvSource({"0.05, 1, 1, 50", "0.05, 0, 1, 1", "0.05, 5, 1, 300"})
  void fivePercentOfNoiseStartingOnceALimitOfAThousandWasFoundIsNotCutAgainAndAgain(
      double share, String retryAfter, int fastest, int slowest) {
    noiseStartingOnceALimitWasFound(share, retryAfter, fastest, slowest);
  }

  void noiseStartingOnceALimitWasFound(double share, String retryAfter, int fastest, int slowest) {
    SecondReviewHarness.Service service = service(5, 1_000, 100);
    service.minLatencyMs = fastest;
    service.maxLatencyMs = slowest;
    // Twenty clean seconds: the limit is found and followed, the noise measured as none.
    service.serve(Duration.ofSeconds(20));
    service.noise = share;
    service.noiseRetryAfter = retryAfter;
    service.lowestRate = Double.POSITIVE_INFINITY;
    int cutsBefore = service.cuts;

    List<int[]> seconds = service.serve(Duration.ofSeconds(20));

    // "Measured in the climb it cut, and does not cut again and again": one cut at its start (the
    // rate then held at 70% of 70% of the limit at the least), then probes as before.
    assertThat(service.lowestRate)
        .as(
            "%d cuts in the noise's 20 s; answered/refused per second: %s",
            service.cuts - cutsBefore, perSecond(seconds))
        .isGreaterThanOrEqualTo(0.49 * 1_000);
    assertThat(seconds.subList(0, 10))
        .as("answered/refused per second: %s", perSecond(seconds))
        .allSatisfy(second -> assertThat(second[0]).isGreaterThanOrEqualTo(490));
  }

  // --- A low limit at a cold start, probed ---

  @ParameterizedTest(name = "limit {0}/s, burst {1}, answers in {2}-{3} ms")
  @CsvSource({"20, 5, 1, 1", "50, 100, 1, 1"})
  void aLowLimitFoundAtAColdStartIsProbedWithUnderFivePercentRefused(
      double limit, double burst, int fastest, int slowest) {
    lowLimitFoundAtAColdStart(limit, burst, fastest, slowest);
  }

  @Disabled(
      "Open (issue 30): refusals of a cold start's overshoot sent after a cut are measured as noise"
          + " before the refused share passes a fifth; the threshold then lets probes run far past"
          + " the limit and the trickle floor holds above it: 9% to 22% refused")
  @ParameterizedTest(name = "limit {0}/s, burst {1}, answers in {2}-{3} ms")
  @CsvSource({
    "20, 5, 1, 300",
    "20, 100, 1, 300",
    "50, 5, 1, 1",
    "50, 5, 300, 300",
    "100, 100, 1, 1",
    "100, 5, 1, 300",
  })
  void aLowLimitWithASmallBurstOrSlowAnswersIsProbedWithUnderFivePercentRefused(
      double limit, double burst, int fastest, int slowest) {
    lowLimitFoundAtAColdStart(limit, burst, fastest, slowest);
  }

  void lowLimitFoundAtAColdStart(double limit, double burst, int fastest, int slowest) {
    SecondReviewHarness.Service service = service(3, limit, burst);
    service.minLatencyMs = fastest;
    service.maxLatencyMs = slowest;

    List<int[]> seconds = service.serve(Duration.ofSeconds(61));

    // Past the cold start's first seconds, a probe each cycle is all that is refused.
    List<int[]> steady = seconds.subList(11, 61);
    int answered = sum(steady, 0);
    int refused = sum(steady, 1);
    assertThat(refused)
        .as(
            "%d of %d refused; answered/refused per second: %s",
            refused, answered + refused, perSecond(seconds))
        .isLessThan((answered + refused) / 20);
  }

  // --- A limit that drops and rises, under noise ---

  @ParameterizedTest(name = "{0} refused, Retry-After {1}")
  @CsvSource({"0.05, 5", "0.03, 1", "0.01, 0"})
  void aLowLimitThatDropsAndRisesIsFollowedUnderNoise(double share, String retryAfter) {
    SecondReviewHarness.Service service = service(11, 400, 40);
    service.minLatencyMs = 1;
    service.maxLatencyMs = 50;
    service.noise = share;
    service.noiseRetryAfter = retryAfter;
    service.serve(Duration.ofSeconds(20));
    service.limit = 100;
    List<int[]> low = service.serve(Duration.ofSeconds(15));
    service.limit = 400;
    List<int[]> raised = service.serve(Duration.ofSeconds(20));

    // The drop: followed within a few seconds, then 70% of the limit or more answered.
    assertThat(sum(low.subList(5, 15), 0))
        .as("low: %s", perSecond(low))
        .isGreaterThanOrEqualTo(10 * 70);
    // The rise: found within about 5 s, and the last ten seconds answered at 70% of it or more.
    assertThat(sum(raised.subList(10, 20), 0))
        .as("raised: %s", perSecond(raised))
        .isGreaterThanOrEqualTo(10 * 280);
  }
}
