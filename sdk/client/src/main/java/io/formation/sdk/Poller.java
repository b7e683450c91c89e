package io.formation.sdk;

import com.fasterxml.jackson.databind.node.MissingNode;
import io.formation.sdk.internal.Checks;
import io.formation.sdk.internal.Events;
import io.formation.sdk.internal.RetryPolicy;
import io.formation.sdk.internal.Ticker;
import io.formation.sdk.model.DocumentSet;
import java.time.Duration;
import java.util.Optional;
import java.util.function.DoubleSupplier;

/**
 * The decisions of one wait for completion, shared by the blocking and the async loop: after each
 * poll (or failed poll) it says how long to wait, or ends the wait.
 *
 * <p>The rule for {@code input_needed}: a service works asynchronously, so a set may still read
 * {@code input_needed} for a while after its last form was accepted. The wait keeps polling it
 * until {@link PollOptions#inputNeededGrace()} has passed since the wait began, and only then stops
 * with {@link InputNeededException}. A set that comes back to {@code input_needed} after any other
 * state was seen is asking for more input, and stops the wait at once.
 */
final class Poller {
  private final String id;
  private final PollOptions options;
  private final Ticker ticker;
  private final DoubleSupplier random;
  private final RetryPolicy retryPolicy;
  private final Events events;
  private final long start;
  private final long deadline;
  private final long graceEnd;
  private final Duration maxInterval;
  private Duration interval;
  private DocumentSet lastSeen;
  private boolean movedOn;
  private RuntimeException lastFailure;
  private int polls;

  Poller(
      String id,
      PollOptions options,
      Ticker ticker,
      DoubleSupplier random,
      RetryPolicy retryPolicy,
      Events events) {
    this.id = id;
    this.options = options;
    this.ticker = ticker;
    this.random = random;
    this.retryPolicy = retryPolicy;
    this.events = events;
    this.start = ticker.nanoTime();
    this.deadline = ticker.after(options.timeout());
    this.graceEnd = ticker.after(options.inputNeededGrace());
    this.maxInterval = Checks.capped(options.maxInterval());
    this.interval = Checks.capped(options.initialInterval());
  }

  /**
   * When the wait ends with {@link PollTimeoutException}, a {@link Ticker} reading; retries inside
   * a poll stop there too.
   */
  long deadline() {
    return deadline;
  }

  /** The wait before the first poll: a random moment within {@link PollOptions#firstPollWithin}. */
  Duration beforeFirstPoll() {
    Duration window = Checks.capped(options.firstPollWithin());
    return Duration.ofNanos((long) (window.toNanos() * random.getAsDouble()));
  }

  /**
   * After a poll: null when the set is complete, else the wait before the next poll.
   *
   * @throws InputNeededException when the set needs input (see the class comment)
   * @throws PollTimeoutException when the deadline has passed
   */
  Duration afterPoll(DocumentSet set) {
    boolean changed = lastSeen == null || !lastSeen.state().equals(set.state());
    if (changed) {
      // What a timeout reports, its id and state: thousands of waits each hold only this.
      lastSeen = new DocumentSet(id, set.state(), Optional.empty(), MissingNode.getInstance());
    }
    polls++;
    events.polled(set);
    if (changed) {
      events.stateChanged(set, polls, ticker.since(start));
      options.onStateChange().accept(set);
    }
    if (set.state().isComplete()) {
      ended("complete");
      return null;
    }
    if (!set.state().needsInput()) {
      movedOn = true;
    } else if (!options.waitThroughInputNeeded()) {
      if (movedOn) {
        throw ended(
            new InputNeededException(
                set, "the service asks for input again: fetch its forms, submit, then wait again"));
      }
      if (ticker.until(graceEnd).compareTo(Duration.ZERO) <= 0) {
        throw ended(
            new InputNeededException(
                set,
                "still input_needed "
                    + options.inputNeededGrace()
                    + " after the wait began: submit its forms, then wait again"));
      }
      return nextWait(Duration.ZERO, graceEnd);
    }
    return nextWait(Duration.ZERO, Ticker.NEVER);
  }

  /**
   * After a failed poll: the wait before trying again if the failure is transient (the transport's
   * own retries were used up), else the failure itself.
   */
  Duration afterError(RuntimeException error) {
    polls++;
    if (Thread.currentThread().isInterrupted() || !isTransient(error)) {
      throw ended(error);
    }
    if (lastFailure == null || !(error instanceof NetworkException n && !n.requestSent())) {
      // An answer of the service (a 503, say) says more than a poll that was not even sent.
      lastFailure = error;
    }
    Duration retryAfter = null;
    if (error instanceof ApiException api) {
      retryAfter = retryPolicy.retryAfter(api.headers());
    }
    return nextWait(retryAfter == null ? Duration.ZERO : retryAfter, Ticker.NEVER);
  }

  /**
   * The next wait: the interval less jitter, at least {@code atLeast}, ending by both limits.
   *
   * @param pollBy a {@link Ticker} reading the next poll must not come after, or {@link
   *     Ticker#NEVER}
   */
  private Duration nextWait(Duration atLeast, long pollBy) {
    Duration remaining = ticker.until(deadline);
    if (remaining.isNegative() || remaining.isZero()) {
      throw ended(new PollTimeoutException(id, lastSeen, options.timeout(), lastFailure));
    }
    Duration wait =
        interval.minusNanos((long) (interval.toNanos() * options.jitter() * random.getAsDouble()));
    long grown = (long) Math.min(interval.toNanos() * options.multiplier(), maxInterval.toNanos());
    interval = Duration.ofNanos(grown);
    if (wait.compareTo(atLeast) < 0) {
      wait = atLeast;
    }
    Duration untilPollBy = ticker.until(pollBy);
    if (wait.compareTo(untilPollBy) > 0) {
      wait = untilPollBy;
    }
    return wait.compareTo(remaining) > 0 ? remaining : wait;
  }

  private void ended(String how) {
    events.waitEnded(id, how, polls, ticker.since(start));
  }

  private RuntimeException ended(RuntimeException failure) {
    ended(failure.getClass().getSimpleName() + ": " + failure.getMessage());
    return failure;
  }

  private static boolean isTransient(RuntimeException error) {
    return error instanceof NetworkException
        || error instanceof ApiException api && RetryPolicy.isTransient(api.statusCode());
  }
}
