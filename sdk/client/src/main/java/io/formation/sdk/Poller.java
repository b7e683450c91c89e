package io.formation.sdk;

import io.formation.sdk.internal.RetryPolicy;
import io.formation.sdk.model.DocumentSet;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.function.DoubleSupplier;

/**
 * The decisions of one wait for completion, shared by the blocking and the async loop: after each
 * poll (or failed poll) it says how long to wait, or ends the wait.
 */
final class Poller {
  private final PollOptions options;
  private final Clock clock;
  private final DoubleSupplier random;
  private final RetryPolicy retryPolicy;
  private final Instant deadline;
  private Duration interval;
  private DocumentSet lastSeen;

  Poller(PollOptions options, Clock clock, DoubleSupplier random, RetryPolicy retryPolicy) {
    this.options = options;
    this.clock = clock;
    this.random = random;
    this.retryPolicy = retryPolicy;
    this.deadline = clock.instant().plus(options.timeout());
    this.interval = options.initialInterval();
  }

  /**
   * After a poll: null when the set is complete, else the wait before the next poll.
   *
   * @throws InputNeededException when the set needs input and the options say to stop there
   * @throws PollTimeoutException when the deadline has passed
   */
  Duration afterPoll(DocumentSet set) {
    boolean changed = lastSeen == null || !lastSeen.state().equals(set.state());
    lastSeen = set;
    if (changed) {
      options.onStateChange().accept(set);
    }
    if (set.state().isComplete()) {
      return null;
    }
    if (set.state().needsInput() && !options.waitThroughInputNeeded()) {
      throw new InputNeededException(set);
    }
    return nextWait(Duration.ZERO, null);
  }

  /**
   * After a failed poll: the wait before trying again if the failure is transient (the transport's
   * own retries were used up), else the failure itself.
   */
  Duration afterError(RuntimeException error) {
    if (Thread.currentThread().isInterrupted() || !isTransient(error)) {
      throw error;
    }
    Duration retryAfter = null;
    if (error instanceof ApiException api) {
      retryAfter = retryPolicy.retryAfter(api.headers());
    }
    return nextWait(retryAfter == null ? Duration.ZERO : retryAfter, error);
  }

  private Duration nextWait(Duration atLeast, RuntimeException error) {
    Duration remaining = Duration.between(clock.instant(), deadline);
    if (remaining.isNegative() || remaining.isZero()) {
      if (lastSeen == null) {
        throw error;
      }
      throw new PollTimeoutException(lastSeen, options.timeout());
    }
    Duration wait =
        interval.minusNanos((long) (interval.toNanos() * options.jitter() * random.getAsDouble()));
    long grown =
        (long) Math.min(interval.toNanos() * options.multiplier(), options.maxInterval().toNanos());
    interval = Duration.ofNanos(grown);
    if (wait.compareTo(atLeast) < 0) {
      wait = atLeast;
    }
    return wait.compareTo(remaining) > 0 ? remaining : wait;
  }

  private static boolean isTransient(RuntimeException error) {
    return error instanceof NetworkException
        || error instanceof ApiException api && RetryPolicy.isTransient(api.statusCode());
  }
}
