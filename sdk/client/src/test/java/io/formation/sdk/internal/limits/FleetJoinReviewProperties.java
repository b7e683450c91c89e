package io.formation.sdk.internal.limits;

import static org.assertj.core.api.Assertions.assertThat;

import io.formation.sdk.internal.guards.Origins;
import io.formation.sdk.internal.limits.FleetJoinReviewTest.Rig;
import io.formation.sdk.internal.transport.ApiRequest;
import java.io.IOException;
import java.lang.reflect.Field;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.statistics.Statistics;
import okhttp3.HttpUrl;

/**
 * The three rules of the join over random sequences of events on one throttle whose base URL's
 * origin is {@code api.example.com} and whose calls go there or to {@code files.example.com}, on a
 * manual clock whose ticker starts anywhere (0, far negative, just short of {@code
 * Long.MAX_VALUE}): traffic answered at once, bursts of refusals (of either origin, before any call
 * among them), quiet spells (0, just under, at and over two windows and a second, minutes), cuts of
 * other instances, and live counts and answered figures told by the fleet (NaN, negative,
 * infinite).
 *
 * <p>Checked at each trade: the answered figure told is finite and not negative, and after a quiet
 * spell of T of two windows or more at most what the open window held over T; a lane trades once
 * (its join) until it sends, then only within a second of its last send, and within 100 ms of each
 * send. Checked after each step of at most 50 ms, for each cut: one less than a second after the
 * lane's first request is not held; one a second or more after it, with a window measured and a
 * second of sending since the lane came back to use, is held (its hold read from the rate).
 */
class FleetJoinReviewProperties {
  static final long MS = 1_000_000L;
  static final long SECOND = 1_000 * MS;
  static final long WINDOW = AdaptiveRate.MEASURE_WINDOW_NANOS;

  sealed interface Event permits Traffic, Refuse, Quiet, LongQuiet, FleetCut, FleetSays {}

  /** Calls to the home origin or the other, at that rate, for that long, answered at once. */
  record Traffic(boolean home, int perSecond, int millis) implements Event {}

  /** That many refusals of calls to the home origin or the other, sent now. */
  record Refuse(boolean home, int count) implements Event {}

  /** Nothing sent for that long. */
  record Quiet(int millis) implements Event {}

  /** Nothing sent for that many minutes. */
  record LongQuiet(int minutes) implements Event {}

  /** Another instance cut that long ago, told from now on. */
  record FleetCut(int agoMillis) implements Event {}

  /** The fleet tells that many live instances and that answered figure from now on. */
  record FleetSays(int live, double answered) implements Event {}

  @Property(tries = 400, seed = "20261127")
  void aJoinedLaneTradesOnceUntilItSendsThenOnlyWhileInUseAndTellsAnswersAsTheyAreLately(
      @ForAll("origins") long origin, @ForAll("events") List<Event> events) {
    Sim sim = new Sim(origin, false, false);
    sim.run(events);
    Statistics.label("home sent").collect(sim.home.sent);
    Statistics.label("a spell told").collect(sim.spellTold);
  }

  @Property(tries = 400, seed = "20261127")
  void aCutInTheFirstSecondOfSendingIsNeverHeldAndOneAfterASecondOfMeasuredSendingIs(
      @ForAll("origins") long origin, @ForAll("events") List<Event> events) {
    Sim sim = new Sim(origin, true, false);
    sim.run(events);
    Statistics.label("a guess").collect(sim.guesses > 0);
    Statistics.label("a held cut").collect(sim.helds > 0);
  }

  /**
   * Within a window after a quiet spell ends, the figure told is the spell's or the resumed calls',
   * never the smoothed rate from before the spell.
   */
  @Property(tries = 400, seed = "20261127")
  void answersToldJustAfterAQuietSpellEndsAreNotThoseBeforeIt(
      @ForAll("origins") long origin, @ForAll("events") List<Event> events) {
    new Sim(origin, false, true).run(events);
  }

