package io.formation.sdk;

import io.formation.sdk.internal.limits.Backoff;
import io.formation.sdk.internal.limits.RetryPolicy;
import io.formation.sdk.internal.time.Time;
import io.formation.sdk.model.DocumentSet;
import io.formation.sdk.model.DocumentSetState;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.function.DoubleSupplier;

/**
 * The rule of a wait for completion, in one place: given a saved wait, what one poll saw (the set,
 * or a failure) and the time, it says what to tell, when to poll next, or that the wait has ended
 * and why. It reads no clock, sends nothing and tells no one ({@link WaitLoop} carries its
 * decisions out), so a wait saved after any poll and resumed elsewhere decides the same.
 *
 * <p>Its promises: no poll after the deadline; every wait ends at its deadline whatever the set's
 * state or the service's answers; no two polls closer than {@link #MIN_GAP}; that a set needs input
 * is told once per episode.
 *
 * @param options how the wait polls
 * @param random the jitter's source
 * @param retryPolicy what an answer means (transient or not) and the {@code Retry-After} cap
 */
record WaitRule(PollOptions options, DoubleSupplier random, RetryPolicy retryPolicy) {
  /** No two polls of one wait come closer than this, whatever the options or the service say. */
  static final Duration MIN_GAP = RetryPolicy.MIN_GAP;

  /**
   * What the rule decided after one poll.
   *
   * @param seen the set the poll read, or null
   * @param changed whether its state differs from the one the wait saw last (or is the first)
   * @param result the poll's result when the wait goes on or is complete; null when it ended
   * @param end why the wait ended, when it did: to throw
   * @param needsInput why the set needs input, told or not: a blocking wait stops with it
   * @param endAt when to tell the end, if later than now: the deadline
   */
  record Decision(
      DocumentSet seen,
      boolean changed,
      PollResult result,
      RuntimeException end,
      InputNeededException needsInput,
      Instant endAt) {
    /** The wait goes on, or is complete, with this result. */
    static Decision result(
        PollResult.Kind kind,
        WaitState after,
        DocumentSet set,
        boolean changed,
        FormationException failure,
        InputNeededException needsInput) {
      PollResult result =
          new PollResult(
              kind,
              after,
              Optional.ofNullable(set),
              Optional.ofNullable(failure),
              after.nextPoll(),
              changed);
      return new Decision(set, changed, result, null, needsInput, null);
    }

    /** The wait ends with {@code end}, told at {@code endAt} if not null. */
    static Decision end(DocumentSet seen, boolean changed, RuntimeException end, Instant endAt) {
      return new Decision(seen, changed, null, end, null, endAt);
    }
  }

  /** The wait as taken up now: a due poll moves into {@link PollOptions#firstPollWithin()}. */
  WaitState takenUp(WaitState wait, Instant now) {
    if (wait.nextPoll().isAfter(now)) {
      return wait;
    }
    Duration window = Time.capped(options.firstPollWithin());
    Instant at = now.plusNanos((long) (window.toNanos() * random.getAsDouble()));
    return wait.rescheduled(earlier(at, wait.deadline()));
  }

  /**
   * When the next poll may be sent, at {@code due} or later: never within {@link #MIN_GAP} of the
   * last poll (one saved in the future counts as made now), never after the deadline; null when no
   * poll may be sent before the deadline.
   */
  Instant pollAt(WaitState wait, Instant due, Instant now) {
    Instant deadline = wait.deadline();
    if (now.isAfter(deadline)) {
      return null;
    }
    Instant at = later(due, now);
    Optional<Instant> last = wait.lastPoll();
    if (last.isPresent()) {
      at = later(at, earlier(last.get(), now).plus(MIN_GAP));
    }
    return at.isAfter(deadline) ? null : at;
  }

  /** The end at the deadline; its cause the last failure, known or as the saved wait says. */
  PollTimeoutException timeout(WaitState wait, RuntimeException lastFailure) {
    RuntimeException cause =
        lastFailure != null || wait.lastFailure == 0 ? lastFailure : Exceptions.savedFailure(wait);
    return Exceptions.pollTimeout(wait, wait.lastState().orElse(null), cause);
  }

  /** How a poll failed, as a saved wait keeps it. */
  private static int code(RuntimeException failure) {
    if (failure instanceof ApiException api) {
      return api.statusCode();
    }
    if (failure instanceof NetworkException) {
      return WaitState.NETWORK;
    }
    return failure instanceof InvalidResponseException ? WaitState.INVALID : WaitState.OTHER;
  }

