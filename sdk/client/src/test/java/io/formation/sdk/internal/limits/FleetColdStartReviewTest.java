package io.formation.sdk.internal.limits;

import static io.formation.sdk.internal.limits.ThrottleTest.SET;
import static io.formation.sdk.internal.limits.ThrottleTest.answer;
import static io.formation.sdk.internal.limits.ThrottleTest.create;
import static io.formation.sdk.internal.limits.ThrottleTest.go;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.formation.sdk.TestFailures;
import io.formation.sdk.internal.Port;
import io.formation.sdk.internal.time.Time;
import java.io.IOException;
import java.lang.reflect.Field;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.function.LongSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The fleet's rules for instances that start together and find the limit once, at their edges, on a
 * manual clock.
 *
 * <ol>
 *   <li>a cut told by the fleet less than 1 s after this instance's own is the same excess, found
 *       later: not followed; a fresh one after that is;
 *   <li>a rate learned before any news of the fleet becomes, at the first news of several live
 *       instances and their answers, an even share of those answers;
 *   <li>a cut's even share counts this instance's own answers as they are now where they grew since
 *       it told them.
 * </ol>
 *
 * <p>And the promises of "Several instances on one token" (docs/retries-and-rate-limits.md) they
 * touch: a cut is everyone's, a bad day (the store unreachable) is followed alone, a budget is
 * split, the rate never goes below one request a second.
 */
class FleetColdStartReviewTest {
  static final long MS = 1_000_000L;

  final ThrottleTest harness = new ThrottleTest();

  /** The throttles' ticker: the harness's, unless a test gives them another origin. */
  LongSupplier clock = harness.time::nanoTime;

  // --- rule 1: a cut elsewhere within the climb from this instance's own

  @Test
  void aRealSecondDropWithinTheClimbIsStillFollowedThroughTheInstancesOwnRefusals() {
    ColdFleet fleet = new ColdFleet(2, 1_000);
    Throttle instance = shared(fleet);
    sendAndAnswerAt(instance, 500, Duration.ofSeconds(1));
    refuse(instance);
    long ownCut = rateOf(instance).lastCut();
    harness.time.advance(Duration.ofMillis(10));
    trickle(instance, 100, Duration.ofMillis(300));

    // Another instance finds the same excess later: not followed.
    fleet.cutAt = harness.time.nanoTime();
    trickle(instance, 100, Throttle.SHARE_EVERY);
    assertThat(rateOf(instance).lastCut()).as("the same excess, found later").isEqualTo(ownCut);

    // The limit really drops again, 400 ms into the climb: the fleet is answered 400 a second, and
    // this instance's own calls, sent well past its cut, come back refused.
    fleet.answered = 400;
    trickle(instance, 100, Throttle.SHARE_EVERY);
    double before = instance.rate(SET);
    refuse(instance);

    assertThat(rateOf(instance).lastCut()).as("its own refusals cut again").isGreaterThan(ownCut);
    assertThat(instance.rate(SET)).isLessThan(before).isCloseTo(0.7 * 400 / 2, within(15.0));
  }

  /**
   * The doc: "every other instance cuts at its next exchange"; the fleet keeps one cut per window.
   * Rule 1 spares an instance the same excess found later than its own cut; an instance that only
   * followed a cut found none.
   */
  @Test
  void aFreshCutTheFleetFindsAfterACutThisInstanceOnlyFollowedIsFollowed() {
    ColdFleet fleet = new ColdFleet(2, 1_000);
    Throttle instance = shared(fleet);
    sendAndAnswerAt(instance, 500, Duration.ofSeconds(1));

    // Another instance's refusals cut; this one, never refused, follows at its next exchange.
    fleet.cutAt = harness.time.nanoTime();
    trickle(instance, 100, Throttle.SHARE_EVERY);
    long followed = rateOf(instance).lastCut();
    assertThat(rateOf(instance).isLearned()).isTrue();
    assertThat(instance.rate(SET)).isCloseTo(0.7 * 500, within(40.0));
    trickle(instance, 100, Duration.ofMillis(300));

    // 400 ms later the limit drops again: the other instance's calls, sent 300 ms after its cut,
    // are refused, it cuts again, and the fleet (a new window) keeps that cut.
    fleet.answered = 500;
    fleet.cutAt = harness.time.nanoTime();
    trickle(instance, 100, Throttle.SHARE_EVERY);

    assertThat(rateOf(instance).lastCut())
        .as("a new cut of the fleet, 400 ms after the one this instance followed, followed")
        .isGreaterThan(followed);
    assertThat(instance.rate(SET)).isCloseTo(0.7 * 500 / 2, within(30.0));
  }

