package io.formation.sdk.internal.limits;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.formation.sdk.TestFailures;
import io.formation.sdk.internal.Port;
import io.formation.sdk.internal.guards.Origins;
import io.formation.sdk.internal.time.TestSleepers;
import io.formation.sdk.internal.time.Time;
import io.formation.sdk.internal.transport.ApiRequest;
import io.formation.sdk.internal.transport.CallOptions;
import io.formation.testkit.FakeTime;
import java.io.IOException;
import java.lang.reflect.Field;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import okhttp3.HttpUrl;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Review of the three rules of "instances that start together know of one another" at their edges,
 * on a manual clock whose ticker may start anywhere (0, far negative, just short of {@code
 * Long.MAX_VALUE}, so that it wraps during the test).
 *
 * <ol>
 *   <li>a client joins its base URL's origin's fleet as it is built (one exchange, no cut, 0
 *       answers a second), then trades for each origin only while it sends there;
 *   <li>answers a second are told as they are lately: after a quiet spell longer than two windows,
 *       the spell's rate, not the one before it;
 *   <li>a cut within the first second of sending is a guess (climbs back to the whole rate cut from
 *       and probes on, unheld); one after a second or more of sending is held at 90% for a second.
 * </ol>
 */
class FleetJoinReviewTest {
  static final long MS = 1_000_000L;
  static final long SECOND = 1_000 * MS;
  static final HttpUrl HOME = HttpUrl.get("https://api.example.com/v1/");
  static final HttpUrl HOME_CALL = HttpUrl.get("https://api.example.com/v1/document_sets");
  static final HttpUrl OTHER = HttpUrl.get("https://files.example.com/v1/x");
  static final String HOME_ORIGIN = "https://api.example.com:443";
  static final String OTHER_ORIGIN = "https://files.example.com:443";

  /** Ticker origins: the harness's, far negative, and one that wraps two seconds in. */
  static final long WRAPS = Long.MAX_VALUE - 2 * SECOND;

  // --- rule 1: joined as it is built, then traded while in use

  @ParameterizedTest
  @ValueSource(longs = {0, -4_000_000_000_000_000_000L, WRAPS})
  void aThrottleJoinsItsHomeOriginOnceAsItStartsWithNoCutAndNoAnswersThenNeverAgainUnused(
      long origin) {
    Rig rig = new Rig(origin);
    Recorder fleet = new Recorder(rig::now);
    Throttle throttle = rig.throttle();
    throttle.shareWith(fleet, Runnable::run, HOME);

    assertThat(fleet.told).hasSize(1);
    Told join = fleet.told.get(0);
    assertThat(join.origin()).isEqualTo(HOME_ORIGIN);
    assertThat(join.cutAgo()).isNull();
    assertThat(join.answered()).isZero();

    rig.advance(Duration.ofMinutes(5));
    assertThat(fleet.told).as("a joined lane never used").hasSize(1);
  }

  @ParameterizedTest
  @ValueSource(longs = {0, WRAPS})
  void aJoinedLaneTradesAtEachTickOnceItSendsAndNotASecondAfterItsLastSend(long origin) {
    Rig rig = new Rig(origin);
    Recorder fleet = new Recorder(rig::now);
    Throttle throttle = rig.throttle();
    throttle.shareWith(fleet, Runnable::run, HOME);
    rig.advance(Duration.ofMillis(3_050));
    assertThat(fleet.told).hasSize(1);

    rig.sendAndAnswer(throttle, HOME_CALL, 100, 500 * MS);
    long lastSend = rig.now() - 10 * MS;
    rig.advance(Duration.ofSeconds(3));

    List<Told> inUse = fleet.told.subList(1, fleet.told.size());
    // Ticks every 100 ms from the first send to a second past the last: about 14.
    assertThat(inUse).hasSizeGreaterThanOrEqualTo(13);
    assertThat(inUse)
        .allSatisfy(t -> assertThat(t.at() - lastSend).isLessThan(SECOND))
        .allSatisfy(t -> assertThat(t.origin()).isEqualTo(HOME_ORIGIN));
  }

