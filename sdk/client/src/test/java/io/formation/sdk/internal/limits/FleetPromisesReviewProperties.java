package io.formation.sdk.internal.limits;

import static io.formation.sdk.internal.limits.ThrottleTest.SET;
import static io.formation.sdk.internal.limits.ThrottleTest.answer;
import static io.formation.sdk.internal.limits.ThrottleTest.create;
import static io.formation.sdk.internal.limits.ThrottleTest.go;
import static org.assertj.core.api.Assertions.assertThat;

import io.formation.sdk.RateLimitException;
import io.formation.sdk.internal.transport.ApiRequest;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.statistics.Statistics;

/**
 * Review of "Several instances on one token" (docs/retries-and-rate-limits.md): random sequences of
 * events over 2 to 4 throttles sharing one fleet on a manual clock. Traffic (each granted call
 * answered at once), bursts of refusals with or without Retry-After, cuts of instances outside the
 * test (fresh or stale), live counts changing, the fleet down and back, quiet spells.
 *
 * <p>Checked after every 5 ms: a rate is never NaN, never negative, never below one once learned;
 * with a budget, never above the budget over the live count last told; a rate falls only for a
 * cause (the instance's own refusals, a live count told higher, or a cut told for the first time
 * that is at most 1 s old and not within 100 ms of the instance's own cut): so an instance never
 * cuts twice for one fleet cut, and never follows a cut older than its climb; no call is held past
 * its deadline.
 */
class FleetPromisesReviewProperties {
  static final long MS = 1_000_000L;
  static final long WINDOW = 100 * MS;

  sealed interface Event permits Traffic, Refuse, Live, Down, OutsideCut, Quiet {}

  /** Each instance sends at its rate (0: idle) for that long. */
  record Traffic(List<Integer> perSecond, int millis) implements Event {}

  /** One instance gets that many refusals at once. */
  record Refuse(int instance, int count, String retryAfter) implements Event {}

  /** The fleet counts that many live instances from now on. */
  record Live(int count) implements Event {}

  /** The fleet cannot be reached, or can again. */
  record Down(boolean down) implements Event {}

  /** An instance outside the test cut that long ago (fresh or stale). */
  record OutsideCut(int agoMillis) implements Event {}

  /** Nothing sent for that long. */
  record Quiet(int millis) implements Event {}

  ThrottleTest harness = new ThrottleTest();

  /** The fleet's row, as a store keeps it. */
  long cutAt = Long.MIN_VALUE;

  int live = 2;
  boolean down;
  double[] answeredOf;

  final class Instance implements Fleet {
    final int index;
    final Throttle throttle;
    int toldLive = 1;
    final Set<Long> toldCuts = new HashSet<>();
    long ownCutAt = Long.MIN_VALUE;
    boolean licence; // a cause for the rate to fall since the last check
    boolean followedLicence;
    double previous = Double.POSITIVE_INFINITY;
    final List<long[]> deadlines = new ArrayList<>();
    final List<CompletableFuture<IOException>> waiting = new ArrayList<>();
    double sendDebt;
    int exchanges;

    Instance(int index, double budget) {
      this.index = index;
      this.throttle = budget > 0 ? harness.throttle(budget, 4) : harness.throttle(0, 0);
      this.throttle.shareWith(this, Runnable::run);
      this.previous = throttle.rate(SET);
    }

    @Override
    public Known exchange(String origin, Duration cutAgo, double answeredPerSecond) {
      exchanges++;
      long now = harness.time.nanoTime();
      if (cutAgo != null) {
        long at = now - cutAgo.toNanos();
        ownCutAt = at;
        if (!down && (cutAt == Long.MIN_VALUE || at - cutAt >= WINDOW)) {
          cutAt = at;
        }
      }
      if (down) {
        return null;
      }
      answeredOf[index] = answeredPerSecond;
      double sum = 0;
      for (double a : answeredOf) {
        sum += a;
      }
      if (cutAt != Long.MIN_VALUE) {
        long age = now - cutAt;
        if (toldCuts.contains(cutAt)) {
          toldAgain = true;
        } else {
          toldCuts.add(cutAt);
          boolean ownCut = ownCutAt != Long.MIN_VALUE && Math.abs(cutAt - ownCutAt) < WINDOW;
          if (age > 1_000 * MS) {
            staleTold = true;
          } else if (!ownCut) {
            licence = true;
            followedLicence = true;
          }
        }
      }
      if (live > toldLive) {
        licence = true;
      }
      toldLive = live;
      if (live > 1 && budgetSet) {
        budgetSplit = true;
      }
      return new Known(cutAt == Long.MIN_VALUE ? null : Duration.ofNanos(now - cutAt), live, sum);
    }
  }

