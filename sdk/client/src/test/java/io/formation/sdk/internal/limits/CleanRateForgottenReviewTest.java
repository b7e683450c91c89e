package io.formation.sdk.internal.limits;

import static io.formation.sdk.internal.limits.CleanRateReviewHarness.MS;
import static io.formation.sdk.internal.limits.CleanRateReviewHarness.SECOND;
import static io.formation.sdk.internal.limits.CleanRateReviewTest.refusedShare;
import static io.formation.sdk.internal.limits.CleanRateReviewTest.settledSecond;
import static io.formation.sdk.internal.limits.RatePromisesReviewTest.perSecond;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.formation.sdk.internal.limits.CleanRateReviewHarness.Instance;
import java.time.Duration;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Disabled;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.ShrinkingMode;
import net.jqwik.api.Tuple;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A review of one rule of "A limit, or noise" at its edges: "the rate is no longer known clean ...
 * once a cut or a pause measures the limit under 70% of it, as when the limit falls while the rate
 * probes past it: refusals under it then show the limit as refusals past it do". With it: noise
 * that starts once a limit was found cuts the rate once and does not ratchet it; a limit that falls
 * while the rate is held or probes is followed, under 5% of requests refused past its pause and two
 * seconds. On {@link CleanRateReviewHarness}, seeded, on its manual clock.
 */
class CleanRateForgottenReviewTest {
  static final long WRAPS = Long.MAX_VALUE - 25 * SECOND;

  /** Serves until the first instance is at {@code moment} of its cycle. */
  static boolean reach(CleanRateReviewHarness run, String moment) {
    Instance first = run.first();
    return switch (moment) {
      case "climb" -> run.serveUntil(first::isClimbing, Duration.ofSeconds(10));
      case "hold" -> run.serveUntil(first::isHolding, Duration.ofSeconds(10));
      case "probe" -> run.serveUntil(first::isProbing, Duration.ofSeconds(10));
      case "cleanProbe" ->
          run.serveUntil(() -> first.clean() > 0, Duration.ofSeconds(15))
              && run.serveUntil(first::isProbing, Duration.ofSeconds(10));
      default -> throw new IllegalArgumentException(moment);
    };
  }

  /**
   * One instance against {@code limit} a second (a burst of 0.05 s of it), answers in {@code
   * fastest} to {@code slowest} ms, refusals with {@code retryAfter}, served twelve seconds and
   * then until it is at {@code moment}.
   */
  static CleanRateReviewHarness found(
      long seed, double limit, int fastest, int slowest, String retryAfter, String moment) {
    CleanRateReviewHarness run = new CleanRateReviewHarness(seed, 0);
    run.setLimit(limit, 0.05);
    run.minLatencyMs = fastest;
    run.maxLatencyMs = slowest;
    run.limitRetryAfter = retryAfter;
    run.noiseRetryAfter = retryAfter;
    run.serve(Duration.ofSeconds(12));
    assertThat(reach(run, moment)).as("reached %s", moment).isTrue();
    return run;
  }

  static String stories(CleanRateReviewHarness run, long from) {
    StringBuilder text = new StringBuilder();
    run.instances.forEach(instance -> text.append(instance.story(from)).append("; "));
    return text.toString();
  }

  static int settled(CleanRateReviewHarness run, long from, String retryAfter) {
    return run.instances.stream()
        .mapToInt(instance -> settledSecond(instance, from, retryAfter))
        .max()
        .orElseThrow();
  }

  /**
   * Past every instance's pause and two seconds, under 5% of the requests of {@code seconds} were
   * refused, and no rate was ever broken.
   */
  static void assertFollowedPastThePauses(
      CleanRateReviewHarness run, long from, String retryAfter, List<int[]> seconds) {
    int settled = settled(run, from, retryAfter);
    run.instances.forEach(instance -> assertThat(instance.broken).isNull());
    assertThat(refusedShare(seconds, settled, seconds.size()))
        .as("from second %d: %s", settled, stories(run, from))
        .isLessThan(0.05);
  }

  // --- The drop during a probe and during a hold

