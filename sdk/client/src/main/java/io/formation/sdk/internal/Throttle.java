package io.formation.sdk.internal;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Future;
import okhttp3.Headers;
import okhttp3.HttpUrl;

/**
 * One client's view of the service's limits, per origin, shared by blocking and async calls and by
 * every wait.
 *
 * <ul>
 *   <li>A 429 or 503 with {@code Retry-After} pauses every call to that origin until the time given
 *       (at most {@code maxRetryAfter}), each resuming with its own jitter so they do not return as
 *       one burst.
 *   <li>The rate is adaptive: a refusal (429 or 503) sets a token bucket to 70% of the rate the
 *       client was sending at, or of the rate the service answered at if that was lower (AWS: the
 *       sending rate only; when far more is sent than the service allows, what it answered is the
 *       better guess of its limit, as BBR paces at the rate delivered). The rate then climbs back
 *       along a CUBIC curve, in {@link #CLIMB_SECONDS} whatever the rate (AWS: {@code cbrt(rate *
 *       0.75)} seconds, 11 s at 2,000 a second), to 90% of the rate it was cut from, and holds
 *       there for {@link #HOLD_SECONDS} (AWS: none, its curve probes on at once): each probe past
 *       the service's limit costs every call of the client the pause of a {@code Retry-After}, so a
 *       limit measured once is probed seldom. Past the hold, unrefused, the rate doubles every
 *       second, so a limit that was raised is found within seconds of the probe. A cut from rates
 *       measured over less than one window (a refusal in the first 100 ms, or with too few calls to
 *       measure) is a guess, not to be held: the rate climbs back from it as AWS's does, to the
 *       rate cut from, and doubles from there. A refusal cuts again only if its request was sent at
 *       least one measuring window (100 ms) after the last cut (AWS cuts for each): the refusals of
 *       requests already in flight, or sent while the service's own bucket was still empty, would
 *       otherwise cut the rate again and again within milliseconds, down to the floor.
 *   <li>An optional request budget is a ceiling on that rate.
 * </ul>
 *
 * Calls waiting for the bucket are served first come, first served, creates, forms and actions
 * ahead of polls, unless a poll has waited {@link #POLL_HANDICAP} longer than the interactive call
 * ahead of it, so polls are served under any steady load. No call is held past its own timeout or
 * its wait's deadline: it fails at once with a {@code RateLimitException} when the hold is known to
 * be longer, or when its deadline passes in the queue. Every wait is a future on the client's
 * sleeper: async calls park no thread, and a turn whose future was completed or cancelled by the
 * caller is skipped, spends no token, and no longer counts in the wait of the calls behind it.
 */
public final class Throttle {
  private static final CompletableFuture<IOException> NOW = CompletableFuture.completedFuture(null);

  /** The most a paused call adds to the pause, as a fraction of it, so resumes spread out. */
  private static final double RESUME_SPREAD = 1.0;

  /** The share of the sending rate kept on a refusal (AWS: 0.7, as CUBIC's beta). */
  static final double BETA = 0.7;

  /**
   * How long the rate takes to climb back from a cut to the rate it holds, seconds, along CUBIC's
   * concave curve: the same at every rate (AWS's constant C of 0.4 requests per second cubed takes
   * {@code cbrt(rate * 0.75)} seconds, 2 s at 10 a second but 11 s at 2,000 a second).
   */
  static final double CLIMB_SECONDS = 2.0;

  /**
   * AWS's CUBIC constant C, requests per second per second cubed: the climb after a cut that was a
   * guess, as AWS's, to the rate cut from, in {@code cbrt(rate * 0.75)} seconds from the refusal.
   */
  static final double AWS_SCALE = 0.4;

  /**
   * The share of the rate cut from (the service's limit, as measured) that the rate climbs back to
   * and holds: a margin for a measure that a burst of the service's own bucket inflates.
   */
  static final double HOLD_SHARE = 0.9;

