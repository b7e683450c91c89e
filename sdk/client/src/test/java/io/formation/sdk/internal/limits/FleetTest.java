package io.formation.sdk.internal.limits;

import static io.formation.sdk.internal.limits.ThrottleTest.SET;
import static io.formation.sdk.internal.limits.ThrottleTest.answer;
import static io.formation.sdk.internal.limits.ThrottleTest.create;
import static io.formation.sdk.internal.limits.ThrottleTest.go;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import okhttp3.HttpUrl;
import org.junit.jupiter.api.Test;

/** Instances that share one limit, each its own throttle, trading news through one fleet. */
class FleetTest {
  final ThrottleTest harness = new ThrottleTest();

  @Test
  void aCutOneInstancesRefusalsCallForIsFollowedByTheOtherAtItsNextExchange() {
    MemoryFleet fleet = new MemoryFleet(2);
    Throttle refused = shared(fleet);
    Throttle other = shared(fleet);
    sendAndAnswer(List.of(refused, other), 500, Duration.ofSeconds(1));

    harness.refuseTheCallsInFlight(refused, null);
    harness.time.advance(Throttle.SHARE_EVERY);

    assertThat(refused.rate(SET)).isCloseTo(0.7 * 500, within(40.0));
    // Alone, it would send at any rate until refused itself.
    assertThat(other.rate(SET)).isCloseTo(0.7 * 500, within(40.0));
    assertThat(fleet.cuts).hasValue(1);
  }

  @Test
  void aCutGivesEachInstanceAnEvenShareOfWhatTheFleetWasAnsweredWhateverItsOwn() {
    MemoryFleet fleet = new MemoryFleet(2);
    fleet.answered = 1_000;
    Throttle small = shared(fleet);
    Throttle large = shared(fleet);
    for (int tenth = 0; tenth < 120; tenth++) { // 100 calls a second of one, 900 of the other
      for (int call = 0; call < 10; call++) {
        Throttle instance = call == 0 ? small : large;
        assertThat(go(instance, create())).isCompleted();
        instance.observe(create(), answer(200, null), harness.time.nanoTime());
        harness.time.advance(Duration.ofMillis(1));
      }
    }

    harness.refuseTheCallsInFlight(large, null);
    harness.time.advance(Throttle.SHARE_EVERY);

    // Each climbs from 0.7 of 500 a second, where alone one would from 70 and the other 630.
    assertThat(small.rate(SET)).isCloseTo(0.7 * 500, within(40.0));
    assertThat(large.rate(SET)).isCloseTo(0.7 * 500, within(40.0));
  }

  @Test
  void aCutElsewhereWhileThisInstanceClimbsBackFromItsOwnIsTheSameExcessFoundLater() {
    MemoryFleet fleet = new MemoryFleet(2);
    fleet.answered = 1_000;
    Throttle instance = shared(fleet);
    harness.sendAndAnswerAt(instance, 500, Duration.ofSeconds(1));
    harness.refuseTheCallsInFlight(instance, null);
    harness.time.advance(Duration.ofMillis(10)); // a token at the cut rate
    harness.sendAndAnswerAt(instance, 100, Duration.ofMillis(300));
    double climbing = instance.rate(SET);

    // Another instance, slower to see the same refusals, cuts 300 ms after this one.
    fleet.cutAt = harness.time.nanoTime();
    harness.sendAndAnswerAt(instance, 100, Throttle.SHARE_EVERY);
    assertThat(instance.rate(SET)).isGreaterThanOrEqualTo(climbing);

    // Once this one has climbed back, a fresh cut elsewhere is new excess: an even share of 1,000.
    harness.sendAndAnswerAt(instance, 100, Duration.ofSeconds(1));
    fleet.cutAt = harness.time.nanoTime();
    harness.sendAndAnswerAt(instance, 100, Throttle.SHARE_EVERY);
    assertThat(instance.rate(SET)).isCloseTo(0.7 * 500, within(40.0));
  }

