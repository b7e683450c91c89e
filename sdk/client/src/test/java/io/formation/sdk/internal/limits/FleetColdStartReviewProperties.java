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
import net.jqwik.api.Tuple;
import net.jqwik.api.statistics.Statistics;

/**
 * The fleet's rules at a cold start (a cut elsewhere within the climb from this instance's own is
 * not followed, a rate learned before news of others becomes an even share, a cut counts its own
 * grown answers) over random sequences of events across 2 to 4 throttles sharing one fleet on a
 * manual clock: traffic answered at once, bursts of refusals, cuts of instances outside the test
 * (fresh, stale, or found later than an instance's own), live counts (0 and negative among them),
 * answered figures told wrong (NaN, negative, infinite, 0), the fleet down (from the start: a cold
 * start before any news) and back, quiet spells, a budget or none.
 *
 * <p>Checked after every step of at most 5 ms, for each instance, reading its lane's last cut: the
 * rate is never NaN, never infinite once learned, never below one; under a budget, never above the
 * budget over the live count last told; it falls only for a cause (a cut, a higher live count, the
 * first news); each cut has a cause of its own: the instance's refusals, 100 ms or more past its
 * last cut, or a fleet cut told at that exchange, less than 1 s old, 100 ms or more past the
 * instance's last cut and 1 s or more past the last its own refusals called for; no fleet cut is
 * followed twice; a fleet cut told so (or to one that never cut) is followed at that exchange; no
 * call is held past its deadline.
 */
class FleetColdStartReviewProperties {
  static final long MS = 1_000_000L;
  static final long SECOND = 1_000 * MS;

  sealed interface Event
      permits Traffic, Refuse, OutsideCut, SameExcess, Live, Down, Told, Quiet, LongQuiet {}

  /** Each instance sends at its rate (0: idle) for that long. */
  record Traffic(List<Integer> perSecond, int millis) implements Event {}

  /** One instance gets that many refusals of calls sent now. */
  record Refuse(int instance, int count) implements Event {}

  /** An instance outside the test cut that long ago: negative, ahead of this clock. */
  record OutsideCut(int agoMillis) implements Event {}

  /** Another instance cut that long after one instance's last cut, or now if that is sooner. */
  record SameExcess(int instance, int afterMillis) implements Event {}

  /** The fleet counts that many live instances from now on (0 or negative told as is). */
  record Live(int count) implements Event {}

  /** The fleet cannot be reached, or can again. */
  record Down(boolean down) implements Event {}

  /** The fleet tells this answered figure from now on; null: the sum of what the live told. */
  record Told(Double answered) implements Event {}

  /** Nothing sent for that long. */
  record Quiet(int millis) implements Event {}

  /** Nothing sent for that many minutes. */
  record LongQuiet(int minutes) implements Event {}

  ThrottleTest harness;
  Long cutAt;
  int live;
  boolean down;
  Double toldAnswered;
  double[] answeredOf;
  long[] seenAt;
  double budget;

  // Statistics of a try.
  boolean followed;
  boolean sameExcessSpared;
  boolean firstNewsAfterLearning;
  boolean budgetSplit;

  /** What an exchange told an instance, and what its lane was just before. */
  record Exchange(
      long now,
      Long at,
      boolean learnedBefore,
      long lastCutBefore,
      boolean firstNews,
      boolean moreLive,
      boolean followable) {}

  final class Instance implements Fleet {
    final int index;
    final Throttle throttle;
    int toldLive = 1;
    boolean told;
    final List<Exchange> exchanges = new ArrayList<>();
    final List<Long> refusedAt = new ArrayList<>();
    final Set<Long> followedCuts = new HashSet<>();
    double previous;
    boolean learned;
    long lastCut;
    // The last cut this instance's own refusals called for; null before any.
    Long lastOwnCut;
    final List<long[]> deadlines = new ArrayList<>();
    final List<CompletableFuture<IOException>> waiting = new ArrayList<>();
    double sendDebt;