  /**
   * How long a learned rate is held before it is probed, seconds. Each probe past the service's
   * limit costs a refusal, and every call of the client the pause of its {@code Retry-After}: a
   * cost in time, the same at any rate. Holding 10% under the limit costs as much every 10 s as a
   * 1-second pause does, so the rate is probed seldom; a raised limit is found about 20 s after the
   * last cut.
   */
  static final double HOLD_SECONDS = 15.0;

  /**
   * Once the hold is over with no refusal since, the rate doubles every this many seconds, as TCP's
   * slow start does, instead of following CUBIC's convex curve: a raised limit is found within a
   * few seconds of the probe.
   */
  static final double PROBE_DOUBLING_SECONDS = 1.0;

  /**
   * The lowest learned rate, requests per second: a wait's poll (at most one every 100 ms per wait)
   * always gets a turn within a second, however many refusals came. AWS's floor is 0.5.
   */
  static final double MIN_RATE = 1.0;

  /** How much of a second of the learned rate may go at once: a short burst, not a second's. */
  private static final double LEARNED_BURST_SECONDS = 0.01;

  /**
   * The rates sent and answered are measured over windows this long, and smoothed across them; a
   * refusal cuts again only if its request was sent this long after the last cut, when the answers
   * to the new rate have begun to show.
   */
  static final long MEASURE_WINDOW_NANOS = 100_000_000L;

  /** The weight of the newest window in the measured rate (AWS: 0.8). */
  private static final double SMOOTH = 0.8;

  /**
   * The shortest time between two releases of queued turns when the bucket holds enough for
   * several: fewer wake-ups of the scheduler thread, each releasing a few turns.
   */
  private static final long MIN_RELEASE_NANOS = 2_000_000L;

  /**
   * A queued turn whose deadline is less than this beyond its expected turn gets a timer that fails
   * it at its deadline; any other is failed, if late, when its turn comes.
   */
  private static final Duration DEADLINE_TIMER_MARGIN = Duration.ofSeconds(10);

  /** How much longer than an interactive call a poll must have waited to go before it. */
  static final Duration POLL_HANDICAP = Duration.ofSeconds(1);

  private final Ticker ticker;
  private final Sleeper sleeper;
  private final Time time;
  private final RetryPolicy retryPolicy;
  private final Failures failures;
  private final double ceiling;
  private final double ceilingBurst;
  private final Map<String, Lane> lanes = new ConcurrentHashMap<>();

  /** The lane used last: a client calls one origin, nearly always, found without a lookup. */
  private volatile Lane recent;

  /**
   * @param perSecond the request budget's rate, a ceiling on the learned one; 0 for none
   * @param burst how many requests the budget lets through at once
   */
  public Throttle(
      Time time, RetryPolicy retryPolicy, Failures failures, double perSecond, int burst) {
    this.time = time;
    this.ticker = time.ticker();
    this.sleeper = time.sleeper();
    this.retryPolicy = retryPolicy;
    this.failures = failures;
    this.ceiling = perSecond > 0 ? perSecond : Double.POSITIVE_INFINITY;
    this.ceilingBurst = perSecond > 0 ? burst : Double.POSITIVE_INFINITY;
  }

  /**
   * Completes when the request may go: after any pause of its origin, then with the bucket. It
   * completes with null to go, or fails with a {@code RateLimitException} when the request would be
   * held past its timeout or its wait's deadline; nothing was sent then. Completing or cancelling
   * it drops the wait, or the turn it queued for, so an abandoned call spends no token.
   */
  CompletableFuture<IOException> acquire(ApiRequest request) {
    return lane(request.url()).acquire(request, null);
  }

  /** The exception of a call held back: a 429 of the SDK's, with the time to retry. */
  private RuntimeException rateLimited(ApiRequest request, Duration retryAfter, String why) {
    long seconds = Math.max(1, Time.capped(retryAfter).plusMillis(999).getSeconds());
    return failures.forStatus(
        request.method(),
        request.url().toString(),
        429,
        Headers.of("Retry-After", Long.toString(seconds)),
        "not sent: "
            + why
            + " for another "
            + retryAfter
            + (request.isPoll()
                ? ", past this poll's timeout or its wait's deadline"
                : ", past this call's timeout"),
        List.of(),
        retryAfter);
  }