  @Provide
  Arbitrary<Long> origins() {
    return Arbitraries.of(
        0L, -4_000_000_000_000_000_000L, Long.MAX_VALUE - 2 * SECOND, Long.MIN_VALUE + 1);
  }

  @Provide
  Arbitrary<List<Event>> events() {
    Arbitrary<Event> traffic =
        Combinators.combine(
                Arbitraries.of(true, true, false),
                Arbitraries.of(20, 50, 200, 800),
                Arbitraries.integers().between(0, 1_500))
            .as((home, rate, millis) -> (Event) new Traffic(home, rate, millis));
    Arbitrary<Event> refuse =
        Combinators.combine(
                Arbitraries.of(true, true, false), Arbitraries.integers().between(1, 40))
            .as((home, count) -> (Event) new Refuse(home, count));
    Arbitrary<Event> quiet =
        Arbitraries.oneOf(
                Arbitraries.of(0, 199, 200, 201, 250, 999, 1_000, 1_001),
                Arbitraries.integers().between(0, 3_000))
            .map(millis -> (Event) new Quiet(millis));
    Arbitrary<Event> longQuiet =
        Arbitraries.integers().between(1, 3).map(minutes -> (Event) new LongQuiet(minutes));
    Arbitrary<Event> fleetCut =
        Arbitraries.integers().between(0, 1_500).map(ago -> (Event) new FleetCut(ago));
    Arbitrary<Event> says =
        Combinators.combine(
                Arbitraries.integers().between(1, 5),
                Arbitraries.of(0.0, 100.0, 1_000.0, Double.NaN, -5.0, Double.POSITIVE_INFINITY))
            .as((live, answered) -> (Event) new FleetSays(live, answered));
    return Arbitraries.frequencyOf(
            Tuple.of(6, traffic),
            Tuple.of(3, refuse),
            Tuple.of(3, quiet),
            Tuple.of(1, longQuiet),
            Tuple.of(2, fleetCut),
            Tuple.of(1, says))
        .list()
        .ofMinSize(1)
        .ofMaxSize(20);
  }

  /** One origin as the test saw it; times on the fake clock, nanoseconds from the test's start. */
  static final class Seen {
    final HttpUrl url;
    final String origin;
    final List<Long> sends = new ArrayList<>();
    final List<Long> answers = new ArrayList<>();
    final TreeSet<Long> tradedAt = new TreeSet<>();
    boolean sent;
    long firstSend;
    long lastSend;
    // The first send after a second or more without one: when the lane came back to use.
    long sendingSince;
    // The start of the run of sends at most 50 ms apart; whether one lasted 150 ms, which closes
    // a window of the meters at less than two windows' length.
    long runStart;
    boolean measured;
    int tradesBeforeFirstSend;
    int trades;
    boolean learned;
    long lastCut;

    Seen(HttpUrl url) {
      this.url = url;
      this.origin = Origins.origin(url);
    }

    void sent(long now) {
      if (!sent || now - lastSend >= SECOND) {
        sendingSince = now;
      }
      if (!sent || now - lastSend > 50 * MS) {
        runStart = now;
      }
      if (!sent) {
        firstSend = now;
      }
      sent = true;
      lastSend = now;
      measured |= now - runStart >= 150 * MS;
      sends.add(now);
    }

    /** Answers in (from, to]. */
    long answersIn(long from, long to) {
      return answers.stream().filter(a -> a > from && a <= to).count();
    }
  }

  final class Sim implements Fleet {
    final Rig rig;
    final boolean checkCuts;
    final boolean checkResumed;
    final Throttle throttle;
    final Seen home = new Seen(FleetJoinReviewTest.HOME_CALL);
    final Seen other = new Seen(FleetJoinReviewTest.OTHER);
    Long cutAt;
    int live = 1;
    double answered;
    int pending;
    boolean spellTold;
    int guesses;
    int helds;

    Sim(long origin, boolean checkCuts, boolean checkResumed) {
      this.rig = new Rig(origin);
      this.checkCuts = checkCuts;
      this.checkResumed = checkResumed;
      this.throttle = rig.throttle();
      throttle.shareWith(this, Runnable::run, FleetJoinReviewTest.HOME);
    }