  @Test
  void aBaseUrlWhoseCallsGoToAnotherOriginJoinsItsHomeOnceAndTradesForTheOtherWhileSending() {
    Rig rig = new Rig(0);
    Recorder fleet = new Recorder(rig::now);
    Throttle throttle = rig.throttle();
    throttle.shareWith(fleet, Runnable::run, HOME);

    rig.sendAndAnswer(throttle, OTHER, 100, 2 * SECOND);
    long lastSend = rig.now() - 10 * MS;
    rig.advance(Duration.ofSeconds(3));

    assertThat(fleet.of(HOME_ORIGIN)).as("the home, never called").hasSize(1);
    assertThat(fleet.of(OTHER_ORIGIN)).hasSizeGreaterThanOrEqualTo(25);
    assertThat(fleet.of(OTHER_ORIGIN))
        .allSatisfy(t -> assertThat(t.at() - lastSend).isLessThan(SECOND));
  }

  /**
   * A close while one lane's trade is under way (the store's call on the exchange thread) stops the
   * next lane's: no call of the store starts after close returned.
   */
  @Test
  void aCloseDuringOneLanesTradeStartsNoTradeForAnotherLane() {
    Rig rig = new Rig(0);
    Recorder fleet = new Recorder(rig::now);
    Throttle throttle = rig.throttle();
    throttle.shareWith(fleet, Runnable::run, HOME);
    rig.advance(Duration.ofMillis(50));
    for (int i = 0; i < 5; i++) { // both lanes in use
      rig.sendAndAnswer(throttle, HOME_CALL, 100, 10 * MS);
      rig.sendAndAnswer(throttle, OTHER, 100, 10 * MS);
    }
    int before = fleet.told.size();
    List<Told> afterClose = new ArrayList<>();
    boolean[] closed = {false};
    fleet.during =
        told -> {
          if (closed[0]) {
            afterClose.add(told);
          } else {
            closed[0] = true;
            throttle.close();
          }
        };

    rig.advance(Throttle.SHARE_EVERY);

    assertThat(fleet.told).hasSizeGreaterThan(before);
    assertThat(afterClose).as("trades started after close() returned").isEmpty();
  }

  /**
   * The join is queued on the exchange executor as sharing starts; a trade that runs after close
   * (taken by the exchange thread just before its shutdown) calls the fleet for no lane.
   */
  @Test
  void aTradeQueuedBeforeCloseThatRunsAfterItTellsTheFleetNothing() {
    Rig rig = new Rig(0);
    Recorder fleet = new Recorder(rig::now);
    List<Runnable> queued = new ArrayList<>();
    Throttle throttle = rig.throttle();
    throttle.shareWith(fleet, queued::add, HOME);

    throttle.close();
    queued.forEach(Runnable::run);

    assertThat(fleet.told).isEmpty();
  }

  /**
   * A client built long before its first call keeps the join's news, here ten live instances
   * answered 100 a second together, a minute old. Refused before its first trade since it began to
   * call, it cuts to an even share of that stale news (0.7 × (100 + its own 1,000) / 10); the trade
   * its cut calls for at once then tells it is alone, and its rate grows tenfold: the stale news
   * lasts no longer than that trade (unless the store is down just then).
   */
  @Test
  void aJoinsNewsAMinuteOldDoesNotLeaveTheFirstCutAtAShareOfStaleNews() {
    Rig rig = new Rig(0);
    Recorder fleet = new Recorder(rig::now);
    fleet.live = 10;
    fleet.answered = 100;
    Throttle throttle = rig.throttle();
    throttle.shareWith(fleet, Runnable::run, HOME);
    // The others stop; this one is built but not used for a minute.
    fleet.live = 1;
    fleet.answered = 0;
    rig.advance(Duration.ofMinutes(1));

    // Its first calls, refused before the next tick: alone, it would cut from its 1,000.
    rig.sendAndAnswer(throttle, HOME_CALL, 1_000, 90 * MS);
    assertThat(fleet.told).as("no trade since the join").hasSize(1);
    rig.refuse(throttle, HOME_CALL);

    assertThat(rateOf(throttle, HOME).isLearned()).isTrue();
    assertThat(fleet.told).as("the cut's own trade").hasSize(2);
    assertThat(throttle.rate(HOME)).isGreaterThan(0.7 * 1_000 / 2);
  }

