package io.formation.sdk;

import io.formation.sdk.internal.guards.Checks;
import io.formation.sdk.model.DocumentSet;
import io.formation.sdk.model.DocumentSetState;
import java.time.Duration;
import java.util.Optional;

/**
 * A wait saw its document set in a new state, as a {@link FormationListener} hears of it: what the
 * set was before, and how long, as far as the polls can tell.
 *
 * @param set the document set in its new state
 * @param previous the state the wait saw before; empty on its first poll
 * @param timeInPrevious from the poll that first read the previous state to this one; empty when
 *     not known (on the first poll, or for a wait saved without a trace context and resumed)
 * @param seenWithin the time since the wait's previous poll, which bounds how late the change was
 *     seen; empty on the first poll
 */
public record StateChange(
    DocumentSet set,
    Optional<DocumentSetState> previous,
    Optional<Duration> timeInPrevious,
    Optional<Duration> seenWithin) {
  /**
   * Checks that no component is null.
   *
   * @param set the set
   * @param previous the state before
   * @param timeInPrevious the time in the state before
   * @param seenWithin the time since the previous poll
   */
  public StateChange {
    Checks.nonNull(
        "set previous timeInPrevious seenWithin", set, previous, timeInPrevious, seenWithin);
  }
}