    Instance(int index) {
      this.index = index;
      this.throttle = budget > 0 ? harness.throttle(budget, 8) : harness.throttle(0, 0);
      this.throttle.shareWith(this, Runnable::run);
      this.previous = throttle.rate(SET);
    }

    private AdaptiveRate lane;

    /** The lane's own rate, made at the first look and the same ever after. */
    AdaptiveRate rate() {
      if (lane == null) {
        lane = FleetColdStartReviewTest.rateOf(throttle);
      }
      return lane;
    }

    @Override
    public Known exchange(String origin, Duration cutAgo, double answeredPerSecond) {
      long now = harness.time.nanoTime();
      if (down) {
        return null;
      }
      if (cutAgo != null) {
        long at = now - cutAgo.toNanos();
        if (cutAt == null || at - cutAt >= AdaptiveRate.MEASURE_WINDOW_NANOS) {
          cutAt = at;
        }
      }
      answeredOf[index] = answeredPerSecond;
      seenAt[index] = now;
      double sum = 0;
      for (int i = 0; i < seenAt.length; i++) {
        if (seenAt[i] != Long.MIN_VALUE && now - seenAt[i] < 1_500 * MS) {
          sum += answeredOf[i];
        }
      }
      double answered = toldAnswered != null ? toldAnswered : sum;
      AdaptiveRate rate = rate();
      boolean learnedBefore = rate.isLearned();
      long lastCutBefore = rate.lastCut();
      Long at = cutAt;
      boolean followable = false;
      if (at != null) {
        long age = now - at;
        boolean aTickersDifference = Math.abs(Duration.ofNanos(age).getSeconds()) < 60;
        long cut = at;
        boolean followedBefore =
            followedCuts.stream()
                .anyMatch(f -> Math.abs(cut - f) < AdaptiveRate.MEASURE_WINDOW_NANOS);
        // Past a window of its last cut, and a second past one of its own refusals.
        followable =
            aTickersDifference
                && age < SECOND
                && !followedBefore
                && (!learnedBefore
                    || at - lastCutBefore >= AdaptiveRate.MEASURE_WINDOW_NANOS
                        && (lastOwnCut == null || at - lastOwnCut >= SECOND));
      }
      int counted = Math.max(1, live);
      boolean firstNews = !told;
      boolean moreLive = counted > toldLive;
      exchanges.add(
          new Exchange(now, at, learnedBefore, lastCutBefore, firstNews, moreLive, followable));
      if (firstNews && learnedBefore) {
        firstNewsAfterLearning = true;
      }
      if (budget > 0 && counted > 1) {
        budgetSplit = true;
      }
      told = true;
      toldLive = counted;
      return new Known(at == null ? null : Duration.ofNanos(now - at), live, answered);
    }