  /**
   * A limit of 2,000 a second, a clean rate held under it, falls to a fraction while the rate
   * probes past that clean rate or holds it. Past the drop's pause and two seconds, under 5% of all
   * requests are refused, probes included.
   */
  @ParameterizedTest(name = "{0}, limit x{1}, answers in 1-{2} ms, Retry-After {3}")
  @CsvSource({
    "cleanProbe, 0.25, 1, 1",
    "cleanProbe, 0.25, 50, 5",
    "cleanProbe, 0.4, 20, 0",
    "cleanProbe, 0.6, 300, 1",
    "cleanProbe, 0.6, 3, 5",
    "hold, 0.25, 1, 1",
    "hold, 0.4, 50, 5",
    "hold, 0.6, 20, 0",
    "hold, 0.6, 300, 1",
    "climb, 0.4, 20, 1",
    "climb, 0.6, 3, 5",
  })
  void aLimitThatFallsDuringAProbeOrAHoldRefusesUnderFivePercentPastItsPauseAndTwoSeconds(
      String moment, double factor, int slowest, String retryAfter) {
    CleanRateReviewHarness run = found(101, 2_000, 1, slowest, retryAfter, moment);
    long from = run.local();
    run.limit = 2_000 * factor;

    List<int[]> seconds = run.serve(Duration.ofSeconds(25));

    assertFollowedPastThePauses(run, from, retryAfter, seconds);
  }

  // --- Just over and just under 70% of the clean rate

  /**
   * The limit falls, while the rate holds, to just under or just over 70% of the rate held clean.
   * Either way its refusals are past a fifth of the answers at the clean rate (a limit's share),
   * and at the next probe the rate is cut to it: from eight seconds on (a few probe cycles), under
   * 5% refused, and at least 70% of the limit answered.
   */
  @ParameterizedTest(name = "limit at {0} of the clean rate, answers in 1-{1} ms, seed {2}")
  @CsvSource({
    "0.66, 1, 1",
    "0.68, 1, 2",
    "0.69, 20, 3",
    "0.695, 1, 4",
    "0.70, 20, 5",
    "0.705, 1, 6",
    "0.71, 20, 7",
    "0.72, 1, 8",
    "0.74, 50, 9",
    "0.69, 50, 10",
    "0.71, 50, 11",
  })
  void aLimitThatFallsToJustOverOrJustUnderSeventyPercentOfTheCleanRateIsFollowed(
      double fraction, int slowest, long seed) {
    CleanRateReviewHarness run = new CleanRateReviewHarness(seed, 0);
    run.setLimit(1_500, 0.05);
    run.maxLatencyMs = slowest;
    run.serve(Duration.ofSeconds(12));
    Instance first = run.first();
    assertThat(run.serveUntil(() -> first.clean() > 0 && first.isHolding(), Duration.ofSeconds(20)))
        .isTrue();
    double clean = first.clean();
    long from = run.local();
    run.limit = clean * fraction;

    List<int[]> seconds = run.serve(Duration.ofSeconds(20));

    String story = String.format("clean %.0f, limit %.0f; %s", clean, run.limit, first.story(from));
    assertThat(first.broken).as(story).isNull();
    assertThat(refusedShare(seconds, 8, 20)).as(story).isLessThan(0.05);
    double answered = seconds.subList(8, 20).stream().mapToInt(s -> s[0]).average().orElse(0);
    assertThat(answered).as(story).isGreaterThanOrEqualTo(0.7 * run.limit);
  }

