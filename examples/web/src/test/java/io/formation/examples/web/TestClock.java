package io.formation.examples.web;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicReference;

/** A clock that stands still until a test moves it: the sandbox's states follow it exactly. */
final class TestClock extends Clock {
  private final AtomicReference<Instant> now =
      new AtomicReference<>(Instant.parse("2026-01-05T09:00:00Z"));

  void advance(Duration duration) {
    now.updateAndGet(instant -> instant.plus(duration));
  }

  @Override
  public Instant instant() {
    return now.get();
  }

  @Override
  public ZoneId getZone() {
    return ZoneOffset.UTC;
  }

  @Override
  public Clock withZone(ZoneId zone) {
    throw new UnsupportedOperationException("one zone is enough here");
  }
}
