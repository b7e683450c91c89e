package io.formation.sdk.internal.limits;

import static io.formation.sdk.internal.limits.ThrottleTest.OTHER_ORIGIN;
import static io.formation.sdk.internal.limits.ThrottleTest.SET;
import static io.formation.sdk.internal.limits.ThrottleTest.answer;
import static io.formation.sdk.internal.limits.ThrottleTest.create;
import static io.formation.sdk.internal.limits.ThrottleTest.go;
import static io.formation.sdk.internal.limits.ThrottleTest.poll;
import static org.assertj.core.api.Assertions.assertThat;

import io.formation.sdk.RateLimitException;
import java.io.IOException;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Review of "Several instances on one token" (docs/retries-and-rate-limits.md) at the throttle:
 * each test tries to break one promise, on a manual clock.
 */
class FleetPromisesReviewTest {
  static final String API = "https://api.example.com:443";
  static final String FILES = "https://files.example.com:443";

  final ThrottleTest harness = new ThrottleTest();

  // --- "no call is held by the client's rate past its own timeout" while the fleet's cuts slow it

  @Test
  void aQueuedCallThatTheFleetsCutsSlowFailsByItsOwnDeadlineNeverAfter() {
    ReviewFleet fleet = new ReviewFleet(2, 1_000);
    Throttle instance = shared(fleet);
    harness.sendAndAnswerAt(instance, 500, Duration.ofSeconds(1));
    harness.refuseTheCallsInFlight(instance, null);
    harness.time.advance(Duration.ofMillis(200));
    assertThat(instance.rate(SET)).isFinite();

    for (int i = 0; i < 200; i++) {
      go(instance, create());
    }
    long start = harness.time.nanoTime();
    CompletableFuture<IOException> call = go(instance, create(Duration.ofSeconds(3)));
    assertThat(call).as("its turn at the learned rate is well within 3 s").isNotDone();
    long deadline = start + Duration.ofSeconds(3).toNanos();

    // Other instances' refusals cut the fleet again and again; each is a new cut (>100 ms apart).
    fleet.answered = 2;
    int sinceCut = 0;
    while (harness.time.nanoTime() <= deadline) {
      if (sinceCut == 0) {
        fleet.of(API).cutAt = harness.time.nanoTime();
      }
      sinceCut = (sinceCut + 10) % 150;
      harness.time.advance(Duration.ofMillis(10));
      if (harness.time.nanoTime() > deadline) {
        break;
      }
    }
    assertThat(instance.rate(SET)).as("the fleet's cuts were followed").isLessThan(10);
    assertThat(call).as("held past its own deadline").isDone();
    if (call.isCompletedExceptionally()) {
      assertThat(call.handle((v, e) -> e).join()).isInstanceOf(RateLimitException.class);
    }
  }

  // --- "instances: the live instances, this one included: at least 1"; a budget split

  @ParameterizedTest
  @ValueSource(ints = {0, -1, -3, Integer.MIN_VALUE})
  void aFleetCountingNoOrNegativeInstancesNeitherLiftsNorInvertsTheBudget(int instances) {
    ReviewFleet fleet = new ReviewFleet(instances, 0);
    Throttle instance = harness.throttle(100, 8);
    instance.shareWith(fleet, Runnable::run);
    harness.sendAndAnswerAt(instance, 20, Duration.ofSeconds(1));

    double rate = instance.rate(SET);
    assertThat(rate).isNotNaN().isPositive().isLessThanOrEqualTo(100);
    CompletableFuture<IOException> call = go(instance, create());
    harness.time.advance(Duration.ofSeconds(1));
    assertThat(call).isCompleted();
  }

  @ParameterizedTest
  @ValueSource(ints = {0, -1})
  void aCutToldWithNoOrNegativeInstancesLeavesARateOfAtLeastOne(int instances) {
    ReviewFleet fleet = new ReviewFleet(instances, 1_000);
    Throttle instance = shared(fleet);
    harness.sendAndAnswerAt(instance, 500, Duration.ofSeconds(1));

    fleet.of(API).cutAt = harness.time.nanoTime();
    trickle(instance, 100, Duration.ofMillis(300));

    assertThat(instance.rate(SET)).isNotNaN().isFinite().isGreaterThanOrEqualTo(1);
  }

  // --- answers a second: "0 if unknown"; the rate "never goes below one request a second"