  private Lane lane(HttpUrl url) {
    Lane lane = existing(url);
    if (lane == null) {
      Lane made = new Lane(url);
      lane = lanes.putIfAbsent(Origins.origin(url), made);
      lane = lane == null ? made : lane;
      recent = lane;
    }
    return lane;
  }

  /** The URL's origin's lane, or null if it has none yet. */
  private Lane existing(HttpUrl url) {
    Lane lane = recent;
    if (lane == null || !Origins.sameOrigin(lane.origin, url)) {
      lane = lanes.get(Origins.origin(url));
      if (lane != null) {
        recent = lane;
      }
    }
    return lane;
  }

  /**
   * Whether calls to the URL's origin are paused now. Checked again when OkHttp takes a call up: a
   * call that waited in OkHttp's queue while a pause began must not go out in it.
   */
  boolean isPaused(HttpUrl url) {
    Lane lane = existing(url);
    if (lane == null) {
      return false;
    }
    synchronized (lane) {
      return !lane.pausedFor(ticker.nanoTime()).isZero();
    }
  }

  /** The time by the throttle's ticker, to stamp when an attempt was sent. */
  long now() {
    return ticker.nanoTime();
  }

  /**
   * Learns from an answer. Other answers are counted, for the rate the service answers at. A 429,
   * or a 503 with Retry-After, cuts the origin's rate (see the class's description); a Retry-After
   * also pauses the origin for everyone. Refusals of attempts sent during a pause or while the
   * paused calls resume (the jitter window after it) do not pause the origin again, as each of
   * those calls honours its own Retry-After: otherwise every resume would be cut short by the
   * refusals of the first few calls. They may still cut the rate: a resume at a rate the service
   * refuses must slow down.
   *
   * @param sentAt when the attempt was sent, by {@link #now()}
   */
  void observe(ApiRequest request, Outcome outcome, long sentAt) {
    if (retryPolicy.isAnswered(outcome)) {
      Lane lane = existing(request.url());
      if (lane != null) {
        synchronized (lane) {
          lane.answers.count(ticker.nanoTime());
        }
      }
      return;
    }
    if (!retryPolicy.teachesRate(outcome)) {
      return;
    }
    Duration pause = retryPolicy.pauseAfter(outcome);
    Lane lane = lane(request.url());
    long now = ticker.nanoTime();
    synchronized (lane) {
      lane.refused(now, sentAt);
      if (pause != null) {
        lane.pause(sentAt, pause);
      }
    }
  }

  /** The origin's learned rate now, requests per second; infinite before any refusal. For tests. */
  double rate(HttpUrl url) {
    Lane lane = lane(url);
    synchronized (lane) {
      return lane.rate(ticker.nanoTime());
    }
  }

  /**
   * The origin was paused while the call waited in OkHttp's queue; nothing was sent. Thrown by
   * {@link AttemptInterceptor} when OkHttp takes the call up, before a connection is chosen: a call
   * stopped there costs nothing, not even a connection.
   */
  static final class PausedBeforeSending extends IOException {
    private static final long serialVersionUID = 1L;

    PausedBeforeSending() {
      super("the service's Retry-After paused calls while this one waited to go; nothing was sent");
    }
  }

  /**
   * Events per second, counted over windows of {@link #MEASURE_WINDOW_NANOS} and smoothed across
   * them, as AWS's adaptive mode measures its sending rate. Guarded by its lane's lock.
   */
  private static final class Meter {
    private boolean started;
    private long start;
    private int count;
    private double smoothed;
    private boolean once;

    void count(long now) {
      if (!started) {
        started = true;
        start = now;
      }
      long elapsed = now - start;
      if (elapsed >= MEASURE_WINDOW_NANOS) {
        if (elapsed < 2 * MEASURE_WINDOW_NANOS) {
          double newest = count * 1e9 / elapsed;
          smoothed = once ? SMOOTH * newest + (1 - SMOOTH) * smoothed : newest;
          once = true;
        }
        // A window that took twice its length to close had a quiet spell in it (a pause, say): it
        // starts anew rather than averaging the spell in, which would cut the next cut's rate to a
        // fraction of what was sent and answered on either side of it.
        start = now;
        count = 0;
      }
      count++;
    }

