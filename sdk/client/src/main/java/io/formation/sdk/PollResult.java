package io.formation.sdk;

import io.formation.sdk.internal.guards.Checks;
import io.formation.sdk.model.DocumentSet;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * What one poll of a saved wait found, and when to poll next: the step {@link
 * DocumentSets#poll(WaitState, PollOptions)} returns, for waits run on a scheduler of your own.
 * Save {@link #waitState()} and poll again at {@link #nextPollAt()}.
 *
 * <pre>{@code
 * PollResult result = client.documentSets().poll(wait, options);
 * switch (result.kind()) {
 *   case COMPLETE -> onComplete(result.set().orElseThrow());
 *   case INPUT_NEEDED -> askForInput(result.set().orElseThrow());
 *   case CHANGED -> showProgress(result.set().orElseThrow());
 *   case UNCHANGED, FAILED_TRANSIENTLY, FAILED -> { }
 * }
 * if (result.kind() != PollResult.Kind.COMPLETE) {
 *   store.save(id, result.waitState().encode(), result.nextPollAt());
 * }
 * }</pre>
 *
 * @param kind what happened
 * @param waitState the wait after this poll, to save and to pass to the next poll
 * @param set the document set as read; empty when the poll failed
 * @param failure for {@link Kind#FAILED_TRANSIENTLY} the failure ridden through, for {@link
 *     Kind#FAILED} the failure paused on, for {@link Kind#INPUT_NEEDED} the {@link
 *     InputNeededException} saying why; empty otherwise
 * @param nextPollAt when to poll next; for {@link Kind#COMPLETE}, the time of this poll (no poll is
 *     due)
 * @param stateChanged whether the set read is in a state the wait had not seen last (or is its
 *     first read), as {@link PollOptions#onStateChange()} heard, whatever the kind
 */
public record PollResult(
    Kind kind,
    WaitState waitState,
    Optional<DocumentSet> set,
    Optional<FormationException> failure,
    Instant nextPollAt,
    boolean stateChanged) {

  /** What a poll found. */
  public enum Kind {
    /** The set is in the state the previous poll read; keep polling. */
    UNCHANGED,
    /** The set is in a new state (or was read for the first time), not complete; keep polling. */
    CHANGED,
    /** The set is complete: the wait is over. */
    COMPLETE,
    /**
     * The set needs input, as the {@link WaitState} rule says; told once per episode, later polls
     * that find it still needing input are {@link #UNCHANGED}.
     */
    INPUT_NEEDED,
    /**
     * The poll failed in a way that may pass (network, 408, 429, 5xx) after the transport's own
     * retries; the wait goes on, honouring any {@code Retry-After}.
     */
    FAILED_TRANSIENTLY,
    /**
     * The poll failed in a way that does not pass by itself (400, 401, 403, not a document set);
     * the wait polls again after {@link PollOptions#retryFailuresAfter()}.
     */
    FAILED
  }

  /**
   * Checks that no component is null.
   *
   * @param kind what happened
   * @param waitState the wait after this poll
   * @param set the set as read; empty when the poll failed
   * @param failure the failure ridden through, or why input is needed; else empty
   * @param nextPollAt when to poll next
   * @param stateChanged whether the set read is in a new state
   */
  public PollResult {
    Checks.nonNull(
        "kind waitState set failure nextPollAt", kind, waitState, set, failure, nextPollAt);
  }

  /**
   * {@return whether the set needs input now: told by this poll, or earlier in this episode and
   * still {@code input_needed}} A scheduler that acts on it reads this; one that only notifies
   * reads the kind.
   */
  public boolean needsInput() {
    return kind == Kind.INPUT_NEEDED
        || waitState.inputNeededTold && set.map(s -> s.state().needsInput()).orElse(false);
  }

  /** {@return the time from this poll to the next one; zero for {@link Kind#COMPLETE}} */
  public Duration nextPollIn() {
    Instant polledAt = waitState.lastPoll().orElse(nextPollAt);
    Duration in = Duration.between(polledAt, nextPollAt);
    return in.isNegative() ? Duration.ZERO : in;
  }
}
