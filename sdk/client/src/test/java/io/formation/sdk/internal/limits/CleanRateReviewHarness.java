package io.formation.sdk.internal.limits;

import static io.formation.sdk.internal.limits.RatePromisesReviewTest.SET;
import static io.formation.sdk.internal.limits.RatePromisesReviewTest.answer;
import static io.formation.sdk.internal.limits.RatePromisesReviewTest.create;

import io.formation.sdk.TestFailures;
import io.formation.sdk.internal.Port;
import io.formation.sdk.internal.guards.Origins;
import io.formation.sdk.internal.time.TestSleepers;
import io.formation.sdk.internal.time.Time;
import io.formation.testkit.FakeTime;
import java.io.IOException;
import java.lang.reflect.Field;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.function.BooleanSupplier;

/**
 * The review of the clean rate and the cut to what a limit answered: one to three instances, each
 * its own throttle, against one service's token bucket (with its own burst, noise, latency and
 * Retry-After), sharing what they learn through a store kept as {@code DatabaseLimit} keeps it, or
 * not at all; on a manual clock whose ticker starts anywhere ({@code origin}: 0, far negative, or
 * just short of {@code Long.MAX_VALUE}, so that it wraps). The simulation keeps its own time from 0
 * (never wrapping); only what the throttles read is shifted by {@code origin}.
 *
 * <p>Each millisecond every running instance tops its waiting calls up (or offers its rate), the
 * clock moves on, the calls given a turn go on the wire (unless the origin is paused then: a turn
 * the queue releases during a pause is stopped on its way out, as the transport's {@code
 * PausedBeforeSending}, and its call asks again), and those whose latency has passed are answered
 * in the order they arrive: refused at random as noise, answered on a token of the service's
 * bucket, or refused as past the limit. The throttles' rates are read every millisecond for the
 * invariants (a number, never under the floor, once learned never infinite again), and each change
 * of an instance's last cut is counted as a cut, each pause its port hears as a pause.
 */
final class CleanRateReviewHarness {
  static final long MS = 1_000_000L;
  static final long SECOND = 1_000 * MS;

  final FakeTime clock = FakeTime.manual();
  final long origin;
  final Random random;
  final Time time;
  final RetryPolicy policy;

  // The service.
  double limit = Double.POSITIVE_INFINITY;
  double burst = 100;
  double tokens = 100;
  double noise;
  String noiseRetryAfter = "0";
  String limitRetryAfter = "1";
  int minLatencyMs = 1;
  int maxLatencyMs = 1;
  private long refilled;

  final List<Instance> instances = new ArrayList<>();
  final Store store;

  record Flight(long at, long sentAt, Instance instance) {}

  private final PriorityQueue<Flight> inFlight =
      new PriorityQueue<>(
          (a, b) ->
              a.at() != b.at()
                  ? Long.compare(a.at(), b.at())
                  : Long.compare(a.sentAt(), b.sentAt()));

  /** One instance, alone (no store), on a ticker from {@code origin}. */
  CleanRateReviewHarness(long seed, long origin) {
    this(seed, origin, 1, false);
  }

  /** {@code count} instances, sharing through a store if {@code shared}. */
  CleanRateReviewHarness(long seed, long origin, int count, boolean shared) {
    this(seed, origin, count, shared, null);
  }

  /** One instance, sharing through {@code fleet}, a store the test tells what to say. */
  CleanRateReviewHarness(long seed, Fleet fleet) {
    this(seed, 0, 1, false, fleet);
  }

  private CleanRateReviewHarness(long seed, long origin, int count, boolean shared, Fleet fleet) {
    this.origin = origin;
    this.random = new Random(seed);
    Random jitter = new Random(seed * 31 + 7);
    this.time =
        new Time(
            clock,
            () -> clock.nanoTime() + origin,
            TestSleepers.of(clock::sleep, clock::delay),
            jitter::nextDouble);
    this.policy = new RetryPolicy(2, Duration.ofMinutes(1), Duration.ZERO, time);
    this.store = shared ? new Store(count) : null;
    for (int i = 0; i < count; i++) {
      instances.add(new Instance(i));
    }
    if (fleet != null) {
      first().throttle.shareWith(fleet, Runnable::run, SET);
    }
  }

