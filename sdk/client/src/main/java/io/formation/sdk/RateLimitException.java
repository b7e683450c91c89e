package io.formation.sdk;

import java.time.Duration;
import java.util.Optional;

/**
 * 429 Too Many Requests, after the SDK's own retries were used up. {@link #retryAfter()} says how
 * long the service asked callers to wait.
 */
public class RateLimitException extends ApiException {
  private static final long serialVersionUID = 1L;

  /** The wait the service asked for; null if it sent none. */
  private final Duration retryAfter;

  RateLimitException(ApiException.Answer answer, Duration retryAfter) {
    super(answer);
    this.retryAfter = retryAfter;
  }

  /** {@return the wait the service asked for in its Retry-After header, if it sent one} */
  public Optional<Duration> retryAfter() {
    return Optional.ofNullable(retryAfter);
  }
}