  /**
   * The same edge as the rate probes past its clean rate: the limit falls to just under or just
   * over 70% of it (at most 71%: over about 72% the limit is less than a fifth under the rate held,
   * 90% of the clean rate, which is the documented cost), the burst kept at a twentieth of a
   * second. Under 70% the cut measures the limit under 70% of the clean rate and forgets it; over
   * it, the refusals of the rate at the clean rate are past a fifth (a limit's share) and forget it
   * too. Either way the next probe past the new limit is judged against the noise and cut after a
   * few refusals, not a fifth of its requests: from a second after the fall, no half second is
   * refused past 5%.
   */
  @ParameterizedTest(name = "limit at {0} of the clean rate, answers in 1-{1} ms, seed {2}")
  @CsvSource({
    "0.60, 3, 1",
    "0.66, 3, 2",
    "0.69, 3, 3",
    "0.695, 1, 4",
    "0.705, 1, 5",
    "0.71, 3, 6",
    "0.69, 20, 9",
    "0.71, 20, 10",
    "0.69, 1, 11",
    "0.71, 1, 12",
  })
  void aLimitThatFallsDuringAProbeToJustOverOrJustUnderSeventyPercentIsCutAfterAFewRefusals(
      double fraction, int slowest, long seed) {
    CleanRateReviewHarness run = new CleanRateReviewHarness(seed, 0);
    run.setLimit(2_000, 0.05);
    run.maxLatencyMs = slowest;
    run.serve(Duration.ofSeconds(10));
    Instance first = run.first();
    assertThat(reach(run, "cleanProbe")).isTrue();
    double clean = first.clean();
    long from = run.local();
    run.limit = clean * fraction;

    List<int[]> halves = run.serve(Duration.ofSeconds(12), Duration.ofMillis(500));

    assertThat(first.broken).isNull();
    assertThat(halves.subList(2, halves.size()))
        .as(
            "clean %.0f, limit %.0f; per half second %s; %s",
            clean, run.limit, perSecond(halves), first.story(from))
        .allSatisfy(
            half -> assertThat((double) half[1]).isLessThanOrEqualTo(0.05 * (half[0] + half[1])));
  }

  /**
   * A limit that falls to a quarter or a third while the rate holds, refused with Retry-After 5 and
   * answered in 20 or 30 ms (so that its refusals pause the origin, as in ThrottleTest): the pause
   * takes the cut to what the service answered since the measured cut, under 70% of the clean rate,
   * and forgets it ("nor is it [known clean] once a cut or a pause measures the limit under 70% of
   * it"): after a pause that came twenty answers or more after the cut (one before leaves the cut
   * to the smoothed windows), the clean rate is no more than the new limit; past the pause and two
   * seconds under 5% is refused either way.
   */
  @ParameterizedTest(name = "limit x{0}, answers in {1} ms, seed {2}")
  @CsvSource({
    "0.25, 20, 1",
    "0.25, 20, 2",
    "0.25, 30, 3",
    "0.33, 20, 3",
    "0.33, 20, 4",
    "0.3, 20, 5",
    "0.2, 30, 6",
    "0.15, 20, 7",
  })
  void aPauseThatMeasuresTheLimitUnderSeventyPercentForgetsTheCleanRate(
      double factor, int latency, long seed) {
    CleanRateReviewHarness run = new CleanRateReviewHarness(seed, 0);
    run.setLimit(2_000, 0.05);
    run.minLatencyMs = latency;
    run.maxLatencyMs = latency;
    run.limitRetryAfter = "5";
    run.serve(Duration.ofSeconds(10));
    Instance first = run.first();
    assertThat(run.serveUntil(() -> first.clean() > 0 && first.isHolding(), Duration.ofSeconds(20)))
        .isTrue();
    double clean = first.clean();
    long from = run.local();
    run.limit = 2_000 * factor;
    assumeTrue(
        run.serveUntil(() -> first.pausesSince(from) > 0, Duration.ofSeconds(3)),
        () -> "no pause: " + first.story(from));
    double cleanAfterPause = first.clean();
    long pausedAt = first.pauseTimes.get(first.pauseTimes.size() - 1);
    long cutAt = first.cutTimes.get(first.cutTimes.size() - 1);
    // Twenty answers or more came between the cut and the pause: the pause measured the limit.
    boolean measured = run.limit * (pausedAt - cutAt) / 1e9 >= 20;

    List<int[]> seconds = run.serve(Duration.ofSeconds(25));

    int settled = settledSecond(first, from, "5");
    String story =
        String.format(
            "clean %.0f, %.0f after the pause, limit %.0f; from second %d; %s",
            clean, cleanAfterPause, run.limit, settled, first.story(from));
    assertThat(first.broken).as(story).isNull();
    if (measured) {
      assertThat(cleanAfterPause).as(story).isLessThanOrEqualTo(run.limit);
    }
    assertThat(refusedShare(seconds, settled, 25)).as(story).isLessThan(0.05);
  }