  // --- rule 2: answers told as they are lately

  @ParameterizedTest
  @ValueSource(longs = {200, 250, 1_000, 60_000, 600_000})
  void answersToldAfterAQuietSpellOfTwoWindowsOrMoreAreAtMostTheSpells(long quietMillis) {
    for (long origin : new long[] {0, -4_000_000_000_000_000_000L, WRAPS}) {
      Meter answers = new Meter();
      long t = origin;
      for (int i = 0; i < 500; i++, t += 2 * MS) { // 500 a second for a second
        answers.count(t);
      }
      long last = t - 2 * MS;
      long now = last + quietMillis * MS;
      double lately = answers.lately(now);
      // What went into the open window (at most a window's worth) over the spell.
      double bound = 50.0 * SECOND / (now - last);
      assertThat(lately).as("origin %d", origin).isFinite().isNotNegative();
      assertThat(lately).as("origin %d", origin).isLessThanOrEqualTo(bound + 1e-9);
    }
  }

  @Test
  void answersToldWithoutAQuietSpellAreTheSmoothedRate() {
    Meter answers = new Meter();
    long t = WRAPS;
    for (int i = 0; i < 500; i++, t += 2 * MS) {
      answers.count(t);
    }
    assertThat(answers.lately(t - 2 * MS)).isCloseTo(500, within(10.0));
    assertThat(answers.lately(t + 50 * MS)).isCloseTo(500, within(10.0));
    assertThat(new Meter().lately(t)).isZero();
  }

  @Test
  void answersToldThroughAPauseInUseAreThePausesOnTheTicksThroughIt() {
    Rig rig = new Rig(WRAPS);
    Recorder fleet = new Recorder(rig::now);
    Throttle throttle = rig.throttle();
    throttle.shareWith(fleet, Runnable::run, HOME);
    rig.sendAndAnswer(throttle, HOME_CALL, 500, SECOND);
    long last = rig.now() - 2 * MS;
    int before = fleet.told.size();

    rig.advance(Duration.ofMillis(900));

    List<Told> quiet = fleet.told.subList(before, fleet.told.size());
    assertThat(quiet).isNotEmpty();
    for (Told t : quiet) {
      if (t.at() - last >= 200 * MS) {
        assertThat(t.answered()).isLessThanOrEqualTo(50.0 * SECOND / (t.at() - last) + 1e-9);
      }
    }
  }

  /**
   * The first answer after a quiet spell starts a new window: until it closes, the figure told is
   * the rate since the spell began, not the smoothed 500 a second from before the pause, which
   * would inflate the fleet's sum the others' even shares are cut from.
   */
  @Test
  void theFirstAnswerAfterAQuietSpellDoesNotBringBackTheRateFromBeforeIt() {
    Rig rig = new Rig(0);
    Recorder fleet = new Recorder(rig::now);
    Throttle throttle = rig.throttle();
    throttle.shareWith(fleet, Runnable::run, HOME);
    rig.sendAndAnswer(throttle, HOME_CALL, 500, SECOND);
    long spellFrom = rig.now() - 2 * MS;
    rig.advance(Duration.ofMillis(600)); // a pause: the lane still in use

    rig.sendAndAnswer(throttle, HOME_CALL, 1_000, MS); // one call resumes
    rig.advance(Throttle.SHARE_EVERY.minusMillis(1));

    Told last = fleet.told.get(fleet.told.size() - 1);
    assertThat(last.at()).isEqualTo(rig.now());
    // Everything since the open window before the spell, over the time since the spell began.
    double lately = (50.0 + 1) * SECOND / (last.at() - spellFrom);
    assertThat(last.answered()).isLessThanOrEqualTo(lately);
  }

  // --- rule 3: a cut in the first second of sending is a guess