    /**
     * Whether a whole window was measured: else the rate is a guess from a part of one, or none.
     */
    boolean isMeasured() {
      return once;
    }

    /** The smoothed rate, or the first window's so far; {@code unknown} before anything counted. */
    double rate(long now, double unknown) {
      if (once) {
        return smoothed;
      }
      return started ? count * 1e9 / Math.max(now - start, 1_000_000L) : unknown;
    }
  }

  /**
   * One origin: its pause, its learned rate, and the token bucket with its two queues. Guarded by
   * its own lock; futures are completed outside it, as a sleeper may run their callbacks at once.
   */
  private final class Lane {
    /** A URL of the lane's origin. */
    final HttpUrl origin;

    // The pause: until when, and when the calls it held have all resumed (Ticker readings).
    private boolean paused;
    private long pauseUntil;
    private long pauseSettled;

    // The learned rate: CUBIC from the last cut.
    private boolean learned;
    private double lastMaxRate;
    private long lastCut;
    // The climb from the last cut: when it began (at the cut, or, for a measured cut, when the
    // pause it came with ended), how long it takes, the share of lastMaxRate it ends at, and how
    // long that rate is held before it is probed (none after a cut that was a guess).
    private long climbFrom;
    private double climb;
    private double heldShare;
    private double hold;

    // The rates measured: requests let through, and answers that were not refusals.
    private final Meter sent = new Meter();
    private final Meter answers = new Meter();

    // The bucket.
    private double tokens;
    private long refilled;
    private boolean releasing;
    private final ArrayDeque<Turn> interactive = new ArrayDeque<>();
    private final ArrayDeque<Turn> polls = new ArrayDeque<>();
    // The live turns of each queue: a turn whose caller gave up stays queued until it is reached,
    // but no longer counts in how long a new call would wait.
    private int liveInteractive;
    private int livePolls;

    Lane(HttpUrl origin) {
      this.origin = origin;
      // A budget starts full; a learned rate starts empty, at the refusal that teaches it.
      tokens = ceiling == Double.POSITIVE_INFINITY ? 0 : ceilingBurst;
      refilled = ticker.nanoTime();
    }

    /** What is left of the pause, zero if none. Holds the lock. */
    Duration pausedFor(long now) {
      if (!paused) {
        return Duration.ZERO;
      }
      if (pauseUntil != Time.NEVER && pauseUntil - now <= 0) {
        if (pauseSettled != Time.NEVER && pauseSettled - now <= 0) {
          // Kept until the held calls have all resumed, so their refusals stay expected.
          paused = false;
        }
        return Duration.ZERO;
      }
      return pauseUntil == Time.NEVER ? Time.FOREVER : Duration.ofNanos(pauseUntil - now);
    }

    void pause(long sentAt, Duration pause) {
      if (paused && (pauseSettled == Time.NEVER || sentAt - pauseSettled < 0)) {
        return;
      }
      paused = true;
      pauseUntil = ticker.after(pause);
      if (learned && hold > 0 && pauseUntil - climbFrom > 0) {
        // Nothing is sent, and so nothing learned, while paused: the climb starts as calls resume.
        climbFrom = pauseUntil;
      }
      long spread = (long) (Time.capped(pause).toNanos() * RESUME_SPREAD);
      pauseSettled = ticker.after(Time.capped(pause.plusNanos(spread)));
    }

