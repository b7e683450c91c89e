package io.formation.sdk.internal;

import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.DoubleSupplier;
import okhttp3.HttpUrl;

/**
 * One client's view of the service's limits. A 429 or 503 with {@code Retry-After} pauses every
 * call of the client to that origin until the time given, each resuming with its own jitter so they
 * do not return as one burst; and an optional request budget (a token bucket) spaces every call.
 * Calls waiting for the budget are served first come, first served, creates, forms and actions
 * ahead of polls. Every wait is a future on the client's sleeper: async calls park no thread.
 */
public final class Throttle {
  private static final CompletableFuture<IOException> NOW = CompletableFuture.completedFuture(null);

  /** The most a paused call adds to the pause, as a fraction of it, so resumes spread out. */
  private static final double RESUME_SPREAD = 1.0;

  private final Clock clock;
  private final Sleeper sleeper;
  private final DoubleSupplier random;
  private final RetryPolicy retryPolicy;
  private final Map<String, Pause> paused = new ConcurrentHashMap<>();
  private final Budget budget;

  /**
   * @param perSecond the request budget's rate, or 0 for no budget
   * @param burst how many requests the budget lets through at once
   */
  public Throttle(
      Clock clock,
      Sleeper sleeper,
      DoubleSupplier random,
      RetryPolicy retryPolicy,
      double perSecond,
      int burst) {
    this.clock = clock;
    this.sleeper = sleeper;
    this.random = random;
    this.retryPolicy = retryPolicy;
    this.budget = perSecond > 0 ? new Budget(perSecond, burst) : null;
  }

  /**
   * Completes when the request may go: after any pause of its origin, then with the budget. It
   * completes with null to go, or with the reason it must not be sent: a poll whose origin is
   * paused past the poll's deadline is not held beyond it, so a wait's timeout stays a deadline.
   */
  CompletableFuture<IOException> acquire(ApiRequest request) {
    if (!paused.isEmpty()) {
      String origin = Origins.origin(request.url());
      Pause pause = paused.get(origin);
      if (pause != null) {
        Instant until = pause.until();
        Duration left = Duration.between(clock.instant(), until);
        if (!left.isNegative() && !left.isZero()) {
          Duration spread =
              Duration.ofNanos((long) (left.toNanos() * RESUME_SPREAD * random.getAsDouble()));
          if (request.isPoll() && Checks.plus(until, spread).isAfter(request.deadline())) {
            return CompletableFuture.completedFuture(new HeldPastDeadline(until));
          }
          return sleeper.delay(left.plus(spread)).thenCompose(ignored -> acquire(request));
        }
        paused.remove(origin, pause);
      }
    }
    return budget == null ? NOW : budget.take(!request.isPoll());
  }

  /**
   * Whether calls to the URL's origin are paused now. Checked again right before a request goes on
   * the wire: a call that waited in OkHttp's queue while a pause began must not go out in it.
   */
  boolean isPaused(HttpUrl url) {
    if (paused.isEmpty()) {
      return false;
    }
    Pause pause = paused.get(Origins.origin(url));
    return pause != null && pause.until().isAfter(clock.instant());
  }

  /** The time by the throttle's clock, to stamp when an attempt was sent. */
  Instant now() {
    return clock.instant();
  }

  /**
   * Learns from an answer: a 429 or 503 with Retry-After pauses its origin for everyone. An answer
   * to an attempt sent before the pause now in force began tells nothing new (calls already on
   * their way when the first refusal came are refused too) and does not push the pause further.
   *
   * @param sentAt when the attempt was sent, by {@link #now()}
   */
  void observe(ApiRequest request, Outcome outcome, Instant sentAt) {
    int status = outcome.statusCode();
    if (outcome.failure() != null || status != 429 && status != 503) {
      return;
    }
    Duration retryAfter = retryPolicy.retryAfter(outcome.headers());
    if (retryAfter == null || retryAfter.isZero()) {
      return;
    }
    Instant now = clock.instant();
    Pause learned = new Pause(Checks.plus(now, Checks.capped(retryAfter)), now);
    paused.merge(
        Origins.origin(request.url()),
        learned,
        (current, next) ->
            current.until().isAfter(now) && !sentAt.isAfter(current.since())
                    || !next.until().isAfter(current.until())
                ? current
                : next);
  }

  /** A pause of one origin: until when, and since when it is known. */
  private record Pause(Instant until, Instant since) {}

  /** A token bucket with two first-come-first-served queues, creates and actions before polls. */
  private final class Budget {
    private final double perNano;
    private final double burst;
    private final Queue<CompletableFuture<IOException>> interactive = new ArrayDeque<>();
    private final Queue<CompletableFuture<IOException>> polls = new ArrayDeque<>();
    private double tokens;
    private Instant refilled;
    private boolean releasing;

    Budget(double perSecond, int burst) {
      this.perNano = perSecond / 1e9;
      this.burst = burst;
      this.tokens = burst;
      this.refilled = clock.instant();
    }

    CompletableFuture<IOException> take(boolean isInteractive) {
      CompletableFuture<IOException> turn;
      Duration release;
      synchronized (this) {
        refill();
        boolean queued = !interactive.isEmpty() || !isInteractive && !polls.isEmpty();
        if (!queued && tokens >= 1) {
          tokens--;
          return NOW;
        }
        turn = new CompletableFuture<>();
        (isInteractive ? interactive : polls).add(turn);
        release = scheduleRelease();
      }
      startRelease(release);
      return turn;
    }

    /**
     * The wait until the next token, if no release is on its way yet; else null. Holds the lock.
     */
    private Duration scheduleRelease() {
      if (releasing) {
        return null;
      }
      releasing = true;
      double missing = 1 - tokens;
      return missing <= 0 ? Duration.ZERO : Duration.ofNanos((long) Math.ceil(missing / perNano));
    }

    /** Outside the lock: a sleeper may complete a wait on the calling thread. */
    private void startRelease(Duration wait) {
      if (wait != null) {
        sleeper.delay(wait).whenComplete((ignored, closed) -> release(closed));
      }
    }

    private void release(Throwable closed) {
      List<CompletableFuture<IOException>> go = new ArrayList<>();
      List<CompletableFuture<IOException>> failed = new ArrayList<>();
      Duration next = null;
      synchronized (this) {
        releasing = false;
        if (closed != null) {
          failed.addAll(interactive);
          failed.addAll(polls);
          interactive.clear();
          polls.clear();
        } else {
          refill();
          while (tokens >= 1) {
            CompletableFuture<IOException> turn =
                interactive.isEmpty() ? polls.poll() : interactive.poll();
            if (turn == null) {
              break;
            }
            if (!turn.isDone()) {
              // A cancelled wait gives its turn to the next one.
              tokens--;
              go.add(turn);
            }
          }
          if (!interactive.isEmpty() || !polls.isEmpty()) {
            next = scheduleRelease();
          }
        }
      }
      failed.forEach(turn -> turn.completeExceptionally(closed));
      go.forEach(turn -> turn.complete(null));
      startRelease(next);
    }

    private void refill() {
      Instant now = clock.instant();
      long elapsed = Duration.between(refilled, now).toNanos();
      if (elapsed > 0) {
        tokens = Math.min(burst, tokens + elapsed * perNano);
        refilled = now;
      }
    }
  }

  /** The service asked for a pause that outlasts the wait this poll belongs to. */
  static final class HeldPastDeadline extends IOException {
    private static final long serialVersionUID = 1L;

    HeldPastDeadline(Instant until) {
      super(
          "the service's Retry-After holds calls until "
              + until
              + ", past the wait's deadline; nothing was sent");
    }
  }
}