  /** The simulation's own time, nanoseconds from 0. */
  long local() {
    return clock.nanoTime();
  }

  /** What the throttles read at a simulation time. */
  long ticker(long local) {
    return local + origin;
  }

  Instance first() {
    return instances.get(0);
  }

  void setLimit(double perSecond, double burstSeconds) {
    limit = perSecond;
    burst = Math.max(1, perSecond * burstSeconds);
    tokens = burst;
  }

  /** Answered and refused of each span, summed over the instances. */
  List<int[]> serve(Duration during) {
    return serve(during, Duration.ofSeconds(1));
  }

  List<int[]> serve(Duration during, Duration each) {
    List<int[]> spans = new ArrayList<>();
    long spanMs = each.toMillis();
    for (long ms = 0; ms < during.toMillis(); ms++) {
      if (ms % spanMs == 0) {
        spans.add(new int[2]);
      }
      step(spans.get(spans.size() - 1));
    }
    return spans;
  }

  /** Serves until {@code done} holds (checked each millisecond), at most {@code atMost}. */
  boolean serveUntil(BooleanSupplier done, Duration atMost) {
    int[] ignored = new int[2];
    for (long ms = 0; ms < atMost.toMillis(); ms++) {
      if (done.getAsBoolean()) {
        return true;
      }
      step(ignored);
    }
    return done.getAsBoolean();
  }

  private void step(int[] span) {
    for (Instance instance : instances) {
      instance.offer();
    }
    clock.advance(Duration.ofMillis(1));
    long now = local();
    if (limit != Double.POSITIVE_INFINITY) {
      tokens = Math.min(burst, tokens + (now - refilled) * limit / 1e9);
    }
    refilled = now;
    for (Instance instance : instances) {
      for (var it = instance.waiting.iterator(); it.hasNext(); ) {
        Call call = it.next();
        CompletableFuture<IOException> turn = call.turn;
        if (turn.isDone()) {
          it.remove();
          // A turn given during a pause is stopped on its way out, nothing sent: its call asks
          // again (the top-up), as the transport's PausedBeforeSending does.
          if (!turn.isCompletedExceptionally() && !turn.isCancelled() && !call.stopped) {
            int latency = minLatencyMs + random.nextInt(maxLatencyMs - minLatencyMs + 1);
            inFlight.add(new Flight(now - MS + latency * MS, now - MS, instance));
          }
        }
      }
    }
    while (!inFlight.isEmpty() && inFlight.peek().at() <= now) {
      Flight flight = inFlight.poll();
      Instance instance = flight.instance();
      int[] own = instance.span(now);
      long sentAt = ticker(flight.sentAt());
      if (random.nextDouble() < noise) {
        span[1]++;
        own[1]++;
        instance.throttle.observe(create(), answer(429, noiseRetryAfter), sentAt);
      } else if (limit == Double.POSITIVE_INFINITY || tokens >= 1) {
        tokens--;
        span[0]++;
        own[0]++;
        instance.throttle.observe(create(), answer(200, null), sentAt);
      } else {
        span[1]++;
        own[1]++;
        instance.throttle.observe(create(), answer(429, limitRetryAfter), sentAt);
      }
    }
    for (Instance instance : instances) {
      instance.read(now);
    }
  }

  /** A call waiting for its turn; given one, it leaves for the wire unless the origin is paused. */
  static final class Call {
    final CompletableFuture<IOException> turn;
    volatile boolean stopped;

    Call(Throttle throttle) {
      turn = throttle.acquire(create());
      turn.thenRun(() -> stopped = throttle.leaving(SET));
    }
  }

