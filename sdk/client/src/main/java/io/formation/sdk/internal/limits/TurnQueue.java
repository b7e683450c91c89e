package io.formation.sdk.internal.limits;

import io.formation.sdk.internal.time.Sleeper;
import io.formation.sdk.internal.time.Time;
import io.formation.sdk.internal.transport.ApiRequest;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.PriorityQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Future;

/** The calls waiting for an origin's tokens, polls behind others, none past its deadline. */
abstract class TurnQueue {
  static final CompletableFuture<IOException> NOW = CompletableFuture.completedFuture(null);

  /** How much longer than an interactive call a poll must have waited to go before it. */
  static final Duration POLL_HANDICAP = Duration.ofSeconds(1);

  /** Seconds past the queue's expected drain within which a deadline gets its timer. */
  private static final double DRAIN_MARGIN_SECONDS = 10;

  /** The least time between two releases: fewer wake-ups, each releasing a few turns. */
  private static final long MIN_RELEASE_NANOS = 2_000_000L;

  final Time time;
  final AdaptiveRate rate;
  private boolean releasing;
  private final ArrayDeque<Turn> interactive = new ArrayDeque<>();
  private final ArrayDeque<Turn> polls = new ArrayDeque<>();
  // Turns whose caller gave up stay queued until reached, but no longer count.
  private int liveInteractive;
  private int livePolls;
  // Queued turns with a deadline, soonest first (those that left are dropped lazily), and the
  // reading of the soonest timer armed to fail them at it.
  private final PriorityQueue<Turn> byDeadline =
      new PriorityQueue<>((a, b) -> Long.signum(a.deadline - b.deadline));
  private boolean armed;
  private long armedAt;

  TurnQueue(Time time, AdaptiveRate rate) {
    this.time = time;
    this.rate = rate;
  }

  /**
   * Acquires again for a turn a pause held ({@code held}), or for a new call; none goes past {@code
   * deadline}, a ticker reading.
   */
  abstract CompletableFuture<IOException> acquire(ApiRequest request, long deadline, Turn held);

  /** The failure of a call held back for {@code retryAfter}, nothing sent. */
  abstract RuntimeException refusal(ApiRequest request, Duration retryAfter, String why);

  /** The call goes now: the turn held for it, if any, completes. */
  CompletableFuture<IOException> go(Turn held) {
    if (held == null) {
      return NOW;
    }
    held.complete(null);
    return held;
  }

  /** The call is held back: it fails at once, nothing sent. */
  CompletableFuture<IOException> refuse(
      Turn held, ApiRequest request, Duration retryAfter, String why) {
    RuntimeException refused = refusal(request, retryAfter, why);
    if (held == null) {
      return CompletableFuture.failedFuture(refused);
    }
    held.completeExceptionally(refused);
    return held;
  }

  /** A turn for the call: at once on a token, else queued, or refused if it would wait too long. */
  CompletableFuture<IOException> take(ApiRequest request, long now, long deadline, Turn held) {
    boolean isInteractive = !request.isPoll();
    Turn turn;
    Duration release;
    Duration timer = null;
    if (held != null && Time.left(deadline, now) < 0) {
      // Woken late from a pause: its time is up, though a turn may be free.
      return refuse(held, request, Duration.ZERO, "a pause held this call past its timeout");
    }
    synchronized (this) {
      if (held != null && held.isDone()) {
        return held;
      }
      if (!rate.isActive()) {
        return go(held);
      }
      rate.refill(now);
      boolean queued = liveInteractive > 0 || !isInteractive && livePolls > 0;
      if (!queued && rate.hasToken()) {
        rate.take();
        return go(held);
      }
      int ahead = liveInteractive + (isInteractive ? 0 : livePolls);
      long expected = (long) (rate.secondsFor(ahead + 1, now) * 1e9);
      if (Time.left(deadline, now) < expected) {
        turn = null;
        release = comeBackIn(expected, now);
      } else {
        turn = held != null ? held : new Turn(request);
        turn.queuedAt = now;
        turn.deadline = deadline;
        turn.live = true;
        if (deadline != Time.NEVER) {
          // Overtaken, or slowed by a cut, a turn may still reach its deadline in the queue.
          byDeadline.add(turn);
          timer = arm(now);
        }
        if (isInteractive) {
          interactive.add(turn);
          liveInteractive++;
        } else {
          polls.add(turn);
          livePolls++;
        }
        release = scheduleRelease(now);
      }
    }
    if (turn == null) {
      return refuse(held, request, release, "the rate the service allows holds calls in a queue");
    }
    startRelease(release);
    startDeadline(timer);
    return turn;
  }

