package io.formation.sdk;

import java.time.Duration;
import java.util.Optional;

/**
 * 429 Too Many Requests, after the SDK's own retries were used up, or a call the SDK held back
 * before sending it (the service's pause or the client's queue would have held it past its
 * timeout); {@link #retryAfter()} says how long to wait.
 */
public class RateLimitException extends ApiException {
  private static final long serialVersionUID = 1L;

  /** The wait the service asked for; null if it sent none. */
  private final Duration retryAfter;

  RateLimitException(ApiException.Answer answer, Duration retryAfter) {
    super(answer);
    this.retryAfter = retryAfter;
  }

  /**
   * {@return the service's Retry-After, if it sent one, or for a call held back, the wait until its
   * turn would come (under a learned rate, at most until that rate has risen)}
   */
  public Optional<Duration> retryAfter() {
    return Optional.ofNullable(retryAfter);
  }
}
