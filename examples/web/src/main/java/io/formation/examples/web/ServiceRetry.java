package io.formation.examples.web;

import io.formation.sdk.ApiException;
import io.formation.sdk.NetworkException;
import io.formation.sdk.RateLimitException;
import java.time.Duration;
import java.util.Set;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

/**
 * A create or a submission the service refused for a moment is tried again by the backend, not by
 * the person. A submission goes to the form's own action, which takes the same values again, so
 * every transient failure is retried (429, 5xx, an answer lost on the way). A create is retried
 * only when the service cannot have acted on it (429, 503, a request never sent), with the same
 * {@code Idempotency-Key}: like the SDK, the backend never re-sends a create that may have reached
 * the service, since the interface does not promise that the key is honoured.
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

  /** Runs a create, again after a refusal the service cannot have acted on. */
  <T> T create(Supplier<T> call) {
    return call("A create", call, ServiceRetry::notActedOn);
  }

  /** Runs a submission, again after any transient failure. */
  <T> T submission(Supplier<T> call) {
    return call("A submission", call, ServiceRetry::isTransient);
  }

  private <T> T call(String what, Supplier<T> call, Predicate<RuntimeException> again) {
    for (int round = 1; ; round++) {
      try {
        return call.get();
      } catch (RuntimeException e) {
        if (round >= ROUNDS || !again.test(e)) {
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

  static boolean notActedOn(Throwable e) {
    return (e instanceof NetworkException network && !network.requestSent())
        || (e instanceof ApiException api && (api.statusCode() == 429 || api.statusCode() == 503));
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