  @ParameterizedTest
  @ValueSource(longs = {0, -4_000_000_000_000_000_000L, WRAPS, Long.MIN_VALUE + 1})
  void aCutJustUnderASecondOfSendingClimbsBackToTheWholeRateCutFromAndProbesOnUnheld(long origin) {
    Rig rig = new Rig(origin);
    Throttle throttle = shared(rig);
    rig.advance(Duration.ofMillis(30));
    rig.sendAndAnswer(throttle, HOME_CALL, 500, SECOND - 1);
    rig.refuse(throttle, HOME_CALL);

    assertGuess(rateOf(throttle, HOME));
  }

  @ParameterizedTest
  @ValueSource(longs = {0, -4_000_000_000_000_000_000L, WRAPS, Long.MIN_VALUE + 1})
  void aCutAtExactlyASecondOfSendingIsMeasuredAndHeldAtNinetyPercentForASecond(long origin) {
    Rig rig = new Rig(origin);
    Throttle throttle = shared(rig);
    rig.advance(Duration.ofMillis(30));
    rig.sendAndAnswer(throttle, HOME_CALL, 500, SECOND);
    rig.refuse(throttle, HOME_CALL);

    assertHeld(rateOf(throttle, HOME));
  }

  @Test
  void refusalsOfTheVeryFirstCallsBeforeAnyAnswerAreAGuess() {
    Rig rig = new Rig(WRAPS);
    Throttle throttle = shared(rig);
    for (int i = 0; i < 60; i++) { // 60 calls out in 60 ms, none back yet
      ApiRequest call = Rig.call(HOME_CALL);
      assertThat(ThrottleTest.go(throttle, call)).isCompleted();
      rig.advance(Duration.ofMillis(1));
    }
    rig.refuse(throttle, HOME_CALL);

    assertGuess(rateOf(throttle, HOME));
  }

  @Test
  void aCutOfTheFleetFollowedInTheFirstSecondOfSendingIsAGuessAndOneAfterIsHeld() {
    assertGuess(fleetCutFollowedAfterSending(400 * MS));
    assertHeld(fleetCutFollowedAfterSending(1_400 * MS));
  }

  /** A fresh instance sends for {@code nanos}, then follows a cut of the fleet: its rate. */
  AdaptiveRate fleetCutFollowedAfterSending(long nanos) {
    Rig rig = new Rig(0);
    Recorder fleet = new Recorder(rig::now);
    Throttle throttle = rig.throttle();
    throttle.shareWith(fleet, Runnable::run, HOME);
    rig.sendAndAnswer(throttle, HOME_CALL, 500, nanos);
    fleet.cutAt = rig.now();
    rig.sendAndAnswer(throttle, HOME_CALL, 100, Throttle.SHARE_EVERY.toNanos());
    AdaptiveRate rate = rateOf(throttle, HOME);
    assertThat(rate.isLearned()).as("followed").isTrue();
    return rate;
  }

  /**
   * The guess is a cold start's: an origin sent to for a second before was measured, and a lane
   * that went idle for a minute and ramps again holds its first cut as any measured one.
   */
  @Test
  void aLaneIdleForAMinuteThatRampsAgainHoldsItsFirstCutAsOneMeasured() {
    Rig rig = new Rig(0);
    Throttle throttle = shared(rig);
    rig.sendAndAnswer(throttle, HOME_CALL, 100, 2 * SECOND);
    rig.advance(Duration.ofMinutes(1));

    rig.sendAndAnswer(throttle, HOME_CALL, 1_000, 300 * MS);
    rig.refuse(throttle, HOME_CALL);

    assertHeld(rateOf(throttle, HOME));
  }

  /** Unheld: at the whole rate cut from a second after the cut, and probing past it after. */
  static void assertGuess(AdaptiveRate rate) {
    assertThat(rate.isLearned()).as("cut").isTrue();
    long cut = rate.lastCut();
    double from = rate.rate(cut) / AdaptiveRate.BETA;
    assertThat(rate.rate(cut + SECOND))
        .as("climbed back to the whole rate")
        .isCloseTo(from, within(from * 0.01));
    assertThat(rate.rate(cut + 1_500 * MS))
        .as("probing on, not held")
        .isGreaterThan(1.1 * rate.rate(cut + SECOND));
  }

