package io.formation.sdk;

import io.formation.sdk.internal.guards.Checks;
import java.time.Duration;
import java.util.Optional;

/**
 * One attempt of a call, as a {@link FormationListener} hears of it.
 *
 * @param method the HTTP method
 * @param url the URL called, without its query (a cursor or an action's signature stays out)
 * @param attempt which attempt this is, from 1
 * @param maxAttempts how many attempts the call may make in all
 * @param statusCode the HTTP status; 0 when the attempt has not finished or failed without one
 * @param took how long the attempt took; zero when it has not finished
 * @param requestId the service's {@code Request-Id} or {@code X-Request-Id}, if it sent one
 * @param failure why the attempt failed without an answer, if it did
 */
public record AttemptEvent(
    String method,
    String url,
    int attempt,
    int maxAttempts,
    int statusCode,
    Duration took,
    Optional<String> requestId,
    Optional<Throwable> failure) {
  /**
   * Checks that no component is null.
   *
   * @param method the HTTP method
   * @param url the URL called, without its query (a cursor or an action's signature stays out)
   * @param attempt which attempt this is, from 1
   * @param maxAttempts how many attempts the call may make in all
   * @param statusCode the HTTP status; 0 when the attempt has not finished or failed without one
   * @param took how long the attempt took; zero when it has not finished
   * @param requestId the service's {@code Request-Id} or {@code X-Request-Id}, if it sent one
   * @param failure why the attempt failed without an answer, if it did
   */
  public AttemptEvent {
    Checks.nonNull("method url took requestId failure", method, url, took, requestId, failure);
  }
}