  /**
   * The wait of a timer for the soonest deadline, if the queue may not drain before it (with a
   * margin for a slower rate) and none is armed for it already.
   */
  private Duration arm(long now) {
    Turn soonest;
    while ((soonest = byDeadline.peek()) != null && !soonest.live) {
      byDeadline.poll();
    }
    if (soonest == null || armed && armedAt - soonest.deadline <= 0) {
      return null;
    }
    double drain = rate.secondsFor(liveInteractive + livePolls, now) + DRAIN_MARGIN_SECONDS;
    if (Time.left(soonest.deadline, now) > drain * 1e9) {
      return null;
    }
    armed = true;
    armedAt = soonest.deadline;
    return Duration.ofNanos(Math.max(0, soonest.deadline - now));
  }

  /** The rate was cut: the queue drains later, so a deadline may now need its timer. */
  void slowed(long now) {
    Duration timer;
    synchronized (this) {
      timer = arm(now);
    }
    startDeadline(timer);
  }

  /** Outside the lock, as {@link #startRelease}. */
  private void startDeadline(Duration wait) {
    if (wait != null) {
      time.sleeper().delay(wait).whenComplete((ignored, closed) -> expire(closed));
    }
  }

  /** Fails the queued turns whose deadline came, and arms the timer of the next. */
  private void expire(Throwable closed) {
    if (closed != null) {
      // A closed client fails its queued turns through the release instead.
      return;
    }
    List<Turn> late = new ArrayList<>();
    List<RuntimeException> failures = new ArrayList<>();
    Duration next;
    synchronized (this) {
      long now = time.now();
      if (Time.left(armedAt, now) <= 0) {
        armed = false;
      }
      Turn soonest;
      while ((soonest = byDeadline.peek()) != null
          && (!soonest.live || Time.left(soonest.deadline, now) <= 0)) {
        byDeadline.poll();
        if (soonest.live) {
          late.add(soonest);
        }
      }
      // Told the wait of the live calls, themselves included, then out of the queue before any
      // release can reach them.
      late.forEach(turn -> failures.add(late(turn.request)));
      late.forEach(this::leave);
      next = arm(now);
    }
    for (int i = 0; i < late.size(); i++) {
      late.get(i).completeExceptionally(failures.get(i));
    }
    startDeadline(next);
  }

  private RuntimeException late(ApiRequest request) {
    Duration queue;
    synchronized (this) {
      long now = time.now();
      queue = comeBackIn((long) ((liveInteractive + livePolls) / rate.rate(now) * 1e9), now);
    }
    return refusal(request, queue, "the rate the service allows held this call in a queue");
  }

  /** A turned-away call's wait: the drain, or a briefly cut rate's rise, whichever is sooner. */
  private Duration comeBackIn(long drainNanos, long now) {
    double rises = rate.risesWithin(now) * 1e9;
    return Duration.ofNanos(rises < drainNanos ? (long) rises : drainNanos);
  }