  @Test
  void aRateLearnedBeforeAnyNewsOfTheFleetBecomesAnEvenShareOfWhatTheFleetIsAnswered() {
    MemoryFleet fleet = new MemoryFleet(3);
    fleet.down = true;
    fleet.answered = 1_500;
    Throttle instance = shared(fleet);
    harness.sendAndAnswerAt(instance, 600, Duration.ofSeconds(1));
    harness.refuseTheCallsInFlight(instance, null);

    // Its 600 a second came beside two instances it had not heard of: a third of it would be 200.
    fleet.down = false;
    harness.time.advance(Duration.ofMillis(10));
    harness.sendAndAnswerAt(instance, 100, Duration.ofMillis(1_400)); // climbed back, holding
    assertThat(instance.rate(SET)).isCloseTo(0.9 * 500, within(5.0));
  }

  @Test
  void aCutCountsThisInstancesAnswersAsTheyAreNowWhereTheyGrewSinceItToldThem() {
    MemoryFleet fleet = new MemoryFleet(2);
    fleet.answered = 1_000;
    List<Runnable> exchanges = new ArrayList<>();
    Throttle instance = harness.throttle(0, 0);
    instance.shareWith(fleet, exchanges::add);
    for (int tenth = 0; tenth < 10; tenth++) {
      harness.sendAndAnswerAt(instance, 500, Throttle.SHARE_EVERY);
      List.copyOf(exchanges).forEach(Runnable::run);
      exchanges.clear();
    }

    // Its answers grow by 400 a second while its next exchange is under way, as in a cold start.
    harness.sendAndAnswerAt(instance, 900, Duration.ofMillis(300));
    harness.refuseTheCallsInFlight(instance, null);

    assertThat(instance.rate(SET)).isCloseTo(0.7 * (1_000 + 400) / 2, within(25.0));
  }

  @Test
  void aCutDatedInThisClocksFutureIsFollowedOnce() {
    MemoryFleet fleet = new MemoryFleet(2);
    fleet.answered = 1_000;
    Throttle instance = shared(fleet);
    harness.sendAndAnswerAt(instance, 500, Duration.ofSeconds(1));

    // A store whose clock is ahead dates another instance's cut 3 s from now, at every exchange.
    fleet.cutAt = harness.time.nanoTime() + Duration.ofSeconds(3).toNanos();
    harness.time.advance(Throttle.SHARE_EVERY);
    double previous = instance.rate(SET);
    assertThat(previous).isCloseTo(0.7 * 500, within(40.0));
    harness.time.advance(Duration.ofMillis(10)); // a token at the cut rate
    for (int exchange = 0; exchange < 25; exchange++) {
      harness.sendAndAnswerAt(instance, 100, Throttle.SHARE_EVERY);
      assertThat(instance.rate(SET)).as("exchange %d", exchange).isGreaterThanOrEqualTo(previous);
      previous = instance.rate(SET);
    }
  }

  @Test
  void aCutOlderThanItsClimbIsNotFollowed() {
    MemoryFleet fleet = new MemoryFleet(2);
    Throttle instance = shared(fleet);
    harness.sendAndAnswerAt(instance, 500, Duration.ofSeconds(1));

    fleet.cutAt = harness.time.nanoTime() - Duration.ofSeconds(2).toNanos();
    harness.time.advance(Throttle.SHARE_EVERY);

    assertThat(instance.rate(SET)).isInfinite();
  }

  @Test
  void aCutWithinAWindowOfTheInstancesOwnIsTheSameCut() {
    MemoryFleet fleet = new MemoryFleet(2);
    Throttle instance = shared(fleet);
    harness.sendAndAnswerAt(instance, 500, Duration.ofSeconds(1));
    harness.refuseTheCallsInFlight(instance, null);
    double cut = instance.rate(SET);

    // Another instance cut 50 ms later, for the same rate: told after this one's own.
    fleet.cutAt = harness.time.nanoTime() + Duration.ofMillis(50).toNanos();
    harness.time.advance(Duration.ofMillis(60));
    harness.time.advance(Throttle.SHARE_EVERY);

    assertThat(instance.rate(SET)).isGreaterThanOrEqualTo(cut);
  }