    long fake() {
      return rig.fake.nanoTime();
    }

    Seen seen(String origin) {
      return origin.equals(home.origin) ? home : origin.equals(other.origin) ? other : null;
    }

    // A failure inside a trade would end the tick's chain silently: kept, and thrown at the next
    // step.
    AssertionError failure;

    @Override
    public Known exchange(String origin, Duration cutAgo, double answeredPerSecond) {
      try {
        checkTrade(origin, answeredPerSecond);
      } catch (AssertionError e) {
        failure = failure == null ? e : failure;
      }
      return new Known(cutAt == null ? null : Duration.ofNanos(rig.now() - cutAt), live, answered);
    }

    void checkTrade(String origin, double answeredPerSecond) {
      long now = fake();
      Seen o = seen(origin);
      assertThat(o).as("traded for %s", origin).isNotNull();
      assertThat(answeredPerSecond)
          .as("%s at %d ms: answered told", origin, now / MS)
          .isFinite()
          .isNotNegative();
      if (o.trades > 0) {
        assertThat(o.sent && now - o.lastSend < SECOND)
            .as(
                "%s traded again at %d ms, its last send at %s ms",
                origin, now / MS, o.sent ? String.valueOf(o.lastSend / MS) : "never")
            .isTrue();
      }
      if (!o.sent) {
        o.tradesBeforeFirstSend++;
      }
      o.trades++;
      o.tradedAt.add(now);
      if (!o.answers.isEmpty()) {
        long last = o.answers.get(o.answers.size() - 1);
        long quiet = now - last;
        if (quiet >= 2 * WINDOW) {
          spellTold = true;
          // The open window started less than a window before its last event.
          double bound = o.answersIn(last - WINDOW, last) * 1e9 / quiet;
          assertThat(answeredPerSecond)
              .as("%s at %d ms, quiet for %d ms: answered told", origin, now / MS, quiet / MS)
              .isLessThanOrEqualTo(bound + 1e-9);
        }
        if (checkResumed) {
          checkResumed(o, now, answeredPerSecond);
        }
      }
    }

    /** Within a window of the end of the last quiet spell: the spell's, or the resumed calls'. */
    void checkResumed(Seen o, long now, double told) {
      List<Long> answers = o.answers;
      for (int i = answers.size() - 1; i > 0; i--) {
        long before = answers.get(i - 1);
        long after = answers.get(i);
        if (after - before >= 2 * WINDOW) {
          if (now - after < WINDOW) {
            double spell = o.answersIn(before - WINDOW, now) * 1e9 / (now - before);
            double resumed = o.answersIn(after - 1, now) * 1e9 / Math.max(now - after, MS);
            assertThat(told)
                .as(
                    "%s at %d ms: answered told %d ms after a quiet spell of %d ms",
                    o.origin, now / MS, (now - after) / MS, (after - before) / MS)
                .isLessThanOrEqualTo(Math.max(spell, resumed) + 1e-9);
          }
          return;
        }
      }
    }

    void run(List<Event> events) {
      for (Event event : events) {
        if (event instanceof Traffic t) {
          traffic(t.home() ? home : other, t.perSecond(), t.millis() * MS);
        } else if (event instanceof Refuse r) {
          Seen o = r.home() ? home : other;
          for (int i = 0; i < r.count(); i++) {
            throttle.observe(Rig.call(o.url), ThrottleTest.answer(429, null), rig.now());
          }
          check();
        } else if (event instanceof Quiet q) {
          quiet(q.millis() * MS);
        } else if (event instanceof LongQuiet q) {
          quiet(Duration.ofMinutes(q.minutes()).toNanos());
        } else if (event instanceof FleetCut c) {
          cutAt = rig.now() - c.agoMillis() * MS;
        } else if (event instanceof FleetSays s) {
          live = s.live();
          answered = s.answered();
        }
      }
      check();
      long end = fake();
      assertThat(home.tradesBeforeFirstSend).as("the home's trades before it sent").isEqualTo(1);
      assertThat(other.tradesBeforeFirstSend)
          .as("the other origin's trades before it sent")
          .isLessThanOrEqualTo(1);
      for (Seen o : List.of(home, other)) {
        for (long s : o.sends) {
          if (s + Throttle.SHARE_EVERY.toNanos() <= end) {
            Long traded = o.tradedAt.ceiling(s);
            assertThat(traded != null && traded - s <= Throttle.SHARE_EVERY.toNanos())
                .as("%s sent at %d ms, next trade at %s", o.origin, s / MS, traded)
                .isTrue();
          }
        }
      }
    }