  @Test
  void theClimbIsASecondFromTheOwnCutNotBeforeItNorPastIt() {
    AdaptiveRate rate = new AdaptiveRate(0, 0, 0);
    rate.fleet(2, 1_000, 500);
    long now = 0;
    for (; now < 1_000 * MS; now += 2 * MS) {
      rate.sent(now);
      rate.answered(now, now);
    }
    for (int i = 0; i < 30; i++) {
      rate.refused(now, now);
    }
    long own = rate.lastCut();
    assertThat(rate.isLearned()).isTrue();
    assertThat(own).isEqualTo(now);

    assertThat(rate.cutWithFleet(own - MS, own + 50 * MS)).as("just before its own").isFalse();
    assertThat(rate.cutWithFleet(own + 999 * MS, own + 1_000 * MS)).as("999 ms after").isFalse();
    assertThat(rate.lastCut()).isEqualTo(own);
    assertThat(rate.cutWithFleet(own + 1_000 * MS, own + 1_050 * MS)).as("1 s after").isTrue();
    assertThat(rate.lastCut()).isEqualTo(own + 1_050 * MS);
    assertThat(rate.rate(own + 1_050 * MS)).isCloseTo(0.7 * 1_000 / 2, within(1.0));
  }

  /**
   * A store whose clock runs ahead tells a negative age. The doc: the fleet keeps one cut per
   * window; one cut told again and again is one cut. (FleetPromisesReviewTest's test of a cut 3 s
   * ahead reads the rate just after each cut, which an even share of a steady fleet puts back at
   * the same 350 each time: it counts no cuts, so it passes.)
   */
  @ParameterizedTest
  @ValueSource(longs = {300, 1_500, 3_000, 30_000})
  void aCutDatedInTheFutureIsFollowedOnceAtMost(long aheadMillis) {
    ColdFleet fleet = new ColdFleet(2, 0); // answers unknown: each cut takes 30% off
    Throttle instance = shared(fleet);
    sendAndAnswerAt(instance, 500, Duration.ofSeconds(1));
    fleet.cutAt = harness.time.nanoTime() + aheadMillis * MS;

    Set<Long> cuts = new LinkedHashSet<>();
    for (int step = 0; step < 30; step++) {
      trickle(instance, 100, Throttle.SHARE_EVERY);
      if (rateOf(instance).isLearned()) {
        cuts.add(rateOf(instance).lastCut());
      }
    }
    assertThat(cuts).as("cuts for one cut of the fleet, dated %d ms ahead", aheadMillis).hasSize(1);
    assertThat(instance.rate(SET)).isGreaterThanOrEqualTo(0.7 * 100 - 1);
  }

  @ParameterizedTest
  @ValueSource(longs = {-61_000, 1_000, 59_000, 61_000, 86_400_000})
  void aCutFarInThePastOrBeyondATickersDifferenceIsNotFollowedByAClimbingInstance(long agoMillis) {
    ColdFleet fleet = new ColdFleet(2, 1_000);
    Throttle instance = shared(fleet);
    sendAndAnswerAt(instance, 500, Duration.ofSeconds(1));
    refuse(instance);
    long own = rateOf(instance).lastCut();
    harness.time.advance(Duration.ofMillis(10));
    trickle(instance, 100, Duration.ofMillis(200));
    // Negative: ahead by more than a minute, no ticker's difference, stale all the same.
    fleet.cutAt = harness.time.nanoTime() - agoMillis * MS;
    trickle(instance, 100, Duration.ofMillis(500));

    assertThat(rateOf(instance).lastCut()).isEqualTo(own);
    assertThat(instance.rate(SET)).isFinite().isGreaterThan(0.7 * 500 - 40);
  }