  /**
   * "The climb takes a second whatever the rate, starts when the cut's Retry-After pause ends":
   * however soon after the cut the pause comes (before twenty answers, a few milliseconds on), the
   * rate does not climb, hold and probe while nothing is sent, and when the pause ends it is not
   * probing, nor over the rate it was cut from; its first second refuses under a fifth.
   */
  @ParameterizedTest(name = "limit x{0}, answers in {1} ms, seed {2}")
  @CsvSource({
    "0.33, 20, 3",
    "0.25, 20, 1",
    "0.25, 20, 2",
    "0.3, 20, 5",
    "0.33, 20, 4",
    "0.25, 10, 8",
    "0.33, 10, 9",
    "0.4, 20, 10",
  })
  void aPauseThatComesJustAfterACutStartsTheClimbWhenItEnds(double factor, int latency, long seed) {
    CleanRateReviewHarness run = new CleanRateReviewHarness(seed, 0);
    run.setLimit(2_000, 0.05);
    run.minLatencyMs = latency;
    run.maxLatencyMs = latency;
    run.limitRetryAfter = "5";
    run.serve(Duration.ofSeconds(10));
    Instance first = run.first();
    assertThat(run.serveUntil(() -> first.clean() > 0 && first.isHolding(), Duration.ofSeconds(20)))
        .isTrue();
    long from = run.local();
    run.limit = 2_000 * factor;
    assumeTrue(
        run.serveUntil(() -> first.pausesSince(from) > 0, Duration.ofSeconds(3)),
        () -> "no pause: " + first.story(from));
    long pausedAt = first.pauseTimes.get(first.pauseTimes.size() - 1);
    double cutTo = first.throttle.rate(RatePromisesReviewTest.SET);
    run.serveUntil(() -> run.local() >= pausedAt + 5 * SECOND, Duration.ofSeconds(6));
    double atEnd = first.throttle.rate(RatePromisesReviewTest.SET);
    boolean probing = first.isProbing();
    List<int[]> after = run.serve(Duration.ofSeconds(1));

    String story =
        String.format(
            "paused at %d ms, rate %.0f then, %.0f at the pause's end (probing %s), first second"
                + " %s; %s",
            pausedAt / MS, cutTo, atEnd, probing, perSecond(after), first.story(from));
    assertThat(probing).as(story).isFalse();
    assertThat(atEnd).as(story).isLessThanOrEqualTo(first.lastMaxRate() + 1);
    assertThat(refusedShare(after, 0, 1)).as(story).isLessThan(0.2);
  }

  // --- A drop that is undone

  /**
   * The limit falls while the rate probes (or holds) and the rate follows it; then it comes back.
   * The clean rate was forgotten, not the ability to climb: within a few probe cycles (eight
   * seconds) the rate finds the raised limit again, answering 70% of it or more each second after,
   * and is a number of at least one, never infinite, all along.
   */
  @ParameterizedTest(name = "{0}, limit x{1} for {2} s, answers in 1-{3} ms, Retry-After {4}")
  @CsvSource({
    "cleanProbe, 0.25, 6, 1, 1", "cleanProbe, 0.25, 1, 20, 5", "cleanProbe, 0.5, 3, 50, 0",
    "cleanProbe, 0.1, 10, 20, 1", "hold, 0.25, 6, 1, 5", "hold, 0.5, 1, 300, 1",
    "hold, 0.1, 3, 20, 0", "cleanProbe, 0.68, 6, 3, 1",
  })
  void aLimitThatFallsAndComesBackIsFoundAgainWithinAFewProbeCycles(
      String moment, double factor, int downSeconds, int slowest, String retryAfter) {
    CleanRateReviewHarness run = found(103, 1_000, 1, slowest, retryAfter, moment);
    long from = run.local();
    run.limit = 1_000 * factor;
    run.serve(Duration.ofSeconds(downSeconds));
    run.limit = 1_000;

    List<int[]> seconds = run.serve(Duration.ofSeconds(8 + 2 * Integer.parseInt(retryAfter)));
    List<int[]> after = run.serve(Duration.ofSeconds(8));

    String story = perSecond(after) + "; " + run.first().story(from);
    assertThat(run.first().broken).as(story).isNull();
    assertThat(seconds).isNotEmpty();
    assertThat(after).as(story).allSatisfy(s -> assertThat(s[0]).isGreaterThanOrEqualTo(700));
    assertThat(refusedShare(after, 0, 8)).as(story).isLessThan(0.05);
  }

