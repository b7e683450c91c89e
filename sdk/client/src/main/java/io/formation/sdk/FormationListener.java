package io.formation.sdk;

import io.formation.sdk.model.DocumentSet;
import java.time.Duration;

/**
 * Hears what a client does, one method per event, to feed metrics or tracing (Micrometer,
 * OpenTelemetry) without the SDK depending on either. Every method does nothing by default;
 * implement the ones you need. Methods run on the thread that did the work (a caller's, OkHttp's or
 * the client's scheduler), so they must return quickly; what they throw is logged and otherwise
 * ignored.
 *
 * <pre>{@code
 * FormationClient client = FormationClient.builder()
 *     .baseUrl("https://api.example.com")
 *     .accessToken(token)
 *     .listener(new FormationListener() {
 *       @Override
 *       public void attemptFinished(AttemptEvent attempt) {
 *         metrics.record(attempt.method(), attempt.statusCode(), attempt.took());
 *       }
 *     })
 *     .build();
 * }</pre>
 */
public interface FormationListener {
  /**
   * An attempt is about to be sent.
   *
   * @param attempt the attempt, not yet finished
   */
  default void attemptStarted(AttemptEvent attempt) {}

  /**
   * An attempt got an answer, or failed; {@link AttemptEvent#statusCode()} is 0 on failure.
   *
   * @param attempt the attempt, with its status or failure
   */
  default void attemptFinished(AttemptEvent attempt) {}

  /**
   * The attempt will be tried again after the wait.
   *
   * @param attempt the attempt that failed
   * @param wait the wait before the next attempt
   */
  default void retryScheduled(AttemptEvent attempt, Duration wait) {}

  /**
   * A wait for completion read the document set.
   *
   * @param set the document set as read
   */
  default void polled(DocumentSet set) {}

  /**
   * A wait for completion saw the document set in a new state (its first poll included), for
   * metrics: it hears every wait of the client. A partner acts on a change through the wait's own
   * channel, {@link PollOptions#onStateChange()} or {@link PollResult}, fed by the same decision.
   *
   * @param set the document set in its new state
   */
  default void stateChanged(DocumentSet set) {}

  /**
   * The service asked the client to wait ({@code 429} or {@code 503} with {@code Retry-After}), so
   * every call of the client to that origin waits until the pause is over.
   *
   * @param origin the origin paused, as {@code https://api.example.com}
   * @param pause how long
   */
  default void paused(String origin, Duration pause) {}

  /**
   * The client refused a call without sending it, with a {@link RateLimitException}: the origin's
   * pause or the rate learned from its refusals would not let it go before its timeout or its
   * wait's deadline.
   *
   * @param origin the origin, as {@code https://api.example.com}
   * @param retryAfter how long the call would have had to wait
   */
  default void heldBack(String origin, Duration retryAfter) {}

  /**
   * The same change as {@link #stateChanged(DocumentSet)}, with what the wait saw before it: the
   * previous state, how long the set was in it, and how late the change can have been seen.
   *
   * @param change the change
   */
  default void stateChanged(StateChange change) {}
}