  /** One instance: its throttle, its calls, what it was answered and what its rate did. */
  final class Instance {
    final int index;
    final Throttle throttle;
    boolean running = true;
    int waitingCalls = 100;
    double offered = Double.POSITIVE_INFINITY;
    private double owed;
    final List<Call> waiting = new ArrayList<>();
    // Answered and refused of each second of the run, from its start.
    final List<int[]> seconds = new ArrayList<>();
    private AdaptiveRate rate;
    private long lastCutSeen;
    private boolean learnedSeen;
    final List<Long> cutTimes = new ArrayList<>();
    final List<Long> pauseTimes = new ArrayList<>();
    double lowestRate = Double.POSITIVE_INFINITY;
    String broken;
    // The rate every 100 ms, for the story of a failure.
    final List<Double> tenths = new ArrayList<>();

    Instance(int index) {
      this.index = index;
      Port port = counting(this);
      this.throttle = new Throttle(time, policy, port, 0, 0);
      if (store != null) {
        throttle.shareWith(store.view(index), Runnable::run, SET);
      }
    }

    int[] span(long now) {
      int second = (int) (now / SECOND);
      while (seconds.size() <= second) {
        seconds.add(new int[2]);
      }
      return seconds.get(second);
    }

    void offer() {
      if (!running) {
        return;
      }
      if (offered == Double.POSITIVE_INFINITY) {
        while (waiting.size() < waitingCalls) {
          waiting.add(new Call(throttle));
        }
      } else {
        owed += offered / 1_000;
        for (; owed >= 1; owed--) {
          if (waiting.size() < waitingCalls) {
            waiting.add(new Call(throttle));
          }
        }
      }
    }

    void stop() {
      running = false;
      waiting.forEach(call -> call.turn.cancel(false));
      waiting.clear();
    }

    AdaptiveRate rate() {
      if (rate == null) {
        throttle.rate(SET);
        rate = rateOf(throttle);
      }
      return rate;
    }

    private void read(long now) {
      double r = throttle.rate(SET);
      AdaptiveRate adaptive = rate();
      if (broken == null) {
        if (Double.isNaN(r)) {
          broken = "NaN at " + now / MS + " ms";
        } else if (r < AdaptiveRate.MIN_RATE) {
          broken = r + "/s at " + now / MS + " ms";
        } else if (learnedSeen && Double.isInfinite(r)) {
          broken = "infinite once learned, at " + now / MS + " ms";
        }
      }
      if (adaptive.isLearned()) {
        if (!learnedSeen || adaptive.lastCut() != lastCutSeen) {
          cutTimes.add(now);
        }
        learnedSeen = true;
        lastCutSeen = adaptive.lastCut();
      }
      lowestRate = Math.min(lowestRate, r);
      if (now % (100 * MS) == 0) {
        tenths.add(r);
      }
    }

    /** Cuts from {@code from} (simulation time) on. */
    long cutsSince(long from) {
      return cutTimes.stream().filter(at -> at >= from).count();
    }

    long pausesSince(long from) {
      return pauseTimes.stream().filter(at -> at >= from).count();
    }

    double clean() {
      return field(rate(), "clean");
    }

    double lastMaxRate() {
      return field(rate(), "lastMaxRate");
    }

    /** Seconds past the climb from the last cut: negative while it climbs. */
    double afterClimb() {
      AdaptiveRate adaptive = rate();
      long climbFrom = longField(adaptive, "climbFrom");
      double climb = field(adaptive, "climb");
      return Math.max(0, ticker(local()) - climbFrom) / 1e9 - climb;
    }

    boolean isHolding() {
      double t = afterClimb();
      return rate().isLearned() && t >= 0 && t < field(rate(), "hold");
    }

    boolean isProbing() {
      double t = afterClimb();
      return rate().isLearned() && t >= field(rate(), "hold") && field(rate(), "hold") > 0;
    }

    boolean isClimbing() {
      return rate().isLearned() && afterClimb() < 0;
    }