  // --- Noise that starts right after the drop

  /**
   * The limit falls while the rate probes past its clean rate, and a steady share of noise starts
   * with it. The drop's cut forgets the clean rate; the noise cuts the rate once at the next probe
   * and is then measured: past the drop's pause and two seconds the rate never goes under half the
   * new limit (of what it leaves answered: 49% of it, less the noise).
   */
  @ParameterizedTest(name = "limit x{0}, noise {1}, Retry-After {2}, answers in 1-{3} ms")
  @CsvSource({
    "0.5, 0.02, 0, 1",
    "0.5, 0.05, 1, 20",
    "0.5, 0.05, 5, 100",
    "0.3, 0.05, 1, 300",
    "0.65, 0.05, 0, 1",
    "0.65, 0.04, 5, 20",
    "0.75, 0.05, 1, 20",
  })
  void noiseStartingRightAfterADropNeverTakesTheRateUnderHalfTheNewLimit(
      double factor, double share, String retryAfter, int slowest) {
    CleanRateReviewHarness run = found(107, 2_000, 1, slowest, retryAfter, "cleanProbe");
    long from = run.local();
    run.limit = 2_000 * factor;
    run.noise = share;
    Instance first = run.first();
    run.serve(Duration.ofSeconds(2 + 2 * Integer.parseInt(retryAfter)));
    first.lowestRate = Double.POSITIVE_INFINITY;
    long watched = run.local();

    run.serve(Duration.ofSeconds(30));

    assertThat(first.broken).isNull();
    assertThat(first.lowestRate)
        .as("lowest from %d ms: %s", watched / MS, first.story(from))
        .isGreaterThanOrEqualTo(0.49 * run.limit * (1 - share));
  }

  @org.junit.jupiter.api.Disabled(
      "Open (issue 30): the drop to 600/s while probing at 1,361/s, with 3% noise from then on and"
          + " answers in 1-50 ms, is cut four times in 0.7 s to a hold of 303/s, and the noise cuts"
          + " its first probe to 223/s (the floor asked is 285)")
  @ParameterizedTest(name = "limit x{0}, noise {1}, Retry-After {2}, answers in 1-{3} ms")
  @CsvSource({"0.3, 0.03, 0, 50"})
  void noiseStartingRightAfterADropNeverTakesTheRateUnderHalfTheNewLimitInThisRunToo(
      double factor, double share, String retryAfter, int slowest) {
    noiseStartingRightAfterADropNeverTakesTheRateUnderHalfTheNewLimit(
        factor, share, retryAfter, slowest);
  }

  /**
   * The control of the test above: the same service (2,000 a second times the same fraction, the
   * same noise, Retry-After and answers), found from the start with no drop; the noise starts as
   * the rate probes past its clean rate. The rate never goes under half the limit (49% of it, less
   * the noise), past the same two seconds and pauses.
   */
  @ParameterizedTest(name = "limit {0}/s, noise {1}, Retry-After {2}, answers in 1-{3} ms")
  @CsvSource({
    "1000, 0.02, 0, 1", "1000, 0.05, 1, 20", "1000, 0.05, 5, 100", "600, 0.03, 0, 50",
    "600, 0.05, 1, 300", "1300, 0.05, 0, 1", "1300, 0.04, 5, 20", "1500, 0.05, 1, 20",
  })
  void noiseStartingAtAProbeOfTheSameLimitWithoutADropNeverTakesTheRateUnderHalfOfIt(
      double limit, double share, String retryAfter, int slowest) {
    CleanRateReviewHarness run = found(107, limit, 1, slowest, retryAfter, "cleanProbe");
    long from = run.local();
    run.noise = share;
    Instance first = run.first();
    run.serve(Duration.ofSeconds(2 + 2 * Integer.parseInt(retryAfter)));
    first.lowestRate = Double.POSITIVE_INFINITY;
    long watched = run.local();

    run.serve(Duration.ofSeconds(30));

    assertThat(first.broken).isNull();
    assertThat(first.lowestRate)
        .as("lowest from %d ms: %s", watched / MS, first.story(from))
        .isGreaterThanOrEqualTo(0.49 * run.limit * (1 - share));
  }