    /** Checks what happened since the last check. */
    void check(long now) {
      AdaptiveRate rate = rate();
      double current = throttle.rate(SET);
      assertThat(current).as("instance %d at %d ms: rate", index, now / MS).isNotNaN().isPositive();
      if (rate.isLearned()) {
        assertThat(current)
            .as("instance %d at %d ms: a learned rate", index, now / MS)
            .isFinite()
            .isGreaterThanOrEqualTo(1);
      }
      if (budget > 0) {
        assertThat(current)
            .as(
                "instance %d at %d ms: over the budget's share (told %d live)",
                index, now / MS, toldLive)
            .isLessThanOrEqualTo(budget / toldLive + 1e-6);
      }
      boolean cut = rate.isLearned() && (!learned || rate.lastCut() != lastCut);
      boolean moreLive = exchanges.stream().anyMatch(Exchange::moreLive);
      boolean firstNews = exchanges.stream().anyMatch(Exchange::firstNews);
      if (cut) {
        long c = rate.lastCut();
        boolean own =
            refusedAt.contains(c) && (!learned || c - lastCut >= AdaptiveRate.MEASURE_WINDOW_NANOS);
        Exchange byFleet =
            exchanges.stream().filter(e -> e.now() == c && e.followable()).findFirst().orElse(null);
        assertThat(own || byFleet != null)
            .as(
                "instance %d: cut at %d ms without a cause (own refusals 100 ms past its last cut"
                    + " at %s ms, or a fleet cut less than 1 s old, 100 ms past its last cut and"
                    + " 1 s past its own); told %s",
                index, c / MS, learned ? String.valueOf(lastCut / MS) : "never", exchanges)
            .isTrue();
        if (own && byFleet == null) {
          lastOwnCut = c;
        } else if (own) {
          // Refusals and a fleet's cut at one instant: whichever came first, that cut is followed.
          followedCuts.add(byFleet.at());
        } else {
          assertThat(followedCuts)
              .as("instance %d: the fleet's cut at %d ms followed twice", index, byFleet.at() / MS)
              .doesNotContain(byFleet.at());
          followedCuts.add(byFleet.at());
          followed = true;
        }
      }
      for (Exchange e : exchanges) {
        if (e.followable()) {
          assertThat(rate.isLearned() && rate.lastCut() - e.now() >= 0)
              .as(
                  "instance %d: a fresh fleet cut at %d ms, past its last (%s ms) and its own,"
                      + " told at %d ms, not followed",
                  index,
                  e.at() / MS,
                  e.learnedBefore() ? String.valueOf(e.lastCutBefore() / MS) : "none",
                  e.now() / MS)
              .isTrue();
        } else if (e.at() != null
            && e.learnedBefore()
            && e.now() - e.at() < SECOND
            && lastOwnCut != null
            && e.at() - lastOwnCut < SECOND
            && e.at() - e.lastCutBefore() >= AdaptiveRate.MEASURE_WINDOW_NANOS) {
          sameExcessSpared = true;
        }
      }
      if (current < previous - 1e-9) {
        assertThat(cut || moreLive || firstNews)
            .as(
                "instance %d: the rate fell from %s to %s at %d ms without a cause",
                index, previous, current, now / MS)
            .isTrue();
      }
      previous = current;
      learned = rate.isLearned();
      lastCut = rate.lastCut();
      exchanges.clear();
      refusedAt.clear();
    }
  }

  @Property(tries = 200, seed = "737639")
  void instancesStartingTogetherKeepEveryPromiseOfTheFleet(
      @ForAll("instanceCounts") int count,
      @ForAll("budgets") int budget,
      @ForAll("upAfter") int upAfter,
      @ForAll("events") List<Event> events) {
    run(count, budget, upAfter, events);
    Statistics.label("an instance followed a cut of the fleet")
        .coverage(c -> c.check(true).percentage(p -> p >= 20));
    Statistics.label("a cut found later spared")
        .coverage(c -> c.check(true).percentage(p -> p >= 10));
    Statistics.label("a first news after learning")
        .coverage(c -> c.check(true).percentage(p -> p >= 10));
    Statistics.label("a budget split").coverage(c -> c.check(true).percentage(p -> p >= 10));
  }

  /**
   * As above, with cuts dated ahead of this instance's clock: a store whose clock runs ahead, or a
   * port that computes an age the wrong way round. "Times cross the port as ages", and the throttle
   * takes an age within a minute either way as a ticker's difference, so such a cut is told at
   * exchange after exchange: still one cut.
   */
  @Property(tries = 100, seed = "737639")
  void aCutDatedAheadOfThisClockIsFollowedOnceAtMost(
      @ForAll("instanceCounts") int count,
      @ForAll("budgets") int budget,
      @ForAll("upAfter") int upAfter,
      @ForAll("aheadEvents") List<Event> events) {
    run(count, budget, upAfter, events);
  }