    /** The rate's story: its cuts, pauses and every 100 ms of the last seconds, for a failure. */
    String story(long from) {
      StringBuilder text = new StringBuilder();
      text.append("instance ").append(index);
      text.append(", cuts at ms ").append(msList(cutTimes, from));
      text.append(", pauses at ms ").append(msList(pauseTimes, from));
      text.append(String.format(", clean %.0f, lastMaxRate %.0f", clean(), lastMaxRate()));
      text.append(", per second ")
          .append(
              RatePromisesReviewTest.perSecond(
                  seconds.subList((int) Math.min(seconds.size(), from / SECOND), seconds.size())));
      text.append(", rate by tenth from ").append(from / MS).append(" ms:");
      int start = (int) (from / (100 * MS));
      for (int i = Math.max(0, start); i < tenths.size(); i++) {
        text.append(' ').append(Math.round(tenths.get(i)));
      }
      return text.toString();
    }
  }

  private static String msList(List<Long> times, long from) {
    StringBuilder text = new StringBuilder("[");
    times.stream().filter(at -> at >= from).forEach(at -> text.append(at / MS).append(' '));
    return text.toString().trim() + "]";
  }

  /** A port that counts the pauses it hears, and makes every exception as the tests' port does. */
  private Port counting(Instance instance) {
    Port failures = (Port) TestFailures.INSTANCE;
    return (Port)
        Proxy.newProxyInstance(
            Port.class.getClassLoader(),
            new Class<?>[] {Port.class},
            (proxy, method, args) -> {
              if (method.getName().equals("paused")) {
                instance.pauseTimes.add(local());
              }
              try {
                return method.invoke(failures, args);
              } catch (InvocationTargetException e) {
                throw e.getCause();
              }
            });
  }

  /** The store of the instances' fleet, as DatabaseLimit keeps it, on the throttles' ticker. */
  final class Store {
    Long cutAt;
    final double[] answered;
    final long[] seen;
    int cuts;

    Store(int count) {
      answered = new double[count];
      seen = new long[count];
      java.util.Arrays.fill(seen, Long.MIN_VALUE);
    }

    Fleet view(int index) {
      return (origin, cutAgo, answeredPerSecond) -> {
        long now = ticker(local());
        if (cutAgo != null) {
          long at = now - cutAgo.toNanos();
          if (cutAt == null || at - cutAt >= AdaptiveRate.MEASURE_WINDOW_NANOS) {
            cutAt = at;
            cuts++;
          }
        }
        answered[index] = answeredPerSecond;
        seen[index] = local();
        int live = 0;
        double sum = 0;
        for (int i = 0; i < seen.length; i++) {
          if (seen[i] != Long.MIN_VALUE && local() - seen[i] < 1_500 * MS) {
            live++;
            sum += answered[i];
          }
        }
        return new Fleet.Known(
            cutAt == null ? null : Duration.ofNanos(now - cutAt), Math.max(1, live), sum);
      };
    }
  }

  /** The lane's adaptive rate for the one origin the harness calls. */
  static AdaptiveRate rateOf(Throttle throttle) {
    try {
      Field lanes = Throttle.class.getDeclaredField("lanes");
      lanes.setAccessible(true);
      Map<?, ?> byOrigin = (Map<?, ?>) lanes.get(throttle);
      return ((TurnQueue) byOrigin.get(Origins.origin(SET))).rate;
    } catch (ReflectiveOperationException e) {
      throw new AssertionError(e);
    }
  }

  static long longField(AdaptiveRate rate, String name) {
    return ((Number) read(rate, name)).longValue();
  }

  /** A private number of the rate, read to place a test's change and for its story. */
  static double field(AdaptiveRate rate, String name) {
    return ((Number) read(rate, name)).doubleValue();
  }

  private static Object read(AdaptiveRate rate, String name) {
    try {
      Field field = AdaptiveRate.class.getDeclaredField(name);
      field.setAccessible(true);
      return field.get(rate);
    } catch (ReflectiveOperationException e) {
      throw new AssertionError(e);
    }
  }
}
