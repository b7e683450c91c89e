package io.formation.examples.web;

import io.formation.sandbox.Faults;
import io.formation.sandbox.SandboxOptions;
import io.formation.testkit.FakeTime;
import java.time.Duration;

/**
 * How long a test waits for one thing the page or the backend shows, derived from the schedules
 * that make it happen, never a fixed minute: the page's and the backend's own pauses, and the
 * service's, as the sandbox is configured (its step delay and processing lag when it runs on the
 * real clock, a {@code 429}'s {@code Retry-After}), stretched by the share of requests that fail
 * (each failure costs one more round) and by a machine busy with other builds.
 */
final class Patience {
  /** How much slower than its schedule a 2-core machine running other builds may be. */
  static final int LOADED = 5;

  /**
   * The longest the page pauses before it tries again: fetching the forms again doubles to 15 s
   * ({@code RETRY_MAX_MS} in App.jsx), reopening a dropped stream to 10 s.
   */
  static final Duration PAGE_PAUSE = Duration.ofSeconds(15);

  /** One round of work that runs on no schedule: a request, a query, a render. */
  static final Duration ROUND = Duration.ofSeconds(2);

  private Patience() {}

  /**
   * One wait for what the page shows: its longest pause, the backend's slowest poll and its pauses
   * before trying the service again, the service.
   */
  static Duration page(SandboxOptions options) {
    return of(
        options,
        PAGE_PAUSE.plus(ProgressStream.POLLING.maxInterval()).plus(ServiceRetry.longestWait()));
  }

  /** One wait for something the backend does within {@code own}, with the service's part. */
  static Duration of(SandboxOptions options, Duration own) {
    Faults faults = options.faults();
    Duration service = faults.any() ? faults.retryAfter() : Duration.ZERO;
    if (!(options.clock() instanceof FakeTime)) {
      // On the real clock the set moves by itself: every step, and the lag after each input (the
      // forms, and the review's form again).
      service =
          service
              .plus(options.stepDelay().multipliedBy(options.progression().size()))
              .plus(options.processingLag().multipliedBy(options.review() ? 2 : 1));
    }
    double failing = faults.rateLimited() + faults.unavailable() + faults.dropped();
    double rounds = 1 / (1 - Math.min(failing, 0.9));
    return Duration.ofMillis(
        Math.round(own.plus(ROUND).plus(service).toMillis() * rounds * LOADED));
  }
}