  /** As above, with quiet spells of minutes, as an application's nights: a learned rate stays. */
  @Property(tries = 100, seed = "737639")
  void aLongQuietSpellLeavesEveryPromiseStanding(
      @ForAll("instanceCounts") int count,
      @ForAll("budgets") int budget,
      @ForAll("upAfter") int upAfter,
      @ForAll("quietEvents") List<Event> events) {
    run(count, budget, upAfter, events);
  }

  /**
   * Runs the events; the fleet cannot be reached before event {@code upAfter} (0: it can from the
   * start), as at a cold start whose first exchanges fail or come late.
   */
  void run(int count, int budget, int upAfter, List<Event> events) {
    // jqwik may keep this object across tries: every try starts from nothing.
    harness = new ThrottleTest();
    cutAt = null;
    live = count;
    down = upAfter > 0;
    toldAnswered = null;
    answeredOf = new double[count];
    seenAt = new long[count];
    java.util.Arrays.fill(seenAt, Long.MIN_VALUE);
    this.budget = budget;
    followed = false;
    sameExcessSpared = false;
    firstNewsAfterLearning = false;
    budgetSplit = false;
    List<Instance> instances = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      instances.add(new Instance(i));
    }
    for (int e = 0; e < events.size(); e++) {
      Event event = events.get(e);
      if (e == upAfter && upAfter > 0) {
        down = false;
      }
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
        long now = harness.time.nanoTime();
        instance.refusedAt.add(now);
        for (int i = 0; i < r.count(); i++) {
          instance.throttle.observe(create(), answer(429, null), now);
        }
        step(instances, Duration.ZERO);
      } else if (event instanceof OutsideCut c) {
        if (!down) {
          keep(harness.time.nanoTime() - c.agoMillis() * MS);
        }
      } else if (event instanceof SameExcess s) {
        AdaptiveRate rate = instances.get(s.instance() % count).rate();
        if (!down && rate.isLearned()) {
          long now = harness.time.nanoTime();
          long at = rate.lastCut() + s.afterMillis() * MS;
          keep(at - now > 0 ? now : at);
        }
      } else if (event instanceof Live l) {
        live = l.count();
      } else if (event instanceof Down d) {
        down = d.down();
      } else if (event instanceof Told t) {
        toldAnswered = t.answered();
      } else if (event instanceof Quiet q) {
        for (int ms = 0; ms < q.millis(); ms += 5) {
          step(instances, Duration.ofMillis(5));
        }
      } else if (event instanceof LongQuiet q) {
        step(instances, Duration.ofMinutes(q.minutes()));
      }
    }
    for (Instance instance : instances) {
      instance.throttle.close();
    }
    Statistics.label("an instance followed a cut of the fleet").collect(followed);
    Statistics.label("a cut found later spared").collect(sameExcessSpared);
    Statistics.label("a first news after learning").collect(firstNewsAfterLearning);
    Statistics.label("a budget split").collect(budgetSplit);
  }

  /** The fleet keeps one cut per window, as DatabaseLimit does. */
  void keep(long at) {
    if (cutAt == null || at - cutAt >= AdaptiveRate.MEASURE_WINDOW_NANOS) {
      cutAt = at;
    }
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
          } else {
            instance.throttle.observe(create(), answer(200, null), now);
          }
        } else {
          assertThat(now)
              .as("instance %d: a call held past its deadline", instance.index)
              .isLessThanOrEqualTo(due);
        }
      }
      instance.check(now);
    }
  }

  @Provide
  Arbitrary<Integer> instanceCounts() {
    return Arbitraries.integers().between(2, 4);
  }

  @Provide
  Arbitrary<Integer> upAfter() {
    return Arbitraries.frequencyOf(
        Tuple.of(1, Arbitraries.just(0)), Tuple.of(1, Arbitraries.integers().between(1, 6)));
  }

  @Provide
  Arbitrary<Integer> budgets() {
    return Arbitraries.frequencyOf(
        Tuple.of(2, Arbitraries.just(0)), Tuple.of(1, Arbitraries.integers().between(40, 400)));
  }

  Arbitrary<Event> traffic() {
    return Combinators.combine(
            Arbitraries.frequencyOf(
                    Tuple.of(1, Arbitraries.just(0)),
                    Tuple.of(4, Arbitraries.integers().between(20, 600)))
                .list()
                .ofMinSize(1)
                .ofMaxSize(4),
            Arbitraries.integers().between(100, 1_500))
        .as(Traffic::new);
  }

  Arbitrary<Event> refuse() {
    return Combinators.combine(
            Arbitraries.integers().between(0, 3), Arbitraries.integers().between(5, 40))
        .as(Refuse::new);
  }

  Arbitrary<Event> sameExcess() {
    return Combinators.combine(
            Arbitraries.integers().between(0, 3), Arbitraries.integers().between(0, 1_300))
        .as(SameExcess::new);
  }

  Arbitrary<Event> live() {
    return Arbitraries.integers().between(-1, 5).map(Live::new);
  }

  Arbitrary<Event> downOrUp() {
    return Arbitraries.of(true, false).map(Down::new);
  }

  Arbitrary<Event> told() {
    Arbitrary<Double> figures =
        Arbitraries.of(
            -1.0,
            0.0,
            0.5,
            300.0,
            2_000.0,
            Double.NaN,
            Double.POSITIVE_INFINITY,
            Double.NEGATIVE_INFINITY);
    return figures.injectNull(0.4).map(Told::new);
  }

  @Provide
  Arbitrary<List<Event>> events() {
    Arbitrary<Event> outside =
        Arbitraries.oneOf(
                Arbitraries.integers().between(0, 900),
                Arbitraries.integers().between(1_050, 5_000))
            .map(OutsideCut::new);
    Arbitrary<Event> quiet = Arbitraries.integers().between(100, 2_000).map(Quiet::new);
    return Arbitraries.frequencyOf(
            Tuple.of(6, traffic()),
            Tuple.of(4, refuse()),
            Tuple.of(3, outside),
            Tuple.of(3, sameExcess()),
            Tuple.of(2, live()),
            Tuple.of(1, downOrUp()),
            Tuple.of(1, told()),
            Tuple.of(1, quiet))
        .list()
        .ofMinSize(4)
        .ofMaxSize(20);
  }

  @Provide
  Arbitrary<List<Event>> aheadEvents() {
    Arbitrary<Event> outside =
        Arbitraries.oneOf(
                Arbitraries.integers().between(0, 900),
                Arbitraries.integers().between(-5_000, -100),
                Arbitraries.integers().between(1_050, 5_000))
            .map(OutsideCut::new);
    Arbitrary<Event> quiet = Arbitraries.integers().between(100, 2_000).map(Quiet::new);
    return Arbitraries.frequencyOf(
            Tuple.of(6, traffic()),
            Tuple.of(4, refuse()),
            Tuple.of(4, outside),
            Tuple.of(1, sameExcess()),
            Tuple.of(1, live()),
            Tuple.of(1, downOrUp()),
            Tuple.of(1, told()),
            Tuple.of(1, quiet))
        .list()
        .ofMinSize(4)
        .ofMaxSize(16);
  }

  @Provide
  Arbitrary<List<Event>> quietEvents() {
    Arbitrary<Event> outside =
        Arbitraries.oneOf(
                Arbitraries.integers().between(0, 900),
                Arbitraries.integers().between(1_050, 5_000))
            .map(OutsideCut::new);
    Arbitrary<Event> longQuiet = Arbitraries.integers().between(1, 30).map(LongQuiet::new);
    return Arbitraries.frequencyOf(
            Tuple.of(6, traffic()),
            Tuple.of(4, refuse()),
            Tuple.of(2, outside),
            Tuple.of(1, live()),
            Tuple.of(1, downOrUp()),
            Tuple.of(1, told()),
            Tuple.of(2, longQuiet))
        .list()
        .ofMinSize(4)
        .ofMaxSize(16);
  }
}
