package io.formation.sdk;

import com.fasterxml.jackson.databind.node.MissingNode;
import io.formation.sdk.internal.Checks;
import io.formation.sdk.internal.Events;
import io.formation.sdk.internal.RetryPolicy;
import io.formation.sdk.model.DocumentSet;
import io.formation.sdk.model.DocumentSetState;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.function.DoubleSupplier;

/**
 * The rule of a wait for completion, in one place: after each poll (or failed poll) of a {@link
 * WaitState}, what happened and when to poll next, or the end of the wait. {@link
 * DocumentSets#poll}, {@link DocumentSets#awaitCompletion} and their async twins all decide here;
 * they only send the polls and wait between them. It holds no state of a wait: that is the {@link
 * WaitState} it is handed, so a wait saved after any poll and resumed elsewhere decides the same.
 *
 * <p>The {@code input_needed} rule is described on {@link WaitState}. State changes reach the
 * partner from here only: the options' {@link PollOptions#onStateChange() listener} and the
 * result's {@link PollResult.Kind#CHANGED}, with the client's {@link FormationListener} told for
 * metrics.
 *
 * @param options how the wait polls
 * @param random the jitter's source
 * @param retryPolicy the least gap and the Retry-After cap, shared with the transport's retries
 * @param events the client's listener, told of polls and state changes for metrics
 */
record Poller(PollOptions options, DoubleSupplier random, RetryPolicy retryPolicy, Events events) {
  /** No two polls of one wait come closer than this, whatever the options or the service say. */
  static final Duration MIN_GAP = RetryPolicy.MIN_GAP;

  /**
   * When a wait taken up now polls first: when its next poll is due, or, if that has passed (a wait
   * just started, or resumed late), at a random moment within {@link PollOptions#firstPollWithin()}
   * so that many waits resumed together do not poll together; never after the deadline, never
   * within {@link #MIN_GAP} of its last poll.
   */
  Instant firstPoll(WaitState wait, Instant now) {
    Instant at = wait.nextPoll();
    if (!at.isAfter(now)) {
      Duration window = Checks.capped(options.firstPollWithin());
      at = now.plusNanos((long) (window.toNanos() * random.getAsDouble()));
    }
    if (at.isAfter(wait.deadline())) {
      at = wait.deadline();
    }
    return notTooSoon(wait, at);
  }

  /** The earliest a poll of the wait may be sent: {@link #MIN_GAP} after its last one. */
  static Instant notTooSoon(WaitState wait, Instant at) {
    Instant earliest = wait.lastPoll().map(last -> last.plus(MIN_GAP)).orElse(at);
    return at.isBefore(earliest) ? earliest : at;
  }

  /**
   * After a poll that read the set.
   *
   * @throws PollTimeoutException when the deadline has passed and the set is not complete
   */
  PollResult afterPoll(WaitState wait, DocumentSet set, Instant now) {
    DocumentSetState state = set.state();
    boolean changed = wait.lastState().map(last -> !last.equals(state)).orElse(true);
    int polls = wait.polls() + 1;
    events.polled(set);
    if (changed) {
      events.stateChanged(set, polls, Duration.between(wait.started(), now));
      options.onStateChange().accept(set);
    }
    if (state.isComplete()) {
      ended(wait, "complete", polls, now);
      WaitState done = wait.polled(state, now, wait.interval(), now);
      return new PollResult(
          PollResult.Kind.COMPLETE, done, Optional.of(set), Optional.empty(), done.nextPoll());
    }
    InputNeededException needsInput = null;
    Instant pollBy = null;
    if (state.needsInput() && !options.waitThroughInputNeeded()) {
      if (wait.movedOn()) {
        needsInput =
            new InputNeededException(
                set, "the service asks for input again: fetch its forms, submit, then wait again");
      } else {
        Instant graceEnd =
            wait.lastSubmission()
                .orElse(wait.started())
                .plus(Checks.capped(options.inputNeededGrace()));
        if (now.isBefore(graceEnd)) {
          pollBy = graceEnd;
        } else {
          needsInput =
              new InputNeededException(
                  set,
                  "still input_needed "
                      + options.inputNeededGrace()
                      + (wait.lastSubmission().isPresent()
                          ? " after the last submission"
                          : " after the wait began")
                      + ": submit its forms, then wait again");
        }
      }
    }
    if (needsInput != null) {
      ended(wait, "input needed: " + needsInput.getMessage(), polls, now);
    } else if (!now.isBefore(wait.deadline())) {
      throw ended(wait, timeout(wait, state, null), polls, now);
    }
    Schedule next = schedule(wait, now, Duration.ZERO, pollBy);
    WaitState after = wait.polled(state, now, next.interval, next.at);
    PollResult.Kind kind =
        needsInput != null
            ? PollResult.Kind.INPUT_NEEDED
            : changed ? PollResult.Kind.CHANGED : PollResult.Kind.UNCHANGED;
    return new PollResult(
        kind, after, Optional.of(set), Optional.ofNullable(needsInput), after.nextPoll());
  }