  // --- A pause before twenty answers

  /**
   * The limit falls fourfold while the rate probes past its clean rate; its answers take 50 to 100
   * ms, so the refusals that pause the origin (Retry-After 5) come before twenty answers came after
   * the cut, and the pause leaves the cut to the smoothed windows. However the cut is taken, past
   * the pause and two seconds, under 5% refused: the clean rate, far over the new limit, must not
   * wave its refusals through as noise.
   */
  @ParameterizedTest(name = "answers in {0}-{1} ms, Retry-After {2}, seed {3}")
  @CsvSource({
    "50, 50, 5, 1",
    "50, 50, 5, 2",
    "100, 100, 5, 3",
    "100, 100, 1, 4",
    "30, 60, 5, 5",
    "80, 120, 5, 6",
  })
  void aPauseBeforeTwentyAnswersStillLeavesTheDroppedLimitFollowed(
      int fastest, int slowest, String retryAfter, long seed) {
    CleanRateReviewHarness run = found(seed, 2_000, fastest, slowest, retryAfter, "cleanProbe");
    long from = run.local();
    run.limit = 500;

    List<int[]> seconds = run.serve(Duration.ofSeconds(30));

    assertFollowedPastThePauses(run, from, retryAfter, seconds);
  }

  // --- Three instances sharing

  /**
   * Three instances share a limit of 3,000 a second through the store; it falls while the first
   * probes (or holds). Past every instance's pause and two seconds, under 5% of the fleet's
   * requests are refused.
   */
  @ParameterizedTest(name = "{0}, limit x{1}, answers in 1-{2} ms, Retry-After {3}")
  @CsvSource({
    "probe, 0.25, 20, 1",
    "probe, 0.5, 1, 5",
    "probe, 0.6, 50, 0",
    "hold, 0.25, 1, 5",
    "hold, 0.6, 20, 1",
    "climb, 0.4, 20, 1",
  })
  void threeInstancesSharingALimitThatFallsDuringAProbeFollowIt(
      String moment, double factor, int slowest, String retryAfter) {
    CleanRateReviewHarness run = new CleanRateReviewHarness(109, 0, 3, true);
    run.setLimit(3_000, 0.05);
    run.maxLatencyMs = slowest;
    run.limitRetryAfter = retryAfter;
    run.serve(Duration.ofSeconds(15));
    assertThat(reach(run, moment)).isTrue();
    long from = run.local();
    run.limit = 3_000 * factor;

    List<int[]> seconds = run.serve(Duration.ofSeconds(25));

    assertFollowedPastThePauses(run, from, retryAfter, seconds);
  }

  // --- Tickers near Long.MAX_VALUE

  /**
   * The drop during a probe on a ticker 25 s short of wrapping (it wraps during the run) is
   * answered, cut and paused as on a ticker from 0, and follows the limit the same.
   */
  @ParameterizedTest(name = "origin {0}")
  @ValueSource(longs = {WRAPS, Long.MAX_VALUE - 14 * SECOND, Long.MAX_VALUE - 1, Long.MIN_VALUE})
  void aDropDuringAProbeOnATickerThatWrapsIsFollowedAsOnOneFromZero(long origin) {
    CleanRateReviewHarness reference = dropDuringProbe(0);
    CleanRateReviewHarness shifted = dropDuringProbe(origin);

    Instance expected = reference.first();
    Instance actual = shifted.first();
    assertThat(actual.broken).isNull();
    assertThat(actual.cutTimes).isEqualTo(expected.cutTimes);
    assertThat(actual.pauseTimes).isEqualTo(expected.pauseTimes);
    assertThat(perSecond(actual.seconds)).isEqualTo(perSecond(expected.seconds));
    assertThat(actual.tenths).isEqualTo(expected.tenths);
  }

