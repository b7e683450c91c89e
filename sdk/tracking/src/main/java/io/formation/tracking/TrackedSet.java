package io.formation.tracking;

import io.formation.sdk.WaitState;
import io.formation.sdk.model.DocumentSetState;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * One set a {@link FormationTracker} tracks, as its table holds it now.
 *
 * <pre>{@code
 * for (TrackedSet set : tracker.tracked()) {
 *   System.out.println(set.setId() + " " + set.lastState().map(DocumentSetState::value).orElse("?")
 *       + " next poll " + set.nextPollAt());
 * }
 * }</pre>
 *
 * @param setId the set's id
 * @param lastState the state the last poll saw, if one has
 * @param nextPollAt when the set is polled next (while {@code polling}, when it was due)
 * @param polling whether an instance is polling it right now
 * @param consecutiveFailures how many polls in a row failed in a way that needed a retry (the
 *     database, a handler that threw, an unexpected error); 0 normally
 * @param waitState the saved wait itself
 */
public record TrackedSet(
    String setId,
    Optional<DocumentSetState> lastState,
    Instant nextPollAt,
    boolean polling,
    int consecutiveFailures,
    WaitState waitState) {
  /**
   * Checks that no component is null.
   *
   * @param setId the set's id
   * @param lastState the state the last poll saw, if one has
   * @param nextPollAt when the set is polled next
   * @param polling whether an instance is polling it right now
   * @param consecutiveFailures how many polls in a row failed
   * @param waitState the saved wait itself
   */
  public TrackedSet {
    Objects.requireNonNull(setId, "setId");
    Objects.requireNonNull(lastState, "lastState");
    Objects.requireNonNull(nextPollAt, "nextPollAt");
    Objects.requireNonNull(waitState, "waitState");
  }
}