    void traffic(Seen o, int perSecond, long during) {
      long gap = SECOND / perSecond;
      for (long at = 0; at < during; at += gap) {
        if (pending < 50) {
          send(o);
        }
        rig.advance(Duration.ofNanos(Math.min(gap, during - at)));
        check();
      }
    }

    void send(Seen o) {
      ApiRequest call = Rig.call(o.url);
      pending++;
      CompletableFuture<IOException> turn = throttle.acquire(call);
      turn.whenComplete(
          (refused, failure) -> {
            pending--;
            if (failure == null && refused == null && !throttle.leaving(o.url)) {
              o.sent(fake());
              throttle.observe(call, ThrottleTest.answer(200, null), rig.now());
              o.answers.add(fake());
            }
          });
    }

    void quiet(long nanos) {
      long steps = Math.min(nanos, 2 * SECOND);
      for (long at = 0; at < steps; at += 50 * MS) {
        rig.advance(Duration.ofNanos(Math.min(50 * MS, steps - at)));
        check();
      }
      if (nanos > steps) {
        rig.advance(Duration.ofNanos(nanos - steps));
        check();
      }
    }

    void check() {
      if (failure != null) {
        throw failure;
      }
      if (!checkCuts) {
        return;
      }
      for (Seen o : List.of(home, other)) {
        AdaptiveRate rate = laneRate(o.url);
        if (rate == null || !rate.isLearned() || o.learned && rate.lastCut() == o.lastCut) {
          continue;
        }
        long cut = rate.lastCut();
        o.learned = true;
        o.lastCut = cut;
        long at = cut - rig.origin;
        boolean held = held(rate, cut);
        if (!o.sent || at - o.firstSend < SECOND) {
          guesses++;
          assertThat(held)
              .as(
                  "%s cut at %d ms, %s: held",
                  o.origin,
                  at / MS,
                  o.sent ? (at - o.firstSend) / MS + " ms after its first send" : "never sent")
              .isFalse();
        } else if (o.measured && at - o.sendingSince >= SECOND) {
          helds++;
          assertThat(held)
              .as(
                  "%s cut at %d ms, %d ms after its first send, %d ms after it came back to use:"
                      + " held",
                  o.origin, at / MS, (at - o.firstSend) / MS, (at - o.sendingSince) / MS)
              .isTrue();
        }
      }
    }

    /** The lane's rate for the url's origin, or null before its lane exists. */
    AdaptiveRate laneRate(HttpUrl url) {
      try {
        Field lanes = Throttle.class.getDeclaredField("lanes");
        lanes.setAccessible(true);
        Object lane = ((Map<?, ?>) lanes.get(throttle)).get(Origins.origin(url));
        return lane == null ? null : ((TurnQueue) lane).rate;
      } catch (ReflectiveOperationException e) {
        throw new AssertionError(e);
      }
    }
  }

  /**
   * Whether the last cut is held: its hold, read from the rate (the rate alone cannot tell a hold
   * from a guess pinned at the floor of one request a second).
   */
  static boolean held(AdaptiveRate rate, long cut) {
    try {
      Field hold = AdaptiveRate.class.getDeclaredField("hold");
      hold.setAccessible(true);
      return hold.getDouble(rate) > 0;
    } catch (ReflectiveOperationException e) {
      throw new AssertionError(e);
    }
  }
}