  boolean toldAgain;
  boolean staleTold;
  boolean budgetSplit;
  boolean budgetSet;
  boolean followed;
  boolean downWhileLearned;
  int deadlineFailures;

  @Property(tries = 150)
  void instancesSharingOneFleetKeepEveryPromise(
      @ForAll("instanceCounts") int count,
      @ForAll("budgets") int budget,
      @ForAll("events") List<Event> events) {
    // jqwik may keep this object across tries: every try starts from nothing.
    harness = new ThrottleTest();
    cutAt = Long.MIN_VALUE;
    live = 2;
    down = false;
    toldAgain = false;
    staleTold = false;
    budgetSplit = false;
    followed = false;
    downWhileLearned = false;
    deadlineFailures = 0;
    answeredOf = new double[count];
    budgetSet = budget > 0;
    this.budget = budget;
    List<Instance> instances = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      instances.add(new Instance(i, budget));
    }
    for (Event event : events) {
      if (event instanceof Traffic t) {
        for (int ms = 0; ms < t.millis(); ms += 5) {
          for (Instance instance : instances) {
            int rate = t.perSecond().get(instance.index % t.perSecond().size());
            instance.sendDebt += rate * 0.005;
            while (instance.sendDebt >= 1) {
              instance.sendDebt -= 1;
              Duration timeout =
                  switch (instance.waiting.size() % 3) {
                    case 0 -> Duration.ofMillis(500);
                    case 1 -> Duration.ofSeconds(2);
                    default -> Duration.ofSeconds(10);
                  };
              ApiRequest request = create(timeout);
              instance.waiting.add(go(instance.throttle, request));
              instance.deadlines.add(new long[] {harness.time.nanoTime() + timeout.toNanos()});
            }
          }
          step(instances, Duration.ofMillis(5));
        }
      } else if (event instanceof Refuse r) {
        Instance instance = instances.get(r.instance() % count);
        for (int i = 0; i < r.count(); i++) {
          instance.throttle.observe(create(), answer(429, r.retryAfter()), harness.time.nanoTime());
        }
        instance.licence = true;
        step(instances, Duration.ZERO);
      } else if (event instanceof Live l) {
        live = l.count();
      } else if (event instanceof Down d) {
        down = d.down();
        if (down && instances.stream().anyMatch(i -> Double.isFinite(i.throttle.rate(SET)))) {
          downWhileLearned = true;
        }
      } else if (event instanceof OutsideCut c) {
        if (!down) {
          long at = harness.time.nanoTime() - c.agoMillis() * MS;
          if (cutAt == Long.MIN_VALUE || at - cutAt >= WINDOW) {
            cutAt = at;
          }
        }
      } else if (event instanceof Quiet q) {
        for (int ms = 0; ms < q.millis(); ms += 5) {
          step(instances, Duration.ofMillis(5));
        }
      }
    }
    for (Instance instance : instances) {
      instance.throttle.close();
    }