  @ParameterizedTest
  @ValueSource(
      doubles = {Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, -500, 0, 1e308})
  void aCutToldWithAnyAnsweredFigureLeavesAFiniteRateOfAtLeastOne(double answered) {
    ReviewFleet fleet = new ReviewFleet(2, 1_000);
    Throttle instance = shared(fleet);
    harness.sendAndAnswerAt(instance, 500, Duration.ofSeconds(1));

    fleet.answered = answered;
    fleet.of(API).cutAt = harness.time.nanoTime();
    trickle(instance, 100, Duration.ofMillis(300));

    assertThat(instance.rate(SET)).isNotNaN().isFinite().isGreaterThanOrEqualTo(1);
    CompletableFuture<IOException> call = go(instance, create());
    harness.time.advance(Duration.ofSeconds(1));
    assertThat(call).isCompleted();
  }

  @Test
  void callsStillGoAfterACutToldWithAnInfiniteAnsweredFigure() {
    ReviewFleet fleet = new ReviewFleet(2, 1_000);
    Throttle instance = shared(fleet);
    harness.sendAndAnswerAt(instance, 500, Duration.ofSeconds(1));

    fleet.answered = Double.POSITIVE_INFINITY;
    fleet.of(API).cutAt = harness.time.nanoTime();
    trickle(instance, 100, Duration.ofMillis(300));

    List<CompletableFuture<IOException>> calls = new java.util.ArrayList<>();
    for (int i = 0; i < 5; i++) {
      calls.add(go(instance, create()));
    }
    harness.time.advance(Duration.ofSeconds(10));
    assertThat(calls).allSatisfy(call -> assertThat(call).isCompleted());
  }

  @Test
  void aCutFromAFleetThatDoesNotKnowItsAnswersIsNotACutToTheFloor() {
    ReviewFleet fleet = new ReviewFleet(2, 0); // 0: unknown, as SharedLimit.Fleet says
    Throttle instance = shared(fleet);
    harness.sendAndAnswerAt(instance, 500, Duration.ofSeconds(1));

    fleet.of(API).cutAt = harness.time.nanoTime();
    harness.time.advance(Throttle.SHARE_EVERY);

    // Its own 500 a second were answered; unknown is not "none answered".
    assertThat(instance.rate(SET)).isFinite().isGreaterThan(50);
  }

  // --- ages: "a cut older than its climb (1 s) is not followed"; times travel as ages

  @Test
  void aCutJustOlderThanItsClimbIsNotFollowedAndOneYoungerIs() {
    ReviewFleet stale = new ReviewFleet(2, 1_000);
    Throttle notFollowing = shared(stale);
    harness.sendAndAnswerAt(notFollowing, 500, Duration.ofSeconds(1));
    stale.of(API).cutAt = harness.time.nanoTime() - Duration.ofMillis(1_150).toNanos();
    harness.time.advance(Throttle.SHARE_EVERY);
    assertThat(notFollowing.rate(SET)).isInfinite();

    ReviewFleet fresh = new ReviewFleet(2, 1_000);
    Throttle following = shared(fresh);
    harness.sendAndAnswerAt(following, 500, Duration.ofSeconds(1));
    fresh.of(API).cutAt = harness.time.nanoTime() - Duration.ofMillis(500).toNanos();
    harness.time.advance(Throttle.SHARE_EVERY);
    assertThat(following.rate(SET)).isFinite();
  }

  @ParameterizedTest
  @ValueSource(longs = {365L * 24 * 3600, 300L * 365 * 24 * 3600, Long.MAX_VALUE / 2})
  void aHugeCutAgeIsNotFollowedAndBreaksNothing(long seconds) {
    AtomicInteger exchanges = new AtomicInteger();
    Fleet ancient =
        (origin, cutAgo, answered) -> {
          exchanges.incrementAndGet();
          return new Fleet.Known(Duration.ofSeconds(seconds), 2, 1_000);
        };
    Throttle instance = harness.throttle(0, 0);
    instance.shareWith(ancient, Runnable::run);
    harness.sendAndAnswerAt(instance, 100, Duration.ofSeconds(1));
    int first = exchanges.get();
    harness.sendAndAnswerAt(instance, 100, Duration.ofSeconds(1));

    assertThat(instance.rate(SET)).isInfinite();
    assertThat(exchanges.get()).as("exchanges go on").isGreaterThan(first);
  }

  @Test
  void aCutInTheFutureOfThisInstancesClockIsFollowedOnceAtMost() {
    ReviewFleet fleet = new ReviewFleet(2, 1_000);
    Throttle instance = shared(fleet);
    harness.sendAndAnswerAt(instance, 200, Duration.ofSeconds(1));
    // A store whose clock is ahead: the age comes as negative, and grows toward zero.
    fleet.of(API).cutAt = harness.time.nanoTime() + Duration.ofSeconds(3).toNanos();
    trickle(instance, 20, Throttle.SHARE_EVERY.multipliedBy(2));

    double previous = instance.rate(SET);
    for (int step = 0; step < 50; step++) {
      trickle(instance, 20, Throttle.SHARE_EVERY);
      double rate = instance.rate(SET);
      assertThat(rate).as("step %d: one cut told again cut again", step).isNotNaN();
      if (!Double.isInfinite(previous)) {
        assertThat(rate)
            .as("step %d: one cut told again cut again", step)
            .isGreaterThanOrEqualTo(previous);
      }
      previous = rate;
    }
  }