  Decision afterPoll(WaitState wait, DocumentSet set, Instant now) {
    DocumentSetState state = set.state();
    boolean changed = !wait.sameState(state);
    if (state.isComplete()) {
      WaitState done = wait.polled(state, now, false, wait.interval(), now);
      return Decision.result(PollResult.Kind.COMPLETE, done, set, changed, null, null);
    }
    if (!now.isBefore(wait.deadline())) {
      return Decision.end(set, changed, Exceptions.pollTimeout(wait, set, changed), null);
    }
    InputNeededException needsInput = null;
    Instant pollBy = null;
    if (state.needsInput() && !options.waitThroughInputNeeded()) {
      Instant graceEnd =
          wait.lastSubmission()
              .orElse(wait.started())
              .plus(Time.capped(options.inputNeededGrace()));
      if (wait.movedOn) {
        needsInput =
            Exceptions.inputNeeded(
                set, "the service asks for input again: fetch its forms, submit, then wait again");
      } else if (now.isBefore(graceEnd)) {
        pollBy = graceEnd;
      } else {
        String since = wait.lastSubmission().isPresent() ? "the last submission" : "the wait began";
        needsInput =
            Exceptions.inputNeeded(
                set,
                "still input_needed %s after %s: submit its forms, then wait again"
                    .formatted(options.inputNeededGrace(), since));
      }
    }
    // Moving on ends an episode of needing input; the first poll that finds it needed tells it.
    boolean told = wait.inputNeededTold && state.needsInput();
    boolean tellNow = needsInput != null && !told;
    PollResult.Kind kind =
        tellNow
            ? PollResult.Kind.INPUT_NEEDED
            : changed ? PollResult.Kind.CHANGED : PollResult.Kind.UNCHANGED;
    Schedule next = schedule(wait, now, Duration.ZERO, pollBy);
    WaitState after = wait.polled(state, now, told || tellNow, next.interval, next.at);
    return Decision.result(kind, after, set, changed, tellNow ? needsInput : null, needsInput);
  }

  /**
   * After a poll that failed. A transient failure (the transport's own retries used up) is ridden
   * through, honouring a {@code Retry-After}; any other, with {@link
   * PollOptions#retryFailuresAfter()} set, is polled again after that pause; past the deadline
   * either ends the wait with a timeout that names it. The rest end the wait: a set the service
   * does not know, a failure with no pause set, anything not the service's.
   *
   * @param earlier the failure of the wait's previous poll, if that failed too and the caller knows
   *     it, else null: the cause a timeout reports when this poll was not even sent
   */
  Decision afterFailure(
      WaitState wait, RuntimeException failure, Instant now, FormationException earlier) {
    boolean isTransient = isTransient(failure);
    boolean retried =
        isTransient
            || failure instanceof FormationException
                && !(failure instanceof NotFoundException)
                && options.retryFailuresAfter().isPresent();
    if (!retried) {
      return Decision.end(null, false, failure, null);
    }
    if (!now.isBefore(wait.deadline())) {
      // An answer of the service (a 503, say) says more than a poll that was not even sent.
      boolean notSent = failure instanceof NetworkException network && !network.requestSent();
      RuntimeException cause = notSent && earlier != null ? earlier : failure;
      return Decision.end(null, false, timeout(wait, cause), null);
    }
    Duration atLeast =
        !isTransient
            ? options.retryFailuresAfter().orElseThrow()
            : failure instanceof ApiException api
                ? retryPolicy.waitAfter(api.headers())
                : Duration.ZERO;
    Schedule next = schedule(wait, now, atLeast, null);
    WaitState after = wait.failed(code(failure), now, next.interval, next.at);
    if (pollAt(after, after.nextPoll(), after.nextPoll()) == null) {
      // No poll fits before the deadline: the wait ends there, and this failure is why.
      return Decision.end(null, false, timeout(wait, failure), wait.deadline());
    }
    PollResult.Kind kind =
        isTransient ? PollResult.Kind.FAILED_TRANSIENTLY : PollResult.Kind.FAILED;
    return Decision.result(kind, after, null, false, (FormationException) failure, null);
  }

  private record Schedule(Instant at, Duration interval) {}

  /**
   * The next poll: the interval less jitter, at least {@code atLeast}, by {@code pollBy} (if not
   * null), never within {@link #MIN_GAP} of this one, and never after the deadline (when the gap
   * leaves no room before it, the deadline: the wait ends there); and the grown interval.
   */
  private Schedule schedule(WaitState wait, Instant now, Duration atLeast, Instant pollBy) {
    Backoff backoff =
        new Backoff(
            options.initialInterval(),
            options.multiplier(),
            options.maxInterval(),
            options.jitter());
    Duration interval = wait.interval();
    Duration jittered = backoff.jittered(interval, random.getAsDouble());
    Instant at = now.plus(later(jittered, Time.capped(atLeast)));
    if (pollBy != null) {
      at = earlier(at, pollBy);
    }
    at = earlier(later(at, now.plus(MIN_GAP)), wait.deadline());
    return new Schedule(at, backoff.grown(interval));
  }

  static boolean isTransient(RuntimeException error) {
    return error instanceof NetworkException
        || error instanceof ApiException api && RetryPolicy.isTransient(api.statusCode());
  }

  private static Instant earlier(Instant a, Instant b) {
    return a.isBefore(b) ? a : b;
  }

  private static Instant later(Instant a, Instant b) {
    return a.isAfter(b) ? a : b;
  }

  private static Duration later(Duration a, Duration b) {
    return a.compareTo(b) >= 0 ? a : b;
  }
}
