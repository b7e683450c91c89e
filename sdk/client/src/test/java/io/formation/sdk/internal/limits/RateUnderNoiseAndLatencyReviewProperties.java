package io.formation.sdk.internal.limits;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.DoubleRange;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;

/**
 * Sequences of answers with noise, on the injected clock of {@link
 * RateUnderNoiseAndLatencyReviewTest}.
 */
class RateUnderNoiseAndLatencyReviewProperties {

  /**
   * A limit is found in a clean spell; then a steady few percent of refusals start, with
   * Retry-After 0, 1 or 5, answers taking 1 to 300 ms. Noise must never ratchet the rate down.
   */
  @Property(tries = 60, seed = "3955839671578706934")
  void noiseStartingAfterALimitWasFoundNeverRatchetsTheRateDown(
      @ForAll @IntRange(min = 200, max = 2_000) int limit,
      @ForAll @DoubleRange(min = 0.01, max = 0.05) double share,
      @ForAll @IntRange(min = 0, max = 2) int retryAfter,
      @ForAll @IntRange(min = 1, max = 300) int slowest,
      @ForAll @IntRange(min = 5, max = 40) int cleanSeconds,
      @ForAll @LongRange(min = 1, max = 1_000_000) long seed) {
    SecondReviewHarness.Service service = RateUnderNoiseAndLatencyReviewTest.service(seed);
    service.limit = limit;
    service.maxLatencyMs = slowest;
    service.serve(Duration.ofSeconds(cleanSeconds));
    service.noise = share;
    service.noiseRetryAfter = List.of("0", "1", "5").get(retryAfter);

    List<int[]> seconds = service.serve(Duration.ofSeconds(40));

    // Past five seconds of noise, the limit is kept at 70% on average, as without noise.
    int answered = RatePromisesReviewTest.sum(seconds.subList(5, 40), 0);
    assertThat(answered)
        .as("answered/refused per second: %s", RatePromisesReviewTest.perSecond(seconds))
        .isGreaterThanOrEqualTo((int) (35 * 0.7 * limit));
  }

  /**
   * No limit at all: a steady few percent of refusals that starts after a clean spell, at 50 to
   * 2,000 requests a second, answered after 1 to 300 ms, never teaches a rate.
   */
  @Property(tries = 20, seed = "7398933255221333653")
  void noiseStartingAfterACleanSpellWithoutALimitNeverTeachesARate(
      @ForAll @IntRange(min = 50, max = 2_000) int offered,
      @ForAll @DoubleRange(min = 0.01, max = 0.05) double share,
      @ForAll @IntRange(min = 0, max = 2) int retryAfter,
      @ForAll @IntRange(min = 1, max = 300) int slowest,
      @ForAll @IntRange(min = 5, max = 60) int cleanSeconds,
      @ForAll @LongRange(min = 1, max = 1_000_000) long seed) {
    SecondReviewHarness.Service service = RateUnderNoiseAndLatencyReviewTest.service(seed);
    service.offered = offered;
    service.maxLatencyMs = slowest;
    service.serve(Duration.ofSeconds(cleanSeconds));
    service.noise = share;
    service.noiseRetryAfter = List.of("0", "1", "5").get(retryAfter);

    service.serve(Duration.ofSeconds(60));

    assertThat(service.lowestRate).isInfinite();
  }
}
