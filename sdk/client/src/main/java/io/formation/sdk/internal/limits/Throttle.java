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
import okhttp3.HttpUrl;

/** The service's limits per origin: a lane of pause, adaptive rate and queue, one lock. */
public final class Throttle {
  private final Time time;
  private final RetryPolicy retryPolicy;
  private final Port port;
  private final double perSecond;
  private final int burst;
  private final Map<String, Lane> lanes = new ConcurrentHashMap<>();

  /** The lane used last: a client calls one origin, nearly always (see docs/building.md). */
  private volatile Lane recent;

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
      // Only a cut's climb waits for the pause: noise leaves the rate as it was.
      if (cut && !lane.pause.left(now).isZero()) {
        lane.rate.pausedUntil(lane.pause.until());
      }
    }
    if (cut) {
      lane.slowed(now);
    }
    if (paused) {
      port.paused(Origins.origin(lane.origin), pause);
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

    @Override
    RuntimeException refusal(ApiRequest request, Duration retryAfter, String why) {
      return port.rateLimited(request, retryAfter, why);
    }
  }
}
