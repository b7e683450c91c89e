package io.formation.testkit;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * Time for tests, that moves only when the code under test sleeps or the test {@linkplain #advance
 * advances} it: a {@link Clock} (the wall clock) with a monotonic {@link #nanoTime()}. The code
 * under test takes it through method references to its hooks, for example {@code
 * ticker(time::nanoTime)} and {@code sleeper(time::sleep)}.
 *
 * <pre>{@code
 * FakeTime time = new FakeTime();
 * time.sleep(Duration.ofSeconds(2)); // returns at once, two seconds later
 * time.sleeps();                      // [PT2S]
 * }</pre>
 *
 * <p>Every sleep and delay asked for is recorded, in order. On a {@code new FakeTime()} they pass
 * their time at once, so a retry or a poll never waits for real; on a {@link #manual()} one a delay
 * ends only when the test advances time past it, so a test can look at what happens meanwhile. Safe
 * to use from several threads.
 */
public final class FakeTime extends Clock {
  /** Where a time starts unless it is told otherwise: 2026-01-01T00:00:00Z. */
  public static final Instant START = Instant.parse("2026-01-01T00:00:00Z");

  private final Instant start;
  private final boolean manual;
  private final List<Duration> sleeps = new ArrayList<>();
  private final List<Pending> pending = new ArrayList<>();
  private Duration elapsed = Duration.ZERO;
  private Duration wallSteps = Duration.ZERO;

  private record Pending(Duration due, CompletableFuture<Void> done) {}

  /** A time at {@link #START} whose sleeps and delays pass at once. */
  public FakeTime() {
    this(START);
  }

  /** A time at {@code start} whose sleeps and delays pass at once. */
  public FakeTime(Instant start) {
    this(start, false);
  }

  private FakeTime(Instant start, boolean manual) {
    if (start == null) {
      throw new IllegalArgumentException("a FakeTime needs an instant to start at, not null");
    }
    this.start = start;
    this.manual = manual;
  }

  /**
   * {@return a time at {@link #START} whose delays end only when the test {@linkplain #advance
   * advances} past them}; a blocking {@link #sleep} on it would hold the test's own thread, so it
   * is refused
   */
  public static FakeTime manual() {
    return new FakeTime(START, true);
  }

  /**
   * Passes {@code duration} at once and records it, as a sleep that took that long.
   *
   * @throws InterruptedException if the calling thread is interrupted, as a real sleep would
   * @throws UnsupportedOperationException on a {@link #manual()} time
   */
  public void sleep(Duration duration) throws InterruptedException {
    if (Thread.currentThread().isInterrupted()) {
      throw new InterruptedException();
    }
    if (manual) {
      throw new UnsupportedOperationException(
          "a manual FakeTime only delays: a sleep would block the test's own thread");
    }
    synchronized (this) {
      sleeps.add(checked(duration));
      elapsed = elapsed.plus(duration);
    }
  }

  /**
   * {@return a wait of {@code duration}, recorded}: complete at once, time having passed, or on a
   * {@link #manual()} time complete when the test advances past it
   */
  public CompletableFuture<Void> delay(Duration duration) {
    synchronized (this) {
      sleeps.add(checked(duration));
      if (!manual) {
        elapsed = elapsed.plus(duration);
      } else if (!duration.isZero()) {
        CompletableFuture<Void> done = new CompletableFuture<>();
        pending.add(new Pending(elapsed.plus(duration), done));
        return done;
      }
    }
    return CompletableFuture.completedFuture(null);
  }

  /**
   * Time passing without the code under test asking for it (a process that was down, a user
   * thinking): not recorded as a sleep. The delays it passes end one by one, each at its own time.
   */
  public void advance(Duration duration) {
    Duration until;
    synchronized (this) {
      until = elapsed.plus(checked(duration));
    }
    // Each delay is completed outside the lock, so that what runs on its completion can read the
    // time or ask for another delay.
    for (Pending next = nextDue(until); next != null; next = nextDue(until)) {
      next.done().complete(null);
    }
    synchronized (this) {
      if (elapsed.compareTo(until) < 0) {
        elapsed = until;
      }
    }
  }

  private synchronized Pending nextDue(Duration until) {
    Pending next =
        pending.stream()
            .filter(p -> p.due().compareTo(until) <= 0)
            .min(Comparator.comparing(Pending::due))
            .orElse(null);
    if (next != null) {
      pending.remove(next);
      if (elapsed.compareTo(next.due()) < 0) {
        elapsed = next.due();
      }
    }
    return next;
  }

  /**
   * A step of the wall clock alone, forward or back (NTP, a resumed VM, an operator): {@link
   * #instant()} moves by {@code by}, {@link #nanoTime()} and the delays do not.
   */
  public synchronized void stepWallClock(Duration by) {
    wallSteps = wallSteps.plus(by);
  }

  /** Fails every delay still waiting with an {@link IllegalStateException}, as a closed sleeper. */
  public void close() {
    List<Pending> failed;
    synchronized (this) {
      failed = List.copyOf(pending);
      pending.clear();
    }
    failed.forEach(p -> p.done().completeExceptionally(new IllegalStateException("closed")));
  }

  /** {@return every sleep and delay asked for, in order} */
  public synchronized List<Duration> sleeps() {
    return List.copyOf(sleeps);
  }

  /** {@return the monotonic reading: nanoseconds since the start} */
  public synchronized long nanoTime() {
    return elapsed.toNanos();
  }

  @Override
  public synchronized Instant instant() {
    return start.plus(elapsed).plus(wallSteps);
  }

  @Override
  public ZoneId getZone() {
    return ZoneOffset.UTC;
  }

  /** {@return this time, which keeps UTC}; another zone is refused */
  @Override
  public Clock withZone(ZoneId zone) {
    if (!ZoneOffset.UTC.equals(zone)) {
      throw new UnsupportedOperationException("a FakeTime keeps UTC, not " + zone);
    }
    return this;
  }

  private static Duration checked(Duration duration) {
    if (duration == null || duration.isNegative()) {
      throw new IllegalArgumentException("time only moves forward, not by " + duration);
    }
    return duration;
  }
}