    /**
     * A refusal: cuts the rate, once for all requests sent before the cut or less than a measuring
     * window after it. Holds the lock.
     */
    void refused(long now, long sentAt) {
      if (learned && sentAt - lastCut < MEASURE_WINDOW_NANOS) {
        return;
      }
      boolean wasActive = isActive();
      // The rate it was sending at, or the rate the service answered at if that is lower: when far
      // more is sent than the service allows, what it answered is the better guess of its limit.
      double base = Math.min(sent.rate(now, MIN_RATE), answers.rate(now, Double.POSITIVE_INFINITY));
      if (learned) {
        base = Math.min(base, rate(now));
      }
      base = Math.max(base, MIN_RATE);
      lastMaxRate = base;
      // Rates measured over less than a window (nothing sent yet, or a refusal within the first
      // 100 ms) are a guess, which a hold could keep far under the limit: AWS's curve instead.
      boolean measured = sent.isMeasured() || answers.isMeasured();
      climb = measured ? CLIMB_SECONDS : Math.cbrt(base * (1 - BETA) / AWS_SCALE);
      heldShare = measured ? HOLD_SHARE : 1;
      hold = measured ? HOLD_SECONDS : 0;
      lastCut = now;
      climbFrom = now;
      learned = true;
      if (!wasActive) {
        // The service has just said no: the bucket starts empty.
        tokens = 0;
        refilled = now;
      } else {
        tokens = Math.min(tokens, capacity(rate(now)));
      }
    }

    /**
     * The rate now: CUBIC's climb from the last cut, the hold, then the probe; at least the floor,
     * at most the ceiling.
     */
    double rate(long now) {
      if (!learned) {
        return ceiling;
      }
      double held = heldShare * lastMaxRate;
      double t = Math.max(0, now - climbFrom) / 1e9 - climb;
      double rate;
      if (t < 0) {
        double left = t / climb;
        rate = held + (held - BETA * lastMaxRate) * left * left * left;
      } else if (t < hold) {
        rate = held;
      } else {
        // Held, and not refused since: the limit may have moved up.
        rate = held * Math.pow(2, (t - hold) / PROBE_DOUBLING_SECONDS);
      }
      return Math.min(ceiling, Math.max(MIN_RATE, rate));
    }

    private double capacity(double rate) {
      return learned
          ? Math.min(ceilingBurst, Math.max(1, rate * LEARNED_BURST_SECONDS))
          : ceilingBurst;
    }

    private boolean isActive() {
      return learned || ceiling != Double.POSITIVE_INFINITY;
    }

    /**
     * {@link Throttle#acquire}, for a new call or for one the pause held ({@code held}, which is
     * then the turn returned).
     */
    CompletableFuture<IOException> acquire(ApiRequest request, Turn held) {
      long now = ticker.nanoTime();
      long deadline = retryPolicy.latestStart(request, now);
      Duration left;
      synchronized (this) {
        left = pausedFor(now);
      }
      if (left.isZero()) {
        return take(request, now, deadline, held);
      }
      Duration allowed = deadline == Time.NEVER ? Time.FOREVER : Duration.ofNanos(deadline - now);
      if (allowed.compareTo(left) < 0) {
        return refuse(held, request, left, "the service's Retry-After holds calls to this origin");
      }
      // Each held call resumes with its own jitter, never past its deadline.
      Duration room = allowed.minus(left);
      Duration spread = left.compareTo(room) < 0 ? left : room;
      Duration wait = left.plusNanos((long) (spread.toNanos() * RESUME_SPREAD * time.draw()));
      Turn turn = held != null ? held : new Turn(request);
      turn.hold(wait);
      return turn;
    }

    /** The call goes now: the turn held for it, if any, completes. */
    private CompletableFuture<IOException> go(Turn held) {
      if (held == null) {
        return NOW;
      }
      held.complete(null);
      return held;
    }

    /** The call is held back: it fails at once, nothing sent. */
    private CompletableFuture<IOException> refuse(
        Turn held, ApiRequest request, Duration retryAfter, String why) {
      RuntimeException refused = rateLimited(request, retryAfter, why);
      if (held == null) {
        return CompletableFuture.failedFuture(refused);
      }
      held.completeExceptionally(refused);
      return held;
    }

