package io.formation.examples.web;

import io.formation.sdk.ApiException;
import io.formation.sdk.NetworkException;
import io.formation.sdk.RateLimitException;
import java.time.Duration;
import java.util.Set;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

/**
 * A create or a submission the service refused for a moment (429, 5xx, an answer lost on the way)
 * is tried again by the backend, not by the person. The SDK retries within one call, but not a
 * create met by a 503 or a lost answer, which it cannot know the service did not act on; the create
 * carries the same {@code Idempotency-Key} each time, so the service answers a repeat with the set
 * the first one made. A submission is sent to the form's own action, which the service takes as the
 * same values again.
 */
@Component
final class ServiceRetry {
  private static final Logger log = LoggerFactory.getLogger(ServiceRetry.class);

  /** Rounds of the SDK's own attempts, each after a pause: 0.5 s, 1 s, 2 s. */
  static final int ROUNDS = 4;

  static final Duration FIRST_PAUSE = Duration.ofMillis(500);

  /** The longest one pause may be, a {@code Retry-After} included. */
  static final Duration LONGEST_PAUSE = Duration.ofSeconds(5);

  private static final Set<Integer> TRANSIENT = Set.of(408, 429, 500, 502, 503, 504);

  /** How the backend waits between rounds; a test may hand in one that does not sleep. */
  interface Pause {
    void pause(Duration duration) throws InterruptedException;
  }

  private final Pause pause;

  ServiceRetry() {
    this(duration -> Thread.sleep(duration.toMillis()));
  }

  ServiceRetry(Pause pause) {
    this.pause = pause;
  }

  /** The longest the pauses of one call add up to, for those who wait for it. */
  static Duration longestWait() {
    Duration total = Duration.ZERO;
    for (int round = 1; round < ROUNDS; round++) {
      total = total.plus(pauseBefore(round, null));
    }
    return total;
  }

  <T> T call(String what, Supplier<T> call) {
    for (int round = 1; ; round++) {
      try {
        return call.get();
      } catch (RuntimeException e) {
        if (round >= ROUNDS || !isTransient(e)) {
          throw e;
        }
        log.info("{} met a transient failure, round {} of {}: {}", what, round, ROUNDS, kind(e));
        try {
          pause.pause(pauseBefore(round, e));
        } catch (InterruptedException interrupted) {
          Thread.currentThread().interrupt();
          throw e;
        }
      }
    }
  }

  static boolean isTransient(Throwable e) {
    return e instanceof NetworkException
        || (e instanceof ApiException api && TRANSIENT.contains(api.statusCode()));
  }

  private static Duration pauseBefore(int round, RuntimeException failure) {
    Duration backoff = FIRST_PAUSE.multipliedBy(1L << (round - 1));
    if (failure instanceof RateLimitException limited && limited.retryAfter().isPresent()) {
      backoff = limited.retryAfter().get();
    }
    return backoff.compareTo(LONGEST_PAUSE) > 0 ? LONGEST_PAUSE : backoff;
  }

  /** The failure without the SDK's message, which names the service's URLs. */
  private static String kind(RuntimeException e) {
    return e instanceof ApiException api
        ? "status " + api.statusCode()
        : e.getClass().getSimpleName();
  }
}