  @Test
  void aPauseStaysTheInstancesOwnWhileItsCutIsEveryones() {
    MemoryFleet fleet = new MemoryFleet(2);
    Throttle refused = shared(fleet);
    Throttle other = shared(fleet);
    sendAndAnswer(List.of(refused, other), 500, Duration.ofSeconds(1));

    // Most of its calls refused: its Retry-After holds every call of its own.
    for (int i = 0; i < 3; i++) {
      harness.refuseTheCallsInFlight(refused, "2");
    }
    harness.time.advance(Throttle.SHARE_EVERY);

    CompletableFuture<IOException> paused = go(refused, create());
    CompletableFuture<IOException> slowed = go(other, create());
    harness.time.advance(Duration.ofMillis(50)); // a token at the cut rate

    assertThat(paused).isNotDone();
    assertThat(slowed).isCompleted();
    assertThat(other.rate(SET)).isCloseTo(0.7 * 500, within(40.0));
  }

  @Test
  void aBudgetIsTheFleetsSplitEvenlyOverTheLiveInstances() {
    MemoryFleet fleet = new MemoryFleet(4);
    Throttle instance = harness.throttle(100, 8);
    instance.shareWith(fleet, Runnable::run);
    harness.sendAndAnswerAt(instance, 20, Duration.ofSeconds(1));

    assertThat(instance.rate(SET)).isEqualTo(25);

    fleet.live = 1;
    harness.time.advance(Throttle.SHARE_EVERY);
    assertThat(instance.rate(SET)).isEqualTo(100);
  }

  @Test
  void aLearnedRateIsThisInstancesShareWhichGrowsAsOthersStopAndShrinksAsOthersStart() {
    MemoryFleet fleet = new MemoryFleet(3);
    Throttle instance = shared(fleet);
    harness.sendAndAnswerAt(instance, 600, Duration.ofSeconds(1));
    harness.refuseTheCallsInFlight(instance, null);
    harness.time.advance(Duration.ofMillis(100));
    harness.sendAndAnswerAt(instance, 100, Duration.ofMillis(1_400)); // climbed back, holding
    double third = instance.rate(SET);

    fleet.live = 2;
    harness.sendAndAnswerAt(instance, 100, Throttle.SHARE_EVERY);
    assertThat(instance.rate(SET)).isCloseTo(1.5 * third, within(1.0));

    fleet.live = 4;
    harness.sendAndAnswerAt(instance, 100, Throttle.SHARE_EVERY);
    assertThat(instance.rate(SET)).isCloseTo(0.75 * third, within(1.0));
  }

  @Test
  void whileTheFleetCannotBeReachedTheInstanceKeepsTheLastCountAndLearnsAlone() {
    MemoryFleet fleet = new MemoryFleet(4);
    Throttle instance = harness.throttle(1_000, 100);
    instance.shareWith(fleet, Runnable::run);
    harness.sendAndAnswerAt(instance, 200, Duration.ofSeconds(1));

    fleet.down = true;
    fleet.live = 1;
    harness.sendAndAnswerAt(instance, 200, Duration.ofSeconds(1));
    assertThat(instance.rate(SET)).isEqualTo(250);

    harness.refuseTheCallsInFlight(instance, null);
    assertThat(instance.rate(SET)).isCloseTo(0.7 * 200, within(20.0));
  }