  @Test
  void oneCutToldAtEveryExchangeForSecondsIsFollowedOnce() {
    ReviewFleet fleet = new ReviewFleet(2, 1_000);
    Throttle instance = shared(fleet);
    harness.sendAndAnswerAt(instance, 500, Duration.ofSeconds(1));
    fleet.of(API).cutAt = harness.time.nanoTime();
    trickle(instance, 20, Throttle.SHARE_EVERY);
    double previous = instance.rate(SET);
    assertThat(previous).isFinite();

    for (int step = 0; step < 30; step++) {
      trickle(instance, 20, Throttle.SHARE_EVERY);
      double rate = instance.rate(SET);
      assertThat(rate).as("step %d", step).isGreaterThanOrEqualTo(previous);
      previous = rate;
    }
  }

  // --- "A client calls exchange for each origin it sent a request to"; state per origin

  @Test
  void eachOriginHasItsOwnCutAndItsOwnCountOfLiveInstances() {
    ReviewFleet fleet = new ReviewFleet(1, 0);
    fleet.of(API).live = 4;
    fleet.of(FILES).live = 1;
    Throttle instance = harness.throttle(100, 8);
    instance.shareWith(fleet, Runnable::run);
    sendToBoth(instance, 16, Duration.ofSeconds(1));

    assertThat(fleet.origins).containsOnly(API, FILES);
    assertThat(instance.rate(SET)).isEqualTo(25);
    assertThat(instance.rate(OTHER_ORIGIN)).isEqualTo(100);

    fleet.of(API).cutAt = harness.time.nanoTime();
    fleet.answered = 40;
    harness.time.advance(Throttle.SHARE_EVERY.multipliedBy(2));
    assertThat(instance.rate(SET)).isLessThan(25);
    assertThat(instance.rate(OTHER_ORIGIN)).isEqualTo(100);
  }

  @Test
  void anOwnCutIsToldToTheFleetAtOnceAndOnlyForItsOrigin() {
    ReviewFleet fleet = new ReviewFleet(2, 0);
    Throttle instance = shared(fleet);
    sendToBoth(instance, 400, Duration.ofSeconds(1));

    harness.refuseTheCallsInFlight(instance, null);
    harness.time.advance(Duration.ofMillis(1));

    assertThat(fleet.of(API).cuts).as("told at once, not at the next 100 ms").isEqualTo(1);
    assertThat(fleet.of(FILES).cuts).isZero();
  }

  // --- "While an exchange throws or hangs, the client follows its own rate"

