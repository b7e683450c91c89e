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
 *       + " next poll " + set.nextPollAt() + set.unreadable().map(why -> " unreadable: " + why)
 *           .orElse(""));
 * }
 * }</pre>
 *
 * <p>A row this version of formation-tracking cannot read (written by a later version during a
 * rolling deploy, or damaged) is listed too, with its reason in {@link #unreadable()} and no wait:
 * this version leaves it as it is, for an instance that can read it.
 *
 * @param setId the set's id
 * @param lastState the state the last poll saw, if one has (empty for an unreadable row)
 * @param nextPollAt when the set is polled next (while {@code polling}, when it was due)
 * @param polling whether an instance is polling it right now
 * @param consecutiveFailures how many polls in a row failed in a way that needed a retry (the
 *     database, a handler that threw, an unexpected error); 0 normally
 * @param waitState the saved wait itself; empty if this version cannot read the row
 * @param unreadable why this version cannot read the row; empty if it can
 */
public record TrackedSet(
    String setId,
    Optional<DocumentSetState> lastState,
    Instant nextPollAt,
    boolean polling,
    int consecutiveFailures,
    Optional<WaitState> waitState,
    Optional<String> unreadable) {
  /**
   * Checks that no component is null, and that the set has either its wait or the reason it is
   * unreadable.
   *
   * @param setId the set's id
   * @param lastState the state the last poll saw, if one has
   * @param nextPollAt when the set is polled next
   * @param polling whether an instance is polling it right now
   * @param consecutiveFailures how many polls in a row failed
   * @param waitState the saved wait itself, if readable
   * @param unreadable why the row is unreadable, if it is
   */
  public TrackedSet {
    Objects.requireNonNull(setId, "setId");
    Objects.requireNonNull(lastState, "lastState");
    Objects.requireNonNull(nextPollAt, "nextPollAt");
    Objects.requireNonNull(waitState, "waitState");
    Objects.requireNonNull(unreadable, "unreadable");
    if (waitState.isPresent() == unreadable.isPresent()) {
      throw new IllegalArgumentException(
          "a tracked set has either its wait or the reason it is unreadable, not "
              + (waitState.isPresent() ? "both" : "neither"));
    }
  }

  /**
   * Whether this version can read the set's row; if not, {@link #unreadable()} says why.
   *
   * @return whether {@link #waitState()} is present
   */
  public boolean readable() {
    return waitState.isPresent();
  }
}
