package io.formation.sdk.internal.limits;

import io.formation.sdk.internal.Port;
import io.formation.sdk.internal.guards.Origins;
import io.formation.sdk.internal.time.Time;
import io.formation.sdk.internal.transport.ApiRequest;
import io.formation.sdk.internal.transport.Outcome;
import java.io.IOException;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import okhttp3.HttpUrl;

/** The service's limits per origin: a lane of pause, adaptive rate and queue, one lock. */
public final class Throttle {
  /** How often the lanes in use trade news with the instances that share their limit. */
  static final Duration SHARE_EVERY = Duration.ofMillis(100);

  /** How long a lane counts as in use after its last request: an idle one leaves its share. */
  private static final long IN_USE_NANOS = 1_000_000_000L;

  private final Time time;
  private final RetryPolicy retryPolicy;
  private final Port port;
  private final double perSecond;
  private final int burst;
  private final Map<String, Lane> lanes = new ConcurrentHashMap<>();

  /** The lane used last: a client calls one origin, nearly always (see docs/building.md). */
  private volatile Lane recent;

  private volatile Fleet fleet;
  private volatile Executor exchanges;
  private final AtomicBoolean exchanging = new AtomicBoolean();
  private volatile Future<?> nextShare;
  private volatile boolean closed;

  public Throttle(Time time, RetryPolicy retryPolicy, Port port, double perSecond, int burst) {
    this.time = time;
    this.retryPolicy = retryPolicy;
    this.port = port;
    this.perSecond = perSecond;
    this.burst = burst;
  }

  /** Completes when the request may go, or fails with the 429 of a call held back. */
  public CompletableFuture<IOException> acquire(ApiRequest request) {
    return acquire(request, retryPolicy.latestStart(request, time.now()));
  }

  /**
   * As {@link #acquire(ApiRequest)}, for an attempt whose first try set its deadline: one a pause
   * stopped on its way out keeps it.
   */
  public CompletableFuture<IOException> acquire(ApiRequest request, long deadline) {
    return lane(request.url()).acquire(request, deadline, null);
  }

  /**
   * A request leaves OkHttp's queue: counted as sent, unless the origin is paused now, when it must
   * not go out; whether it is paused.
   */
  public boolean leaving(HttpUrl url) {
    Lane lane = existing(url);
    if (lane == null) {
      return false;
    }
    long now = time.now();
    synchronized (lane) {
      if (!lane.pause.left(now).isZero()) {
        return true;
      }
      lane.rate.sent(now);
      return false;
    }
  }

  /** Learns from an answer, as the retry policy reads it. */
  public void observe(ApiRequest request, Outcome outcome, long sentAt) {
    boolean answered = retryPolicy.isAnswered(outcome);
    if (answered || !retryPolicy.teachesRate(outcome)) {
      Lane lane = existing(request.url());
      if (lane != null) {
        synchronized (lane) {
          if (answered) {
            lane.rate.answered(time.now(), sentAt);
          } else {
            lane.rate.failed(time.now(), sentAt);
          }
        }
      }
      return;
    }
    Duration pause = retryPolicy.pauseAfter(outcome);
    Lane lane = lane(request.url());
    long now = time.now();
    boolean paused = false;
    boolean cut;
    synchronized (lane) {
      cut = lane.rate.refused(now, sentAt);
      // Noise pauses only the refused call, through its retry's delay.
      if (pause != null && lane.rate.speaksForOrigin()) {
        paused = lane.pause.pause(now, sentAt, pause);
      }
      if (!lane.pause.left(now).isZero()) {
        lane.rate.paused(now, lane.pause.until(), cut);
      }
    }
    if (cut) {
      lane.slowed(now);
    }
    if (paused) {
      port.paused(Origins.origin(lane.origin), pause);
    }
    if (cut) {
      share();
    }
  }

  /**
   * Shares each origin's limit with the other instances of the fleet: a trade every {@link
   * #SHARE_EVERY} and at once after a cut, on {@code exchanges}, never on a caller's thread; while
   * trades fail or hang, each lane follows its own rate.
   */
  public void shareWith(Fleet fleet, Executor exchanges) {
    this.fleet = fleet;
    this.exchanges = exchanges;
    tick(null);
  }

  /**
   * As {@link #shareWith(Fleet, Executor)}, joining the fleet of the {@code home} origin at once:
   * instances that start together know of one another before their calls meet the limit.
   */
  public void shareWith(Fleet fleet, Executor exchanges, HttpUrl home) {
    lane(home);
    shareWith(fleet, exchanges);
  }

