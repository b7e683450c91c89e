package io.formation.tracking;

import io.formation.sdk.FormationException;
import io.formation.sdk.model.DocumentSet;
import java.time.Instant;

/**
 * What a {@link FormationTracker} tells the partner's code about the document sets it tracks. Every
 * method does nothing by default; implement the ones you need.
 *
 * <p><b>At least once.</b> Each event is delivered at least once, and sometimes more than once: an
 * instance killed after calling the handler and before saving the set's new state, a database that
 * was unreachable for that moment, or a handler that threw, all make the next poll see the same
 * change and deliver it again. Each event carries what is needed to ignore a repeat: the set's id
 * and the state it moved to. A handler that records {@code (set.id(), set.state())} with a unique
 * constraint, or that only moves its own record forward, ignores repeats for free.
 *
 * <pre>{@code
 * TrackingHandler handler = new TrackingHandler() {
 *   @Override
 *   public void stateChanged(DocumentSet set) {
 *     formations.updateState(set.id(), set.state().value());     // idempotent: a repeat changes nothing
 *   }
 *
 *   @Override
 *   public void completed(DocumentSet set) {
 *     formations.markComplete(set.id());                         // idempotent too
 *   }
 * };
 * }</pre>
 *
 * <p><b>Throwing.</b> A handler that throws loses nothing: the set's saved wait is not moved
 * forward, and the same event is delivered again after a backoff. Methods run on the tracker's own
 * threads, never on the HTTP client's, so a slow handler only delays the sets it is called for.
 */
public interface TrackingHandler {

  /**
   * A tracked set moved to a new state other than {@code complete} ({@code input_needed} included):
   * the same changes a wait's {@link io.formation.sdk.PollOptions#onStateChange()} hears. Whether
   * the set needs its user is told separately, by {@link #inputNeeded}, once the service's
   * processing lag is over.
   *
   * @param set the set, in the state it moved to
   * @throws Exception to have the event delivered again later
   */
  default void stateChanged(DocumentSet set) throws Exception {}

  /**
   * A tracked set reached {@code complete}; it is no longer tracked.
   *
   * @param set the set, complete
   * @throws Exception to have the event delivered again later
   */
  default void completed(DocumentSet set) throws Exception {}

  /**
   * A tracked set needs values from its user (still {@code input_needed} after the grace the
   * service's processing lag needs, see {@link io.formation.sdk.PollOptions#inputNeededGrace()}, or
   * back to it after a later state). Told once per episode: again only after the set moved on or a
   * submission was told. The set stays tracked: once the values are submitted, tell the tracker
   * with {@link FormationTracker#submitted} so the grace starts again.
   *
   * @param set the set, {@code input_needed}
   * @throws Exception to have the event delivered again later
   */
  default void inputNeeded(DocumentSet set) throws Exception {}

  /**
   * A set can no longer be tracked and no longer is: the service does not know it ({@link
   * io.formation.sdk.NotFoundException}), or its wait's deadline came, whatever the set's state
   * ({@link io.formation.sdk.PollTimeoutException}, whose cause is the last poll's failure when it
   * failed: a refused token, say, or an answer that was not a set).
   *
   * @param setId the set's id
   * @param reason why
   * @throws Exception to have the event delivered again later
   */
  default void trackingEnded(String setId, FormationException reason) throws Exception {}

  /**
   * A poll of a set failed in a way that does not pass by itself: the service refused the client's
   * token ({@link io.formation.sdk.AuthenticationException}, {@link
   * io.formation.sdk.PermissionDeniedException}), rejected the request, or answered with something
   * that is not a document set. Tracking of that set pauses ({@link
   * FormationTracker.Builder#pauseOnRefusal}) and tries again at {@code retryAt} (no later than the
   * wait's deadline), without hammering the service. Told again at each failed retry; once the
   * service answers again the set is tracked on as before, and at the deadline its tracking ends
   * ({@link #trackingEnded}).
   *
   * @param setId the set's id
   * @param reason the refusal
   * @param retryAt when the set is polled again
   * @throws Exception to have the event delivered again later
   */
  default void trackingPaused(String setId, FormationException reason, Instant retryAt)
      throws Exception {}
}
