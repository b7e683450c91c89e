package io.formation.sdk;

import io.formation.sdk.model.DocumentSet;
import java.time.Duration;
import java.util.Optional;

/**
 * {@link DocumentSets#awaitCompletion} reached its deadline before the document set completed. It
 * carries the last document set seen; when no poll succeeded, that is empty and the {@link
 * #getCause() cause} is the last failure.
 */
public class PollTimeoutException extends FormationException {
  private static final long serialVersionUID = 1L;

  /** The id of the document set waited for. */
  private final String documentSetId;

  private final transient DocumentSet lastSeen;

  /** The overall timeout that ran out. */
  private final Duration timeout;

  /** Whether the poll that ended the wait read the set in a new state. */
  private final boolean stateChanged;

  /** {@code lastSeen} and {@code lastFailure} may be null. */
  PollTimeoutException(
      String documentSetId,
      DocumentSet lastSeen,
      Duration timeout,
      Throwable lastFailure,
      boolean stateChanged) {
    super(
        "Document set "
            + documentSetId
            + (lastSeen != null
                ? " was still " + lastSeen.state()
                : lastFailure == null
                    ? " was not read"
                    : " could not be read (" + lastFailure.getMessage() + ")")
            + " when the wait of "
            + timeout
            + " ran out",
        lastFailure);
    this.documentSetId = documentSetId;
    this.lastSeen = lastSeen;
    this.timeout = timeout;
    this.stateChanged = stateChanged;
  }

  /** {@return the id of the document set waited for} */
  public String documentSetId() {
    return documentSetId;
  }

  /**
   * {@return the last document set seen before the deadline; empty if no poll succeeded} Unless the
   * poll that ended the wait read it ({@link #stateChanged()}), only its id and state are known (no
   * app link, and its {@code raw()} is a missing node): a saved wait keeps no more.
   */
  public Optional<DocumentSet> lastSeen() {
    return Optional.ofNullable(lastSeen);
  }

  /** {@return the overall timeout that ran out} */
  public Duration timeout() {
    return timeout;
  }

  /**
   * {@return whether the poll that ended the wait read the set in a new state} The options' {@code
   * onStateChange} heard it; a scheduler of saved waits that tells state changes tells this too.
   */
  public boolean stateChanged() {
    return stateChanged;
  }
}
