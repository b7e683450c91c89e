package io.formation.sdk;

import io.formation.sdk.model.DocumentSet;
import java.time.Duration;

/**
 * {@link DocumentSets#awaitCompletion} reached its deadline before the document set completed.
 * Carries the last document set seen, so the caller can show where it stopped.
 *
 * <pre>{@code
 * catch (PollTimeoutException e) {
 *   System.out.println("still " + e.lastSeen().state() + " after " + e.timeout());
 * }
 * }</pre>
 */
public class PollTimeoutException extends FormationException {
  private static final long serialVersionUID = 1L;

  private final transient DocumentSet lastSeen;
  private final Duration timeout;

  /** Creates the exception. */
  public PollTimeoutException(DocumentSet lastSeen, Duration timeout) {
    super(
        "Document set "
            + lastSeen.id()
            + " was still "
            + lastSeen.state()
            + " when the wait of "
            + timeout
            + " ran out");
    this.lastSeen = lastSeen;
    this.timeout = timeout;
  }

  /** The last document set seen before the deadline. */
  public DocumentSet lastSeen() {
    return lastSeen;
  }

  /** The overall timeout that ran out. */
  public Duration timeout() {
    return timeout;
  }
}