  static CleanRateReviewHarness dropDuringProbe(long origin) {
    CleanRateReviewHarness run = new CleanRateReviewHarness(113, origin);
    run.setLimit(2_000, 0.05);
    run.maxLatencyMs = 20;
    run.limitRetryAfter = "1";
    run.serve(Duration.ofSeconds(12));
    reach(run, "cleanProbe");
    run.limit = 500;
    run.serve(Duration.ofSeconds(20));
    return run;
  }

  // --- Random sequences

  record Sequence(
      int limit,
      double factor,
      String moment,
      double burstSeconds,
      int slowest,
      String retryAfter,
      double noise,
      boolean noiseBefore,
      int instances,
      long seed) {}

  /**
   * A limit found (200 to 3,000 a second, a burst of 0.01 to 0.2 s of it), then dropped to a tenth
   * to eight tenths of it at a moment of the climb, the hold or the probe; noise of up to 5% (its
   * own Retry-After) from before the drop or from it on; one instance, or three sharing. Past the
   * drop's pause and two seconds, no more is refused than 5% beyond the noise; the rate is a
   * number, never under one, never infinite once learned.
   */
  @Disabled(
      "Open (issue 30): a limit of 200/s dropped to 20/s with a burst of two requests and answers in"
          + " 2 ms refuses 16.8% past its second 2: each probe's cut, from windows that count the"
          + " burst, holds over the limit (the low limits of retries-and-rate-limits.md); all the"
          + " failing tries are of one instance at a new limit of 20 to 154/s")
  @Property(tries = 200, seed = "20261128", shrinking = ShrinkingMode.OFF)
  void aDroppedLimitIsFollowedWithUnderFivePercentRefusedBeyondTheNoise(
      @ForAll("sequences") Sequence s) {
    CleanRateReviewHarness run =
        new CleanRateReviewHarness(s.seed(), 0, s.instances(), s.instances() > 1);
    run.setLimit(s.limit(), s.burstSeconds());
    run.maxLatencyMs = s.slowest();
    run.limitRetryAfter = s.retryAfter();
    run.noiseRetryAfter = s.retryAfter();
    if (s.noiseBefore()) {
      run.noise = s.noise();
    }
    run.serve(Duration.ofSeconds(15));
    reach(run, s.moment());
    long from = run.local();
    run.limit = s.limit() * s.factor();
    run.noise = s.noise();

    List<int[]> seconds = run.serve(Duration.ofSeconds(25));

    String story = s + ": " + stories(run, from);
    run.instances.forEach(instance -> assertThat(instance.broken).as(story).isNull());
    int settled = settled(run, from, s.retryAfter());
    assertThat(refusedShare(seconds, settled, 25))
        .as("from second %d: %s", settled, story)
        .isLessThan(0.05 + s.noise());
  }

  @Provide
  Arbitrary<Sequence> sequences() {
    Arbitrary<Tuple.Tuple5<Integer, Double, String, Double, Integer>> service =
        Combinators.combine(
                Arbitraries.integers().between(200, 3_000),
                Arbitraries.doubles().between(0.1, 0.8).ofScale(2),
                Arbitraries.of("climb", "hold", "probe"),
                Arbitraries.doubles().between(0.01, 0.2).ofScale(2),
                Arbitraries.integers().between(1, 300))
            .as(Tuple::of);
    return Combinators.combine(
            service,
            Arbitraries.of("0", "1", "5"),
            Arbitraries.of(0.0, 0.0, 0.01, 0.03, 0.05),
            Arbitraries.of(true, false),
            Arbitraries.of(1, 3),
            Arbitraries.longs())
        .as(
            (t, ra, noise, before, count, seed) ->
                new Sequence(
                    t.get1(), t.get2(), t.get3(), t.get4(), t.get5(), ra, noise, before, count,
                    seed));
  }
}