  /** Held: at 90% of the rate cut from from a second after the cut, flat for a second. */
  static void assertHeld(AdaptiveRate rate) {
    assertThat(rate.isLearned()).as("cut").isTrue();
    long cut = rate.lastCut();
    double from = rate.rate(cut) / AdaptiveRate.BETA;
    double held = rate.rate(cut + 1_200 * MS);
    assertThat(held).as("held at 90%").isCloseTo(0.9 * from, within(from * 0.01));
    assertThat(rate.rate(cut + 1_900 * MS)).as("flat for a second").isCloseTo(held, within(1e-9));
  }

  Throttle shared(Rig rig) {
    Throttle throttle = rig.throttle();
    throttle.shareWith(new Recorder(rig::now), Runnable::run, HOME);
    return throttle;
  }

  /** The lane's own rate for the url's origin; the lane must exist. */
  static AdaptiveRate rateOf(Throttle throttle, HttpUrl url) {
    try {
      Field lanes = Throttle.class.getDeclaredField("lanes");
      lanes.setAccessible(true);
      Map<?, ?> byOrigin = (Map<?, ?>) lanes.get(throttle);
      Object lane = byOrigin.get(Origins.origin(url));
      assertThat(lane).as("a lane for %s", url).isNotNull();
      return ((TurnQueue) lane).rate;
    } catch (ReflectiveOperationException e) {
      throw new AssertionError(e);
    }
  }

  /** A manual clock whose ticker starts at {@code origin}. */
  static final class Rig {
    final FakeTime fake = FakeTime.manual();
    final long origin;
    final Time time;

    Rig(long origin) {
      this.origin = origin;
      this.time =
          new Time(
              fake,
              () -> fake.nanoTime() + origin,
              TestSleepers.of(fake::sleep, fake::delay),
              () -> 1.0);
    }

    long now() {
      return fake.nanoTime() + origin;
    }

    Throttle throttle() {
      return new Throttle(
          time,
          new RetryPolicy(2, Duration.ofMinutes(1), Duration.ZERO, time),
          (Port) TestFailures.INSTANCE,
          0,
          0);
    }

    void advance(Duration by) {
      fake.advance(by);
    }

    static ApiRequest call(HttpUrl url) {
      return new ApiRequest("POST", url, new byte[0], "*/*", CallOptions.NONE);
    }

    /** Calls at that rate, each going at once and answered at once, for exactly that long. */
    void sendAndAnswer(Throttle throttle, HttpUrl url, int perSecond, long during) {
      long gap = SECOND / perSecond;
      for (long at = 0; at < during; at += gap) {
        ApiRequest call = call(url);
        CompletableFuture<IOException> turn = ThrottleTest.go(throttle, call);
        assertThat(turn).isCompleted();
        throttle.observe(call, ThrottleTest.answer(200, null), now());
        fake.advance(Duration.ofNanos(Math.min(gap, during - at)));
      }
    }

    /** A limit reached: calls sent now come back refused together. */
    void refuse(Throttle throttle, HttpUrl url) {
      for (int i = 0; i < 30; i++) {
        throttle.observe(call(url), ThrottleTest.answer(429, null), now());
      }
    }
  }

  record Told(long at, String origin, Duration cutAgo, double answered) {}

  /** A fleet that records what it is told and tells what the test sets; never echoes a cut. */
  static final class Recorder implements Fleet {
    final LongSupplier clock;
    final List<Told> told = new ArrayList<>();
    int live = 1;
    double answered;
    Long cutAt;
    Consumer<Told> during = t -> {};

    Recorder(LongSupplier clock) {
      this.clock = clock;
    }

    @Override
    public Known exchange(String origin, Duration cutAgo, double answeredPerSecond) {
      long now = clock.getAsLong();
      Told t = new Told(now, origin, cutAgo, answeredPerSecond);
      told.add(t);
      during.accept(t);
      return new Known(cutAt == null ? null : Duration.ofNanos(now - cutAt), live, answered);
    }

    List<Told> of(String origin) {
      return told.stream().filter(t -> t.origin().equals(origin)).toList();
    }
  }
}