  // --- rule 2: a rate learned before any news of the fleet

  @Test
  void aFirstNewsOfOneLiveInstanceKeepsTheRateLearnedAlone() {
    ColdFleet fleet = new ColdFleet(1, 1_500);
    fleet.down = true;
    Throttle instance = shared(fleet);
    sendAndAnswerAt(instance, 600, Duration.ofSeconds(1));
    refuse(instance);

    fleet.down = false;
    harness.time.advance(Duration.ofMillis(10));
    trickle(instance, 100, Duration.ofMillis(1_400)); // climbed back, holding
    assertThat(instance.rate(SET)).isCloseTo(0.9 * 600, within(5.0));
  }

  /**
   * Instances that start together find the limit once, from an even share of what the fleet is
   * answered. Started together, the first to exchange is told only itself live (the others' first
   * exchanges come a few ms later); it then meets the limit alone, before its next exchange counts
   * the others. That news of others, not the first news, makes its rate an even share.
   */
  @Test
  void aFirstNewsThatCountedOnlyThisInstanceAtAColdStartStillLeadsToAnEvenShare() {
    ColdFleet fleet = new ColdFleet(1, 600);
    Throttle instance = shared(fleet);
    // Its first exchange, at 100 ms; past a climb's length of sending, its cut is measured.
    sendAndAnswerAt(instance, 600, Duration.ofMillis(1_050));
    refuse(instance);

    fleet.live = 3;
    fleet.answered = 1_500;
    harness.time.advance(Duration.ofMillis(10));
    trickle(instance, 100, Duration.ofMillis(1_400)); // climbed back, holding
    assertThat(instance.rate(SET)).isCloseTo(0.9 * 500, within(5.0));
  }

  /** "0 if unknown"; what a fleet tells wrong is unknown: the rate is divided by the live count. */
  @ParameterizedTest
  @ValueSource(
      doubles = {0, Double.NaN, -1_500, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY})
  void aFirstNewsWithoutAUsableAnsweredFigureDividesTheLearnedRate(double answered) {
    ColdFleet fleet = new ColdFleet(3, answered);
    fleet.down = true;
    Throttle instance = shared(fleet);
    sendAndAnswerAt(instance, 600, Duration.ofSeconds(1));
    refuse(instance);

    fleet.down = false;
    harness.time.advance(Duration.ofMillis(10));
    trickle(instance, 50, Duration.ofMillis(1_400));
    assertThat(instance.rate(SET)).isNotNaN().isFinite().isCloseTo(0.9 * 600 / 3, within(5.0));
  }

  @Test
  void aFirstNewsOfAlmostNoAnswersLeavesARateOfAtLeastOneAndCallsGo() {
    ColdFleet fleet = new ColdFleet(3, 0.5);
    fleet.down = true;
    Throttle instance = shared(fleet);
    sendAndAnswerAt(instance, 600, Duration.ofSeconds(1));
    refuse(instance);

    fleet.down = false;
    harness.time.advance(Duration.ofMillis(10));
    trickle(instance, 1, Duration.ofSeconds(3));
    assertThat(instance.rate(SET)).isNotNaN().isGreaterThanOrEqualTo(1);
    CompletableFuture<IOException> call = go(instance, create());
    harness.time.advance(Duration.ofMillis(1_100));
    assertThat(call).isCompleted();
  }

  @Test
  void aBudgetCapsTheEvenShareTheFirstNewsGives() {
    ColdFleet fleet = new ColdFleet(3, 1_500);
    fleet.down = true;
    Throttle instance = harness.throttle(300, 30);
    instance.shareWith(fleet, Runnable::run);
    sendAndAnswerAt(instance, 250, Duration.ofSeconds(1));
    refuse(instance);
    assertThat(instance.rate(SET)).isCloseTo(0.7 * 250, within(20.0));

    fleet.down = false;
    for (int step = 0; step < 30; step++) {
      trickle(instance, 20, Throttle.SHARE_EVERY);
      assertThat(instance.rate(SET)).as("step %d", step).isLessThanOrEqualTo(300.0 / 3);
    }
    assertThat(instance.rate(SET)).isEqualTo(100);
  }

