package io.formation.sdk;

import io.formation.sdk.internal.Sleeper;
import io.formation.sdk.internal.Ticker;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A clock, monotonic and wall, that moves only when the SDK sleeps, and records every sleep: tests
 * never wait.
 */
final class FakeTime extends Clock implements Sleeper, Ticker {
  private static final Instant START = Instant.parse("2026-01-01T00:00:00Z");
  private volatile Instant now = START;
  private final List<Duration> sleeps = new CopyOnWriteArrayList<>();

  @Override
  public void sleep(Duration duration) throws InterruptedException {
    if (Thread.currentThread().isInterrupted()) {
      throw new InterruptedException();
    }
    advance(duration);
  }

  @Override
  public CompletableFuture<Void> delay(Duration duration) {
    advance(duration);
    return CompletableFuture.completedFuture(null);
  }

  private synchronized void advance(Duration duration) {
    sleeps.add(duration);
    now = now.plus(duration);
  }

  /** Time passing without the SDK asking for it: a process that was down, a user thinking. */
  synchronized void pass(Duration duration) {
    now = now.plus(duration);
  }

  /** Every wait the SDK asked for, in order. */
  List<Duration> sleeps() {
    return List.copyOf(sleeps);
  }

  @Override
  public long nanoTime() {
    return Duration.between(START, now).toNanos();
  }

  @Override
  public Instant instant() {
    return now;
  }

  @Override
  public ZoneId getZone() {
    return ZoneOffset.UTC;
  }

  @Override
  public Clock withZone(ZoneId zone) {
    return this;
  }
}