    Statistics.label("an instance followed a cut it was told").collect(followed);
    Statistics.label("a cut told again at a later exchange").collect(toldAgain);
    Statistics.label("a stale cut told").collect(staleTold);
    Statistics.label("the fleet down while a rate was learned").collect(downWhileLearned);
    Statistics.label("a budget split over more than one").collect(budgetSplit);
    Statistics.label("a call failed at its deadline").collect(deadlineFailures > 0);
    Statistics.label("an instance followed a cut it was told")
        .coverage(c -> c.check(true).percentage(p -> p >= 30));
    Statistics.label("a cut told again at a later exchange")
        .coverage(c -> c.check(true).percentage(p -> p >= 30));
    Statistics.label("a stale cut told").coverage(c -> c.check(true).percentage(p -> p >= 10));
    Statistics.label("the fleet down while a rate was learned")
        .coverage(c -> c.check(true).percentage(p -> p >= 10));
    Statistics.label("a budget split over more than one")
        .coverage(c -> c.check(true).percentage(p -> p >= 15));
    Statistics.label("a call failed at its deadline")
        .coverage(c -> c.check(true).percentage(p -> p >= 5));
  }

  void step(List<Instance> instances, Duration by) {
    if (!by.isZero()) {
      harness.time.advance(by);
    }
    long now = harness.time.nanoTime();
    for (Instance instance : instances) {
      Iterator<long[]> deadline = instance.deadlines.iterator();
      for (Iterator<CompletableFuture<IOException>> i = instance.waiting.iterator();
          i.hasNext(); ) {
        CompletableFuture<IOException> turn = i.next();
        long due = deadline.next()[0];
        if (turn.isDone()) {
          i.remove();
          deadline.remove();
          if (turn.isCompletedExceptionally()) {
            assertThat(turn.handle((v, e) -> e).join()).isInstanceOf(RateLimitException.class);
            deadlineFailures++;
          } else {
            instance.throttle.observe(create(), answer(200, null), now);
          }
        } else {
          assertThat(now)
              .as("instance %d: a call held past its deadline", instance.index)
              .isLessThanOrEqualTo(due);
        }
      }
      double rate = instance.throttle.rate(SET);
      assertThat(rate).as("instance %d: rate", instance.index).isNotNaN().isPositive();
      if (Double.isFinite(rate)) {
        assertThat(rate)
            .as("instance %d: rate below the floor", instance.index)
            .isGreaterThanOrEqualTo(1);
      }
      if (budgetSet && instance.toldLive >= 1) {
        double ceiling = budgetOf(instance) / instance.toldLive;
        assertThat(rate)
            .as(
                "instance %d: over the budget's share (told %d live)",
                instance.index, instance.toldLive)
            .isLessThanOrEqualTo(ceiling + 1e-6);
      }
      if (rate < instance.previous - 1e-9) {
        assertThat(instance.licence)
            .as(
                "instance %d: the rate fell from %s to %s at %d ms without a cause (own refusals,"
                    + " a new cut at most 1 s old, more instances)",
                instance.index, instance.previous, rate, now / MS)
            .isTrue();
        if (instance.followedLicence) {
          followed = true;
        }
      }
      instance.previous = rate;
      instance.licence = false;
      instance.followedLicence = false;
    }
  }

  double budget;

  double budgetOf(Instance instance) {
    return budget;
  }

  @Provide
  Arbitrary<Integer> instanceCounts() {
    return Arbitraries.integers().between(2, 4);
  }

  @Provide
  Arbitrary<Integer> budgets() {
    return Arbitraries.frequencyOf(
        net.jqwik.api.Tuple.of(2, Arbitraries.just(0)),
        net.jqwik.api.Tuple.of(1, Arbitraries.integers().between(40, 400)));
  }

  @Provide
  Arbitrary<List<Event>> events() {
    Arbitrary<Event> traffic =
        Combinators.combine(
                Arbitraries.frequencyOf(
                        net.jqwik.api.Tuple.of(1, Arbitraries.just(0)),
                        net.jqwik.api.Tuple.of(4, Arbitraries.integers().between(20, 400)))
                    .list()
                    .ofMinSize(1)
                    .ofMaxSize(4),
                Arbitraries.integers().between(100, 1_500))
            .as(Traffic::new);
    Arbitrary<Event> refuse =
        Combinators.combine(
                Arbitraries.integers().between(0, 3),
                Arbitraries.integers().between(5, 40),
                Arbitraries.of("", "0", "1"))
            .as((i, n, ra) -> new Refuse(i, n, ra.isEmpty() ? null : ra));
    Arbitrary<Event> liveCount = Arbitraries.integers().between(1, 5).map(Live::new);
    Arbitrary<Event> downOrUp = Arbitraries.of(true, false).map(Down::new);
    Arbitrary<Event> outside =
        Arbitraries.oneOf(
                Arbitraries.integers().between(0, 900),
                Arbitraries.integers().between(1_050, 5_000))
            .map(OutsideCut::new);
    Arbitrary<Event> quiet = Arbitraries.integers().between(100, 2_000).map(Quiet::new);
    return Arbitraries.frequencyOf(
            net.jqwik.api.Tuple.of(6, traffic),
            net.jqwik.api.Tuple.of(4, refuse),
            net.jqwik.api.Tuple.of(2, liveCount),
            net.jqwik.api.Tuple.of(1, downOrUp),
            net.jqwik.api.Tuple.of(3, outside),
            net.jqwik.api.Tuple.of(1, quiet))
        .list()
        .ofMinSize(4)
        .ofMaxSize(20);
  }
}