  // --- rule 3 and a bad day: the even share's figures

  /**
   * The doc's bad day: "The client ... follows its own rate alone, with the last count of live
   * instances it was told". The limit drops while the store cannot be reached.
   */
  @Test
  void whileTheFleetIsUnreachableAnInstanceFollowsALowerLimitAlone() {
    ColdFleet fleet = new ColdFleet(2, 1_000);
    Throttle instance = shared(fleet);
    sendAndAnswerAt(instance, 500, Duration.ofSeconds(1));

    fleet.down = true;
    Service service = new Service(100, 10);
    Caller caller = new Caller(instance, 400);
    for (int ms = 0; ms < 6_000; ms++) {
      if (ms == 4_000) {
        service.answered = 0;
        service.refused = 0;
      }
      caller.step(service);
    }

    double refusedShare = service.refused / (double) (service.refused + service.answered);
    assertThat(instance.rate(SET)).as("a limit of 100 a second").isLessThan(200);
    assertThat(refusedShare).as("refused in the last 2 s").isLessThan(0.5);
  }

  @Test
  void aFleetBackFromBeingUnreachableHearsTheOwnCutAndFollowsOnlyAFreshCutPastItsClimb() {
    ColdFleet fleet = new ColdFleet(2, 1_000);
    Throttle instance = shared(fleet);
    sendAndAnswerAt(instance, 500, Duration.ofSeconds(1));

    fleet.down = true;
    sendAndAnswerAt(instance, 500, Duration.ofMillis(300));
    refuse(instance);
    long own = rateOf(instance).lastCut();
    assertThat(fleet.told).isEmpty();

    // Back 200 ms later: another instance cut 150 ms after this one, the same excess.
    harness.time.advance(Duration.ofMillis(10));
    trickle(instance, 100, Duration.ofMillis(140));
    fleet.down = false;
    fleet.cutAt = own + 150 * MS;
    trickle(instance, 100, Duration.ofMillis(200));
    assertThat(fleet.told).as("its own cut, told once back").containsExactly(own);
    assertThat(rateOf(instance).lastCut()).isEqualTo(own);

    // A fresh cut elsewhere after its climb is followed.
    trickle(instance, 100, Duration.ofMillis(900));
    fleet.cutAt = harness.time.nanoTime();
    trickle(instance, 100, Throttle.SHARE_EVERY);
    assertThat(rateOf(instance).lastCut()).isGreaterThan(own + 1_000 * MS);
    assertThat(instance.rate(SET)).isCloseTo(0.7 * 1_000 / 2, within(30.0));
  }

  // --- a long quiet spell: "never below one request a second", calls always get a turn

  /** The rate learned, no budget: a quiet spell of 20 minutes, no refusal. */
  @Test
  void aLearnedRateStaysFiniteThroughALongQuietSpell() {
    Throttle instance = learnedThenQuiet();
    assertThat(instance.rate(SET)).as("learned, then quiet for 20 minutes").isFinite();
  }