    CompletableFuture<IOException> take(ApiRequest request, long now, long deadline, Turn held) {
      boolean isInteractive = !request.isPoll();
      Turn turn;
      Duration release;
      long expected;
      synchronized (this) {
        if (held != null && held.isDone()) {
          // Its caller gave up as the pause ended: it neither goes nor joins a queue.
          return held;
        }
        if (!isActive()) {
          sent.count(now);
          return go(held);
        }
        refill(now);
        boolean queued = liveInteractive > 0 || !isInteractive && livePolls > 0;
        if (!queued && tokens >= 1) {
          tokens--;
          sent.count(now);
          return go(held);
        }
        double rate = rate(now);
        int ahead = liveInteractive + (isInteractive ? 0 : livePolls);
        expected = (long) (Math.max(0, ahead + 1 - tokens) / rate * 1e9);
        if (deadline != Time.NEVER && deadline - now < expected) {
          turn = null;
          release = Duration.ofNanos(expected);
        } else {
          turn = held != null ? held : new Turn(request);
          turn.queuedAt = now;
          turn.deadline = deadline;
          turn.live = true;
          if (isInteractive) {
            interactive.add(turn);
            liveInteractive++;
          } else {
            polls.add(turn);
            livePolls++;
          }
          release = scheduleRelease(rate);
        }
      }
      if (turn == null) {
        return refuse(held, request, release, "the rate the service allows holds calls in a queue");
      }
      startRelease(release);
      if (deadline != Time.NEVER && deadline - now < expected + DEADLINE_TIMER_MARGIN.toNanos()) {
        // Overtaken by later interactive calls, a poll may still reach its deadline in the queue.
        // Timed only when the deadline is near: a turn far from it is checked when released.
        turn.time(Duration.ofNanos(deadline - now));
      }
      return turn;
    }

    /** The failure of a turn whose deadline came while it waited in the queue. */
    private RuntimeException late(ApiRequest request) {
      Duration queue;
      synchronized (this) {
        queue =
            Duration.ofNanos(
                (long) ((liveInteractive + livePolls) / rate(ticker.nanoTime()) * 1e9));
      }
      return rateLimited(request, queue, "the rate the service allows held this call in a queue");
    }

    /** The wait until the next release, if none is on its way yet; else null. Holds the lock. */
    private Duration scheduleRelease(double rate) {
      if (releasing) {
        return null;
      }
      releasing = true;
      double missing = 1 - tokens;
      long wait = missing <= 0 ? 0 : (long) Math.ceil(missing / rate * 1e9);
      long batch = (long) ((capacity(rate) - 1) / rate * 1e9);
      return Duration.ofNanos(Math.max(wait, Math.min(MIN_RELEASE_NANOS, batch)));
    }

    /** Outside the lock: a sleeper may complete a wait on the calling thread. */
    private void startRelease(Duration wait) {
      if (wait != null) {
        sleeper.delay(wait).whenComplete((ignored, closed) -> release(closed));
      }
    }

    private void release(Throwable closed) {
      List<Turn> go = new ArrayList<>();
      List<Turn> late = new ArrayList<>();
      List<Turn> failed = new ArrayList<>();
      Duration next = null;
      synchronized (this) {
        releasing = false;
        if (closed != null) {
          for (Turn turn : interactive) {
            if (turn.live) {
              turn.live = false;
              failed.add(turn);
            }
          }
          for (Turn turn : polls) {
            if (turn.live) {
              turn.live = false;
              failed.add(turn);
            }
          }
          interactive.clear();
          polls.clear();
          liveInteractive = 0;
          livePolls = 0;
        } else {
          long now = ticker.nanoTime();
          refill(now);
          while (tokens >= 1) {
            Turn turn = next();
            if (turn == null) {
              break;
            }
            if (!leave(turn) || turn.isDone()) {
              // Cancelled or completed by its caller: the turn goes to the next one, free.
              continue;
            }
            if (turn.deadline != Time.NEVER && turn.deadline - now < 0) {
              late.add(turn);
              continue;
            }
            tokens--;
            sent.count(now);
            go.add(turn);
          }
          if (liveInteractive > 0 || livePolls > 0) {
            next = scheduleRelease(rate(now));
          }
        }
      }
      failed.forEach(turn -> turn.completeExceptionally(closed));
      for (Turn turn : late) {
        turn.completeExceptionally(late(turn.request));
      }
      go.forEach(turn -> turn.complete(null));
      startRelease(next);
    }