  /**
   * After a failed poll: the wait goes on if the failure is transient (the transport's own retries
   * were used up), honouring a {@code Retry-After}.
   *
   * @param earlier the failure of the wait's previous poll, if that failed too and the caller knows
   *     it, else null: the cause a timeout reports when this poll was not even sent
   * @throws RuntimeException the failure itself when it is not transient or the thread was
   *     interrupted; {@link PollTimeoutException} past the deadline
   */
  PollResult afterError(
      WaitState wait, RuntimeException error, Instant now, FormationException earlier) {
    int polls = wait.polls() + 1;
    if (Thread.currentThread().isInterrupted() || !isTransient(error)) {
      throw ended(wait, error, polls, now);
    }
    if (!now.isBefore(wait.deadline())) {
      // An answer of the service (a 503, say) says more than a poll that was not even sent.
      boolean notSent = error instanceof NetworkException network && !network.requestSent();
      RuntimeException cause = notSent && earlier != null ? earlier : error;
      throw ended(wait, timeout(wait, wait.lastState().orElse(null), cause), polls, now);
    }
    Duration retryAfter = null;
    if (error instanceof ApiException api) {
      // Capped as the client's pause is: a Retry-After of an hour does not stall a wait for it.
      retryAfter = retryPolicy.honouredRetryAfter(api.headers());
    }
    Schedule next = schedule(wait, now, retryAfter == null ? Duration.ZERO : retryAfter, null);
    WaitState after = wait.failed(now, next.interval, next.at);
    return new PollResult(
        PollResult.Kind.FAILED_TRANSIENTLY,
        after,
        Optional.empty(),
        Optional.of((FormationException) error),
        after.nextPoll());
  }

  private record Schedule(Instant at, Duration interval) {}

  /**
   * The next poll: the interval less jitter, at least {@code atLeast}, by {@code pollBy} (if not
   * null) and by the deadline, and never within {@link #MIN_GAP} of this one; and the grown
   * interval.
   */
  private Schedule schedule(WaitState wait, Instant now, Duration atLeast, Instant pollBy) {
    Duration interval = wait.interval();
    Duration wait1 =
        interval.minusNanos((long) (interval.toNanos() * options.jitter() * random.getAsDouble()));
    long grown =
        (long)
            Math.min(
                interval.toNanos() * options.multiplier(),
                Checks.capped(options.maxInterval()).toNanos());
    if (wait1.compareTo(atLeast) < 0) {
      wait1 = Checks.capped(atLeast);
    }
    Instant at = now.plus(wait1);
    if (pollBy != null && at.isAfter(pollBy)) {
      at = pollBy;
    }
    if (at.isAfter(wait.deadline())) {
      at = wait.deadline();
    }
    Instant earliest = now.plus(MIN_GAP);
    return new Schedule(at.isBefore(earliest) ? earliest : at, Duration.ofNanos(grown));
  }

  private static PollTimeoutException timeout(
      WaitState wait, DocumentSetState state, RuntimeException lastFailure) {
    DocumentSet lastSeen =
        state == null
            ? null
            // What a timeout reports, its id and state: thousands of waits each hold only this.
            : new DocumentSet(wait.setId(), state, Optional.empty(), MissingNode.getInstance());
    return new PollTimeoutException(wait.setId(), lastSeen, wait.timeout(), lastFailure);
  }

  private void ended(WaitState wait, String how, int polls, Instant now) {
    events.waitEnded(wait.setId(), how, polls, Duration.between(wait.started(), now));
  }

  private RuntimeException ended(WaitState wait, RuntimeException failure, int polls, Instant now) {
    ended(wait, failure.getClass().getSimpleName() + ": " + failure.getMessage(), polls, now);
    return failure;
  }

  private static boolean isTransient(RuntimeException error) {
    return error instanceof NetworkException
        || error instanceof ApiException api && RetryPolicy.isTransient(api.statusCode());
  }
}
