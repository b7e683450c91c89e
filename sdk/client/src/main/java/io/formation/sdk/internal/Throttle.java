package io.formation.sdk.internal;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.DoubleSupplier;
import okhttp3.HttpUrl;
import okhttp3.Interceptor;
import okhttp3.Request;

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

  private final Ticker ticker;
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
      Ticker ticker,
      Sleeper sleeper,
      DoubleSupplier random,
      RetryPolicy retryPolicy,
      double perSecond,
      int burst) {
    this.ticker = ticker;
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
        Duration left = ticker.until(pause.until());
        if (!left.isNegative() && !left.isZero()) {
          Duration spread =
              Duration.ofNanos((long) (left.toNanos() * RESUME_SPREAD * random.getAsDouble()));
          Duration held = left.plus(spread);
          if (request.isPoll() && ticker.until(request.deadline()).compareTo(held) < 0) {
            return CompletableFuture.completedFuture(new HeldPastDeadline(left));
          }
          return sleeper.delay(held).thenCompose(ignored -> acquire(request));
        }
        if (ticker.until(pause.settled()).compareTo(Duration.ZERO) <= 0) {
          // Kept until the held calls have all resumed, so their refusals stay expected.
          paused.remove(origin, pause);
        }
      }
    }
    return budget == null ? NOW : budget.take(!request.isPoll());
  }

  /**
   * Whether calls to the URL's origin are paused now. Checked again when OkHttp takes a call up: a
   * call that waited in OkHttp's queue while a pause began must not go out in it.
   */
  boolean isPaused(HttpUrl url) {
    if (paused.isEmpty()) {
      return false;
    }
    Pause pause = paused.get(Origins.origin(url));
    return pause != null && ticker.until(pause.until()).compareTo(Duration.ZERO) > 0;
  }

  /** The time by the throttle's ticker, to stamp when an attempt was sent. */
  long now() {
    return ticker.nanoTime();
  }

  /**
   * Learns from an answer: a 429 or 503 with Retry-After pauses its origin for everyone. Refusals
   * of attempts sent during a pause or while the paused calls resume (the jitter window after it)
   * are expected, and do not pause the origin again: each of those calls honours its own
   * Retry-After. Otherwise every resume would be cut short by the refusals of the first few calls,
   * and a busy client would let only a handful through per pause.
   *
   * @param sentAt when the attempt was sent, by {@link #now()}
   */
  void observe(ApiRequest request, Outcome outcome, long sentAt) {
    int status = outcome.statusCode();
    if (outcome.failure() != null || !RetryPolicy.pausesOrigin(status)) {
      return;
    }
    Duration retryAfter = retryPolicy.retryAfter(outcome.headers());
    if (retryAfter == null || retryAfter.isZero()) {
      return;
    }
    Duration pause = Checks.capped(retryAfter);
    long until = ticker.after(pause);
    long settled = ticker.after(pause.plusNanos((long) (pause.toNanos() * RESUME_SPREAD)));
    paused.merge(
        Origins.origin(request.url()),
        new Pause(until, settled),
        (current, next) ->
            current.settled() == Ticker.NEVER || sentAt - current.settled() < 0 ? current : next);
  }

  /**
   * Stops a call whose origin was paused while it waited in OkHttp's queue. An application
   * interceptor, so it runs when OkHttp takes the call up and before a connection is chosen: a call
   * stopped there costs nothing, not even a connection.
   */
  Interceptor pauseCheck() {
    return chain -> {
      Request request = chain.request();
      if (request.tag(Attempt.class) != null && isPaused(request.url())) {
        throw new PausedBeforeSending();
      }
      return chain.proceed(request);
    };
  }

  /** The origin was paused while the call waited in OkHttp's queue; nothing was sent. */
  static final class PausedBeforeSending extends IOException {
    private static final long serialVersionUID = 1L;

    PausedBeforeSending() {
      super("the service's Retry-After paused calls while this one waited to go; nothing was sent");
    }
  }

  /**
   * A pause of one origin: until when, and when the calls it held have all resumed ({@link Ticker}
   * readings).
   */
  private record Pause(long until, long settled) {}

  /** A token bucket with two first-come-first-served queues, creates and actions before polls. */
  private final class Budget {
    private final double perNano;
    private final double burst;
    private final Queue<CompletableFuture<IOException>> interactive = new ArrayDeque<>();
    private final Queue<CompletableFuture<IOException>> polls = new ArrayDeque<>();
    private double tokens;
    private long refilled;
    private boolean releasing;

    Budget(double perSecond, int burst) {
      this.perNano = perSecond / 1e9;
      this.burst = burst;
      this.tokens = burst;
      this.refilled = ticker.nanoTime();
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
      long now = ticker.nanoTime();
      long elapsed = now - refilled;
      if (elapsed > 0) {
        tokens = Math.min(burst, tokens + elapsed * perNano);
        refilled = now;
      }
    }
  }

  /** The service asked for a pause that outlasts the wait this poll belongs to. */
  static final class HeldPastDeadline extends IOException {
    private static final long serialVersionUID = 1L;

    HeldPastDeadline(Duration left) {
      super(
          "the service's Retry-After holds calls for another "
              + left
              + ", past the wait's deadline; nothing was sent");
    }
  }
}