  @Test
  void anExchangeThatThrowsHoldsNoCallAndIsTriedAgain() throws Exception {
    AtomicInteger exchanges = new AtomicInteger();
    Fleet throwing =
        (origin, cutAgo, answered) -> {
          exchanges.incrementAndGet();
          throw new IllegalStateException("a store that throws (test)");
        };
    ExecutorService thread = Executors.newSingleThreadExecutor();
    try {
      Throttle instance = harness.throttle(0, 0);
      instance.shareWith(throwing, thread);
      for (int round = 1; round <= 4; round++) {
        waitFor(
            exchanges, round, () -> harness.sendAndAnswerAt(instance, 100, Throttle.SHARE_EVERY));
      }
      harness.refuseTheCallsInFlight(instance, null);
      assertThat(instance.rate(SET)).isFinite();
      for (int round = 5; round <= 8; round++) {
        harness.time.advance(Throttle.SHARE_EVERY);
        CompletableFuture<IOException> call = go(instance, create());
        harness.time.advance(Duration.ofMillis(20));
        assertThat(call).isCompleted();
        instance.observe(create(), answer(200, null), harness.time.nanoTime());
        waitFor(
            exchanges, round, () -> harness.sendAndAnswerAt(instance, 10, Throttle.SHARE_EVERY));
      }
    } finally {
      thread.shutdownNow();
      assertThat(thread.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
    }
  }

  @Test
  void closeWhileAnExchangeIsUnderWayStartsNoExchangeAfterIt() throws Exception {
    CountDownLatch inside = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    AtomicInteger exchanges = new AtomicInteger();
    Fleet slow =
        (origin, cutAgo, answered) -> {
          exchanges.incrementAndGet();
          inside.countDown();
          try {
            release.await(30, TimeUnit.SECONDS);
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
          return new Fleet.Known(null, 2, 0);
        };
    ExecutorService thread = Executors.newCachedThreadPool();
    try {
      Throttle instance = harness.throttle(0, 0);
      instance.shareWith(slow, thread);
      harness.sendAndAnswerAt(instance, 100, Throttle.SHARE_EVERY.multipliedBy(2));
      assertThat(inside.await(30, TimeUnit.SECONDS)).isTrue();

      instance.close();
      release.countDown();
      thread.shutdown();
      assertThat(thread.awaitTermination(30, TimeUnit.SECONDS)).isTrue();
      int closed = exchanges.get();
      harness.sendAndAnswerAt(instance, 100, Duration.ofSeconds(1));
      assertThat(exchanges).hasValue(closed);
    } finally {
      release.countDown();
      thread.shutdownNow();
    }
  }

  // --- helpers

  /**
   * Waits for the exchanges, stepping the calls and the fake clock meanwhile: a tick that comes
   * while the last exchange still runs on its thread starts none, and the next one will.
   */
  static void waitFor(AtomicInteger count, int atLeast, Runnable step) throws InterruptedException {
    long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (count.get() < atLeast && System.nanoTime() < end) {
      Thread.sleep(5);
      if (count.get() < atLeast) {
        step.run();
      }
    }
    assertThat(count.get()).as("exchanges asked").isGreaterThanOrEqualTo(atLeast);
  }

  /** Calls at that rate, each answered as soon as it gets its turn; none needs to go at once. */
  void trickle(Throttle throttle, int perSecond, Duration during) {
    long gap = 1_000_000_000L / perSecond;
    List<CompletableFuture<IOException>> waiting = new java.util.ArrayList<>();
    for (long sent = 0; sent < during.toNanos(); sent += gap) {
      waiting.add(go(throttle, create()));
      for (java.util.Iterator<CompletableFuture<IOException>> i = waiting.iterator();
          i.hasNext(); ) {
        CompletableFuture<IOException> turn = i.next();
        if (turn.isDone()) {
          i.remove();
          if (!turn.isCompletedExceptionally()) {
            throttle.observe(create(), answer(200, null), harness.time.nanoTime());
          }
        }
      }
      harness.time.advance(Duration.ofNanos(gap));
    }
    waiting.forEach(turn -> turn.cancel(false));
  }

  Throttle shared(Fleet fleet) {
    Throttle throttle = harness.throttle(0, 0);
    throttle.shareWith(fleet, Runnable::run);
    return throttle;
  }

  /** Calls to both origins, each answered at once, at that rate each. */
  void sendToBoth(Throttle throttle, int perSecond, Duration during) {
    long gap = 1_000_000_000L / perSecond / 2;
    for (long sent = 0; sent < during.toNanos(); sent += 2 * gap) {
      assertThat(go(throttle, create())).isCompleted();
      throttle.observe(create(), answer(200, null), harness.time.nanoTime());
      harness.time.advance(Duration.ofNanos(gap));
      assertThat(go(throttle, poll(OTHER_ORIGIN))).isCompleted();
      throttle.observe(poll(OTHER_ORIGIN), answer(200, null), harness.time.nanoTime());
      harness.time.advance(Duration.ofNanos(gap));
    }
  }

  /** A row per origin, as a database keeps them, on the test's clock. */
  final class ReviewFleet implements Fleet {
    final int defaultLive;
    double answered;
    final Map<String, Row> rows = new HashMap<>();
    final List<String> origins = new CopyOnWriteArrayList<>();

    final class Row {
      long cutAt = Long.MIN_VALUE;
      int live = defaultLive;
      int cuts;
    }

    ReviewFleet(int live, double answered) {
      this.defaultLive = live;
      this.answered = answered;
    }

    Row of(String origin) {
      return rows.computeIfAbsent(origin, o -> new Row());
    }

    @Override
    public synchronized Known exchange(String origin, Duration cutAgo, double answeredPerSecond) {
      origins.add(origin);
      Row row = of(origin);
      long now = harness.time.nanoTime();
      if (cutAgo != null) {
        long at = now - cutAgo.toNanos();
        if (row.cutAt == Long.MIN_VALUE || at - row.cutAt >= AdaptiveRate.MEASURE_WINDOW_NANOS) {
          row.cutAt = at;
          row.cuts++;
        }
      }
      return new Known(
          row.cutAt == Long.MIN_VALUE ? null : Duration.ofNanos(now - row.cutAt),
          row.live,
          answered);
    }
  }
}