  /** Stops sharing; what waits is the transport's to fail. */
  public void close() {
    closed = true;
    Future<?> next = nextShare;
    if (next != null) {
      next.cancel(false);
    }
  }

  private void tick(Throwable closing) {
    if (closing == null && !closed) {
      share();
      nextShare = time.sleeper().after(SHARE_EVERY, this::tick);
    }
  }

  /** Trades news with the fleet on the exchange thread, unless a trade is under way. */
  private void share() {
    if (fleet != null && !closed && exchanging.compareAndSet(false, true)) {
      try {
        exchanges.execute(this::exchange);
      } catch (RuntimeException rejected) {
        exchanging.set(false);
      }
    }
  }

  /** One trade for each lane in use. */
  void exchange() {
    try {
      for (Lane lane : lanes.values()) {
        // A trade queued, or a lane reached, after close tells the fleet nothing.
        if (closed) {
          return;
        }
        lane.exchange(fleet);
      }
    } finally {
      exchanging.set(false);
    }
  }

  /** The origin's learned rate now, requests per second; infinite before any refusal. */
  double rate(HttpUrl url) {
    Lane lane = lane(url);
    synchronized (lane) {
      return lane.rate.rate(time.now());
    }
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

  /** The origin was paused while the call waited in OkHttp's queue; nothing was sent. */
  public static final class PausedBeforeSending extends IOException {
    private static final long serialVersionUID = 1L;

    public PausedBeforeSending() {
      super("the service's Retry-After paused calls while this one waited to go; nothing was sent");
    }
  }

  private final class Lane extends TurnQueue {
    final HttpUrl origin;
    final OriginPause pause = new OriginPause();
    // The newest cut the fleet knows of: told by this instance, or by the fleet.
    private long sharedCut = Long.MIN_VALUE;
    private boolean joined;

    Lane(HttpUrl origin) {
      super(Throttle.this.time, new AdaptiveRate(perSecond, burst, Throttle.this.time.now()));
      this.origin = origin;
    }

    @Override
    CompletableFuture<IOException> acquire(ApiRequest request, long deadline, Turn held) {
      long now = time.now();
      Duration left;
      synchronized (this) {
        left = pause.left(now);
      }
      if (left.isZero()) {
        return take(request, now, deadline, held);
      }
      Duration allowed = Time.between(now, deadline);
      if (allowed.compareTo(left) < 0) {
        return refuse(held, request, left, "the service's Retry-After holds calls to this origin");
      }
      Turn turn = held != null ? held : new Turn(request);
      turn.hold(OriginPause.resume(left, allowed, time.draw()), deadline);
      return turn;
    }

    /**
     * Tells the fleet of this lane's fresh cut and its answers, and follows the fleet's cut, unless
     * within a window of this lane's own, and its count of live instances.
     */
    void exchange(Fleet fleet) {
      long now = time.now();
      Duration cutAgo = null;
      long cut;
      double answered;
      synchronized (this) {
        // A lane joins the fleet at its first trade, then trades while in use.
        if (joined && !rate.sentWithin(IN_USE_NANOS, now)) {
          return;
        }
        joined = true;
        cut = rate.lastCut();
        if (rate.isLearned() && cut != sharedCut && AdaptiveRate.isFresh(cut, now)) {
          cutAgo = Duration.ofNanos(now - cut);
        }
        answered = rate.answeredPerSecond(now);
      }
      Fleet.Known known = fleet.exchange(Origins.origin(origin), cutAgo, answered);
      if (known == null) {
        synchronized (this) {
          rate.fleetUnreachable();
        }
        return;
      }
      now = time.now();
      boolean cutNow;
      synchronized (this) {
        sharedCut = cutAgo != null ? cut : sharedCut;
        rate.fleet(known.instances(), known.answeredPerSecond(), answered);
        Duration fleetCut = known.lastCutAgo();
        // An age too great to be a ticker's difference is stale all the same.
        cutNow =
            fleetCut != null
                && Math.abs(fleetCut.getSeconds()) < 60
                && rate.cutWithFleet(now - fleetCut.toNanos(), now);
        if (cutNow) {
          sharedCut = rate.lastCut();
          if (!pause.left(now).isZero()) {
            rate.paused(now, pause.until(), true);
          }
        }
      }
      if (cutNow) {
        slowed(now);
      }
    }

    @Override
    RuntimeException refusal(ApiRequest request, Duration retryAfter, String why) {
      return port.rateLimited(request, retryAfter, why);
    }
  }
}