  /** The wait until the next release, unless one is on its way (then null). */
  private Duration scheduleRelease(long now) {
    if (releasing) {
      return null;
    }
    releasing = true;
    long wait = (long) Math.ceil(rate.secondsFor(1, now) * 1e9);
    long batch = (long) (rate.burstSeconds(now) * 1e9);
    return Duration.ofNanos(Math.max(wait, Math.min(MIN_RELEASE_NANOS, batch)));
  }

  /** Outside the lock: a sleeper may complete a wait on the calling thread. */
  private void startRelease(Duration wait) {
    if (wait != null) {
      time.sleeper().delay(wait).whenComplete((ignored, closed) -> release(closed));
    }
  }

  private void release(Throwable closed) {
    List<Turn> go = new ArrayList<>();
    List<Turn> late = new ArrayList<>();
    List<Turn> failed = new ArrayList<>();
    Duration next = null;
    Duration deadline = null;
    synchronized (this) {
      releasing = false;
      if (closed != null) {
        for (ArrayDeque<Turn> queue : List.of(interactive, polls)) {
          for (Turn turn : queue) {
            if (turn.live) {
              turn.live = false;
              failed.add(turn);
            }
          }
          queue.clear();
        }
        liveInteractive = 0;
        livePolls = 0;
      } else {
        long now = time.now();
        rate.refill(now);
        while (rate.hasToken()) {
          Turn turn = next();
          if (turn == null) {
            break;
          }
          if (!leave(turn) || turn.isDone()) {
            // Given up by its caller: the token goes to the next turn.
            continue;
          }
          if (Time.left(turn.deadline, now) < 0) {
            late.add(turn);
            continue;
          }
          rate.take();
          go.add(turn);
        }
        if (liveInteractive > 0 || livePolls > 0) {
          next = scheduleRelease(now);
          deadline = arm(now);
        }
      }
    }
    failed.forEach(turn -> turn.completeExceptionally(closed));
    late.forEach(turn -> turn.completeExceptionally(late(turn.request)));
    go.forEach(turn -> turn.complete(null));
    startRelease(next);
    startDeadline(deadline);
  }

  /** Takes the turn out of its queue's count, once; whether it was live. */
  private synchronized boolean leave(Turn turn) {
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
    // Turns that left stay in the deadlines until reached, or until none is live; never more
    // than the live ones again.
    int live = liveInteractive + livePolls;
    if (live == 0 || byDeadline.size() > 2 * live + 16) {
      byDeadline.removeIf(queued -> !queued.live);
    }
    return true;
  }

  /** The next turn: the oldest interactive call, unless a poll waited the handicap longer. */
  private Turn next() {
    Turn call = interactive.peek();
    Turn poll = polls.peek();
    boolean pollFirst =
        call == null || poll != null && poll.queuedAt + POLL_HANDICAP.toNanos() - call.queuedAt < 0;
    return pollFirst ? polls.poll() : interactive.poll();
  }

  /** A waiting call, from the pause to the queue: one object, which its timer wakes. */
  final class Turn extends CompletableFuture<IOException> implements Sleeper.Wakeup {
    final ApiRequest request;

    // Set under the lock as it joins a queue; the deadline also as a pause holds it.
    long queuedAt;
    long deadline;
    boolean live;

    private volatile Future<?> timer;

    Turn(ApiRequest request) {
      this.request = request;
    }

    /** Waits out a pause, then acquires again before its deadline. */
    void hold(Duration wait, long deadline) {
      this.deadline = deadline;
      if (isDone()) {
        return;
      }
      Future<?> started = time.sleeper().after(wait, this);
      if (started.isDone()) {
        // Woken already: a timer it set since is the one to keep.
        return;
      }
      timer = started;
      if (isDone()) {
        started.cancel(false);
      }
    }

    @Override
    public void wake(Throwable failure) {
      timer = null;
      if (isDone()) {
        return;
      }
      if (failure != null) {
        completeExceptionally(failure);
        return;
      }
      try {
        acquire(request, deadline, this);
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
        // Again: a held turn may have joined a queue while it was being completed.
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