  @Test
  void aHungExchangeHoldsNoCallAndNoSecondExchangeStartsMeanwhile() throws Exception {
    CountDownLatch release = new CountDownLatch(1);
    AtomicInteger exchanges = new AtomicInteger();
    Fleet hung =
        (origin, cutAgo, answered) -> {
          exchanges.incrementAndGet();
          try {
            release.await();
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
          return null;
        };
    ExecutorService thread = Executors.newCachedThreadPool();
    try {
      Throttle instance = harness.throttle(0, 0);
      instance.shareWith(hung, thread);
      harness.sendAndAnswerAt(instance, 100, Duration.ofSeconds(1));
      long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
      while (exchanges.get() == 0 && System.nanoTime() < end) {
        Thread.onSpinWait();
      }
      assertThat(exchanges).as("an exchange started").hasValue(1);

      harness.time.advance(Duration.ofSeconds(1));
      harness.refuseTheCallsInFlight(instance, "1");

      assertThat(go(instance, ThrottleTest.poll(SET))).isNotDone(); // its own pause, as alone
      harness.time.advance(Duration.ofSeconds(3));
      assertThat(go(instance, create())).isCompleted();
      assertThat(exchanges).hasValue(1);
    } finally {
      release.countDown();
      thread.shutdown();
      assertThat(thread.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
    }
  }

  @Test
  void aLaneUnusedForASecondIsNotExchangedAndAClosedThrottleStops() {
    MemoryFleet fleet = new MemoryFleet(1);
    Throttle instance = shared(fleet);
    harness.sendAndAnswerAt(instance, 100, Duration.ofMillis(500));
    harness.time.advance(Duration.ofSeconds(1));
    int before = fleet.exchanges;

    harness.time.advance(Duration.ofSeconds(1));
    assertThat(fleet.exchanges).isEqualTo(before);

    harness.sendAndAnswerAt(instance, 100, Duration.ofMillis(500));
    assertThat(fleet.exchanges).isGreaterThan(before);
    instance.close();
    int closed = fleet.exchanges;
    harness.sendAndAnswerAt(instance, 100, Duration.ofSeconds(1));
    assertThat(fleet.exchanges).isEqualTo(closed);
  }

  @Test
  void aClientJoinsItsHomeOriginsFleetAsItIsBuiltSoItsFirstCutIsAlreadyAShare() {
    MemoryFleet fleet = new MemoryFleet(2);
    fleet.answered = 1_000;
    Throttle instance = harness.throttle(0, 0);
    instance.shareWith(fleet, Runnable::run, HttpUrl.get("https://api.example.com/v1/"));
    assertThat(fleet.origins).containsExactly("https://api.example.com:443");
    assertThat(fleet.told).isZero();

    // Refused before its first trade since it began to call: alone, it would cut from its 300.
    harness.sendAndAnswerAt(instance, 300, Duration.ofMillis(90));
    harness.refuseTheCallsInFlight(instance, null);
    assertThat(instance.rate(SET)).isCloseTo(0.7 * (1_000 + 300) / 2, within(25.0));

    // A lane joined but unused is not traded again.
    MemoryFleet idle = new MemoryFleet(2);
    harness.throttle(0, 0).shareWith(idle, Runnable::run, SET);
    harness.time.advance(Duration.ofSeconds(2));
    assertThat(idle.exchanges).isOne();
  }

  @Test
  void answersToldAfterAQuietSpellAreTheSpellsNotThoseBeforeIt() {
    MemoryFleet fleet = new MemoryFleet(2);
    Throttle instance = shared(fleet);
    harness.sendAndAnswerAt(instance, 500, Duration.ofSeconds(1));
    assertThat(fleet.told).isCloseTo(500, within(50.0));

    // Paused: nothing sent or answered for half a second, the lane still in use.
    harness.time.advance(Duration.ofMillis(500));
    assertThat(fleet.told).isLessThan(500 / 5.0);
  }

  Throttle shared(Fleet fleet) {
    Throttle throttle = harness.throttle(0, 0);
    throttle.shareWith(fleet, Runnable::run);
    return throttle;
  }

  /** Each instance sends and is answered in turn, at the rate each. */
  void sendAndAnswer(List<Throttle> instances, int perSecond, Duration during) {
    long gap = 1_000_000_000L / perSecond / instances.size();
    for (long sent = 0; sent < during.toNanos(); ) {
      for (Throttle instance : instances) {
        assertThat(go(instance, create())).isCompleted();
        instance.observe(create(), answer(200, null), harness.time.nanoTime());
        harness.time.advance(Duration.ofNanos(gap));
        sent += gap;
      }
    }
  }

  /** The fleet's row, as a database would keep it, on the test's one clock. */
  final class MemoryFleet implements Fleet {
    long cutAt = Long.MIN_VALUE;
    int live;
    double answered;
    boolean down;
    int exchanges;
    double told = Double.NaN;
    final AtomicInteger cuts = new AtomicInteger();
    final List<String> origins = new ArrayList<>();

    MemoryFleet(int live) {
      this.live = live;
    }

    @Override
    public Known exchange(String origin, Duration cutAgo, double answeredPerSecond) {
      exchanges++;
      origins.add(origin);
      told = answeredPerSecond;
      if (down) {
        return null;
      }
      long now = harness.time.nanoTime();
      if (cutAgo != null) {
        long at = now - cutAgo.toNanos();
        if (cutAt == Long.MIN_VALUE || at - cutAt >= AdaptiveRate.MEASURE_WINDOW_NANOS) {
          cutAt = at;
          cuts.incrementAndGet();
        }
      }
      return new Known(
          cutAt == Long.MIN_VALUE ? null : Duration.ofNanos(now - cutAt), live, answered);
    }
  }
}