  /** The same, then the limit met again: the cut must leave a rate, and calls must go. */
  @Test
  void aCutAfterALongQuietSpellLeavesAFiniteRateAndCallsStillGo() {
    Throttle instance = learnedThenQuiet();
    sendAndAnswerAt(instance, 500, Duration.ofMillis(300));
    refuse(instance);

    double rate = instance.rate(SET);
    List<CompletableFuture<IOException>> calls = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      calls.add(go(instance, create()));
    }
    harness.time.advance(Duration.ofSeconds(5));
    assertThat(calls.stream().filter(CompletableFuture::isDone).count())
        .as("calls given a turn within 5 s of a cut that left a rate of %s", rate)
        .isEqualTo(5);
    assertThat(rate).as("the rate after the cut").isNotNaN().isFinite().isGreaterThanOrEqualTo(1);
  }

  /** A fleet that does not know its answers ("0 if unknown"), two live. */
  Throttle learnedThenQuiet() {
    ColdFleet fleet = new ColdFleet(2, 0);
    Throttle instance = shared(fleet);
    sendAndAnswerAt(instance, 500, Duration.ofSeconds(1));
    refuse(instance);
    harness.time.advance(Duration.ofMillis(10));
    trickle(instance, 100, Duration.ofMillis(1_500));
    assertThat(instance.rate(SET)).isFinite();
    harness.time.advance(Duration.ofMinutes(20));
    return instance;
  }

  // --- clocks: "Times cross the port as ages"

  @Test
  void aStepOfTheWallClockChangesNoAgeAndNoCut() {
    ColdFleet fleet = new ColdFleet(2, 1_000);
    Throttle instance = shared(fleet);
    sendAndAnswerAt(instance, 500, Duration.ofSeconds(1));
    refuse(instance);
    long own = rateOf(instance).lastCut();

    harness.time.stepWallClock(Duration.ofHours(-2));
    fleet.cutAt = own + 300 * MS;
    harness.time.advance(Duration.ofMillis(10));
    trickle(instance, 100, Duration.ofMillis(400));
    assertThat(rateOf(instance).lastCut()).isEqualTo(own);

    harness.time.stepWallClock(Duration.ofHours(5));
    trickle(instance, 100, Duration.ofMillis(800));
    fleet.cutAt = harness.time.nanoTime();
    trickle(instance, 100, Throttle.SHARE_EVERY);
    assertThat(rateOf(instance).lastCut()).isGreaterThan(own + 1_000 * MS);
  }

  /** System.nanoTime's origin is arbitrary: readings may be negative and may wrap. */
  @ParameterizedTest
  @ValueSource(longs = {-4_000_000_000_000_000_000L, Long.MAX_VALUE - 1_500_000_000L})
  void aTickerOfAnyOriginKeepsTheRulesOfTheFleet(long origin) {
    LongSupplier ticker = () -> harness.time.nanoTime() + origin;
    clock = ticker;
    Time time = new Time(harness.time, ticker::getAsLong, harness.sleeper, () -> 1.0);
    ColdFleet fleet = new ColdFleet(2, 1_000, ticker);
    Throttle instance =
        new Throttle(
            time,
            new RetryPolicy(2, Duration.ofMinutes(1), Duration.ZERO, time),
            (Port) TestFailures.INSTANCE,
            0,
            0);
    instance.shareWith(fleet, Runnable::run);
    sendAndAnswerAt(instance, 500, Duration.ofSeconds(1));
    refuse(instance);
    long own = rateOf(instance).lastCut();
    assertThat(fleet.told).containsExactly(own);
    assertThat(instance.rate(SET)).isCloseTo(0.7 * 500, within(40.0));

    fleet.cutAt = own + 300 * MS; // the same excess, found later: across the wrap for one origin
    harness.time.advance(Duration.ofMillis(10));
    trickle(instance, 100, Duration.ofMillis(500));
    assertThat(rateOf(instance).lastCut()).isEqualTo(own);

    trickle(instance, 100, Duration.ofMillis(700));
    fleet.cutAt = ticker.getAsLong();
    trickle(instance, 100, Throttle.SHARE_EVERY);
    assertThat(rateOf(instance).lastCut() - own).isGreaterThan(1_000 * MS);
    assertThat(instance.rate(SET)).isCloseTo(0.7 * 1_000 / 2, within(30.0));
  }

  // --- many instances starting together

  /**
   * Four instances start together against one limit of 1,000 a second, each offering 600. The rule:
   * they find the limit once, from an even share; the doc: they end up even, and the fleet probes
   * and backs off as one client would (alone, every second after the first is answered at 70% of
   * the limit or more).
   */
  @Test
  void fourInstancesStartingTogetherFindTheLimitOnceAndShareItEvenly() {
    Service service = new Service(1_000, 100);
    SumFleet fleet = new SumFleet(4);
    List<Caller> callers = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      Throttle throttle = harness.throttle(0, 0);
      throttle.shareWith(fleet.view(i), Runnable::run);
      callers.add(new Caller(throttle, 600));
    }
    double lowestSum = Double.POSITIVE_INFINITY;
    int[] answeredBySecond = new int[8];
    int[] refusedBySecond = new int[8];
    for (int ms = 0; ms < 8_000; ms++) {
      int answered = service.answered;
      int refused = service.refused;
      for (Caller caller : callers) {
        caller.offer();
      }
      harness.time.advance(Duration.ofMillis(1));
      for (Caller caller : callers) {
        caller.serve(service);
      }
      answeredBySecond[ms / 1_000] += service.answered - answered;
      refusedBySecond[ms / 1_000] += service.refused - refused;
      if (ms >= 500 && callers.stream().allMatch(c -> rateOf(c.throttle).isLearned())) {
        double sum = callers.stream().mapToDouble(c -> c.throttle.rate(SET)).sum();
        lowestSum = Math.min(lowestSum, sum);
      }
    }
    double[] rates = callers.stream().mapToDouble(c -> c.throttle.rate(SET)).toArray();
    double max = java.util.Arrays.stream(rates).max().orElseThrow();
    double min = java.util.Arrays.stream(rates).min().orElseThrow();
    String story =
        String.format(
            "answered by second %s, refused by second %s, rates %s, lowest sum %.0f",
            java.util.Arrays.toString(answeredBySecond),
            java.util.Arrays.toString(refusedBySecond),
            java.util.Arrays.toString(rates),
            lowestSum);

    assertThat(lowestSum).as("cuts stacked: %s", story).isGreaterThanOrEqualTo(0.5 * 1_000);
    assertThat(max / min).as("even shares: %s", story).isLessThan(1.5);
    for (int second = 2; second < 8; second++) {
      assertThat(answeredBySecond[second])
          .as("second %d answered: %s", second, story)
          .isGreaterThanOrEqualTo(700);
    }
  }

  // --- helpers

  Throttle shared(Fleet fleet) {
    Throttle throttle = harness.throttle(0, 0);
    throttle.shareWith(fleet, Runnable::run);
    return throttle;
  }

  /** The lane's own rate, to read its last cut: the one origin these tests call. */
  static AdaptiveRate rateOf(Throttle throttle) {
    throttle.rate(SET);
    try {
      Field lanes = Throttle.class.getDeclaredField("lanes");
      lanes.setAccessible(true);
      Map<?, ?> byOrigin = (Map<?, ?>) lanes.get(throttle);
      assertThat(byOrigin).hasSize(1);
      return ((TurnQueue) byOrigin.values().iterator().next()).rate;
    } catch (ReflectiveOperationException e) {
      throw new AssertionError(e);
    }
  }

  /** Calls at that rate, each going at once and answered at once. */
  void sendAndAnswerAt(Throttle throttle, int perSecond, Duration during) {
    long gap = 1_000_000_000L / perSecond;
    for (long sent = 0; sent < during.toNanos(); sent += gap) {
      assertThat(go(throttle, create())).isCompleted();
      throttle.observe(create(), answer(200, null), clock.getAsLong());
      harness.time.advance(Duration.ofNanos(gap));
    }
  }

  /** A limit reached: the calls in flight come back refused together. */
  void refuse(Throttle throttle) {
    for (int i = 0; i < 30; i++) {
      throttle.observe(create(), answer(429, null), clock.getAsLong());
    }
  }

  /** Calls at that rate, each answered as soon as it gets its turn; none needs to go at once. */
  void trickle(Throttle throttle, int perSecond, Duration during) {
    long gap = 1_000_000_000L / perSecond;
    List<CompletableFuture<IOException>> waiting = new ArrayList<>();
    for (long sent = 0; sent < during.toNanos(); sent += gap) {
      waiting.add(go(throttle, create()));
      for (Iterator<CompletableFuture<IOException>> i = waiting.iterator(); i.hasNext(); ) {
        CompletableFuture<IOException> turn = i.next();
        if (turn.isDone()) {
          i.remove();
          if (!turn.isCompletedExceptionally()) {
            throttle.observe(create(), answer(200, null), clock.getAsLong());
          }
        }
      }
      harness.time.advance(Duration.ofNanos(gap));
    }
    waiting.forEach(turn -> turn.cancel(false));
  }

  /** The fleet's row for the one origin, as a store keeps it, on the test's clock. */
  final class ColdFleet implements Fleet {
    final LongSupplier clock;
    Long cutAt;
    int live;
    double answered;
    boolean down;
    final List<Long> told = new ArrayList<>();

    ColdFleet(int live, double answered) {
      this(live, answered, harness.time::nanoTime);
    }

    ColdFleet(int live, double answered, LongSupplier clock) {
      this.live = live;
      this.answered = answered;
      this.clock = clock;
    }

    @Override
    public Known exchange(String origin, Duration cutAgo, double answeredPerSecond) {
      if (down) {
        return null;
      }
      long now = clock.getAsLong();
      if (cutAgo != null) {
        long at = now - cutAgo.toNanos();
        told.add(at);
        if (cutAt == null || at - cutAt >= AdaptiveRate.MEASURE_WINDOW_NANOS) {
          cutAt = at;
        }
      }
      return new Known(cutAt == null ? null : Duration.ofNanos(now - cutAt), live, answered);
    }
  }

  /**
   * A store as DatabaseLimit keeps it: one cut per window, the instances that exchanged within 1.5
   * s live, and their answers summed.
   */
  final class SumFleet {
    Long cutAt;
    final double[] answered;
    final long[] seen;

    SumFleet(int instances) {
      answered = new double[instances];
      seen = new long[instances];
      java.util.Arrays.fill(seen, Long.MIN_VALUE);
    }

    Fleet view(int index) {
      return (origin, cutAgo, answeredPerSecond) -> {
        long now = harness.time.nanoTime();
        if (cutAgo != null) {
          long at = now - cutAgo.toNanos();
          if (cutAt == null || at - cutAt >= AdaptiveRate.MEASURE_WINDOW_NANOS) {
            cutAt = at;
          }
        }
        answered[index] = answeredPerSecond;
        seen[index] = now;
        int live = 0;
        double sum = 0;
        for (int i = 0; i < seen.length; i++) {
          if (seen[i] != Long.MIN_VALUE && now - seen[i] < 1_500 * MS) {
            live++;
            sum += answered[i];
          }
        }
        return new Fleet.Known(
            cutAt == null ? null : Duration.ofNanos(now - cutAt), Math.max(1, live), sum);
      };
    }
  }

  /** A service's limit: a token bucket, answering at once, refusing without Retry-After. */
  static final class Service {
    final double limit;
    final double burst;
    double tokens;
    long last = Long.MIN_VALUE;
    int answered;
    int refused;

    Service(double limit, double burst) {
      this.limit = limit;
      this.burst = burst;
      this.tokens = burst;
    }

    boolean take(long now) {
      if (last != Long.MIN_VALUE) {
        tokens = Math.min(burst, tokens + (now - last) * limit / 1e9);
      }
      last = now;
      if (tokens >= 1) {
        tokens--;
        answered++;
        return true;
      }
      refused++;
      return false;
    }
  }

  /** An instance's application: it offers calls at a rate, up to 200 waiting, each answered. */
  final class Caller {
    final Throttle throttle;
    final double perSecond;
    double debt;
    final List<CompletableFuture<IOException>> waiting = new ArrayList<>();

    Caller(Throttle throttle, double perSecond) {
      this.throttle = throttle;
      this.perSecond = perSecond;
    }

    void step(Service service) {
      offer();
      harness.time.advance(Duration.ofMillis(1));
      serve(service);
    }

    void offer() {
      debt += perSecond / 1_000;
      while (debt >= 1) {
        debt--;
        if (waiting.size() < 200) {
          waiting.add(go(throttle, create(Duration.ofSeconds(10))));
        }
      }
    }

    void serve(Service service) {
      long now = harness.time.nanoTime();
      for (Iterator<CompletableFuture<IOException>> i = waiting.iterator(); i.hasNext(); ) {
        CompletableFuture<IOException> turn = i.next();
        if (turn.isDone()) {
          i.remove();
          if (!turn.isCompletedExceptionally()) {
            boolean answered = service.take(now);
            throttle.observe(create(), answer(answered ? 200 : 429, null), now);
          }
        }
      }
    }
  }
}