    /**
     * Takes the turn out of its queue's count, once; a queue left with no live turn drops the
     * abandoned ones it still holds.
     *
     * @return whether it was live until now
     */
    private boolean leave(Turn turn) {
      synchronized (this) {
        if (!turn.live) {
          return false;
        }
        turn.live = false;
        if (turn.request.isPoll()) {
          if (--livePolls == 0) {
            polls.clear();
          }
        } else if (--liveInteractive == 0) {
          interactive.clear();
        }
        return true;
      }
    }

    /** The next turn: the oldest interactive call, unless a poll waited the handicap longer. */
    private Turn next() {
      Turn call = interactive.peek();
      Turn poll = polls.peek();
      if (call == null || poll == null) {
        return call == null ? polls.poll() : interactive.poll();
      }
      return poll.queuedAt + POLL_HANDICAP.toNanos() - call.queuedAt < 0
          ? polls.poll()
          : interactive.poll();
    }

    private void refill(long now) {
      long elapsed = now - refilled;
      if (elapsed > 0) {
        double rate = rate(now);
        tokens = Math.min(capacity(rate), tokens + elapsed * rate / 1e9);
        refilled = now;
      }
    }

    /**
     * A call waiting for its turn: held by a pause, then in the lane's queue. The one object the
     * throttle keeps for a waiting call, and what its timer wakes: thousands may wait at once, and
     * a callback on a future costs a completion object and a future of its own. However it is
     * completed, by the lane or by its caller giving up, it leaves the queue's count first, so
     * whoever sees it done sees the queue without it, and its timer is dropped.
     */
    private final class Turn extends CompletableFuture<IOException> implements Sleeper.Wakeup {
      final ApiRequest request;

      // Set under the lane's lock as it joins a queue.
      long queuedAt;
      long deadline;

      /** Whether it counts in its queue: waiting there, and its caller still waiting for it. */
      boolean live;

      /** Whether its timer is the end of a pause, rather than its deadline in the queue. */
      private volatile boolean held;

      private volatile Future<?> timer;

      Turn(ApiRequest request) {
        this.request = request;
      }

      /** Waits out a pause, then acquires again. */
      void hold(Duration wait) {
        held = true;
        startTimer(wait);
      }

      /** Fails the turn at its deadline if it is still queued then. */
      void time(Duration untilDeadline) {
        held = false;
        startTimer(untilDeadline);
      }

      private void startTimer(Duration wait) {
        if (isDone()) {
          return;
        }
        Future<?> started = sleeper.after(wait, this);
        if (started.isDone()) {
          // Woken already: the timer it may have set since is the one to keep.
          return;
        }
        timer = started;
        if (isDone()) {
          // Completed while the timer was being set: nothing is left for it to do.
          started.cancel(false);
        }
      }

      @Override
      public void wake(Throwable failure) {
        timer = null;
        if (isDone()) {
          return;
        }
        if (!held) {
          // Its deadline: a closed client fails the turn through the queue, not here.
          if (failure == null) {
            completeExceptionally(late(request));
          }
          return;
        }
        if (failure != null) {
          completeExceptionally(failure);
          return;
        }
        try {
          acquire(request, this);
        } catch (RuntimeException e) {
          completeExceptionally(e);
        }
      }

      @Override
      public boolean complete(IOException value) {
        leave(this);
        return ended(super.complete(value));
      }

      @Override
      public boolean completeExceptionally(Throwable error) {
        leave(this);
        return ended(super.completeExceptionally(error));
      }

      @Override
      public boolean cancel(boolean mayInterruptIfRunning) {
        leave(this);
        return ended(super.cancel(mayInterruptIfRunning));
      }

      private boolean ended(boolean byThisCall) {
        if (byThisCall) {
          // Again: a turn the pause held may have joined a queue while it was being completed.
          leave(this);
          Future<?> pending = timer;
          if (pending != null) {
            pending.cancel(false);
          }
        }
        return byThisCall;
      }
    }
  }
}
