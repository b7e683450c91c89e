package io.formation.tracking;

import com.github.kagkarlsson.scheduler.task.CompletionHandler;
import com.github.kagkarlsson.scheduler.task.ExecutionComplete;
import com.github.kagkarlsson.scheduler.task.ExecutionContext;
import com.github.kagkarlsson.scheduler.task.ExecutionOperations;
import com.github.kagkarlsson.scheduler.task.TaskInstance;
import io.formation.sdk.AuthenticationException;
import io.formation.sdk.FormationClient;
import io.formation.sdk.NotFoundException;
import io.formation.sdk.PermissionDeniedException;
import io.formation.sdk.PollOptions;
import io.formation.sdk.PollResult;
import io.formation.sdk.PollTimeoutException;
import io.formation.sdk.WaitState;
import io.formation.sdk.model.DocumentSet;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;

/**
 * One execution of a tracked set: one poll, the handler told, the wait saved with its next poll
 * time. The handler runs before anything is saved, so a crash or a throw between the two means the
 * same change is seen, and delivered, again: at least once, never lost.
 */
final class PollTask {
  /** Short: an instance of the version that wrote the row takes it at its next look after this. */
  static final Duration UNREADABLE_ROW_DELAY = Duration.ofSeconds(30);

  private final FormationClient client;
  private final PollOptions options;
  private final TrackingHandler handler;
  private final Clock clock;
  private final Duration pauseOnRefusal;
  private final Duration retryAfterFailure;

  PollTask(
      FormationClient client,
      PollOptions options,
      TrackingHandler handler,
      Clock clock,
      Duration pauseOnRefusal,
      Duration retryAfterFailure) {
    this.client = client;
    this.options = options;
    this.handler = handler;
    this.clock = clock;
    this.pauseOnRefusal = pauseOnRefusal;
    this.retryAfterFailure = retryAfterFailure;
  }

  CompletionHandler<String> execute(TaskInstance<String> instance, ExecutionContext context) {
    TaskData data;
    try {
      data = TaskData.decode(instance.getData());
    } catch (IllegalArgumentException unreadable) {
      return leaveForAVersionThatCanReadIt();
    }
    WaitState wait = data.waitState();
    PollResult result;
    try {
      result = client.documentSets().poll(wait, options);
    } catch (NotFoundException | PollTimeoutException e) {
      deliver(() -> handler.trackingEnded(wait.setId(), e));
      return PollTask::remove;
    } catch (AuthenticationException | PermissionDeniedException e) {
      Instant now = clock.instant();
      if (!now.isBefore(wait.deadline())) {
        // Refused until the wait's deadline: the wait is over, as it would be with access.
        deliver(() -> handler.trackingEnded(wait.setId(), e));
        return PollTask::remove;
      }
      // The same wait, much later: a revoked token must not turn into a stream of refused calls.
      // No later than the deadline, so that a refusal does not outlive the wait; to the
      // millisecond, as every database keeps it.
      Instant pauseEnd = now.plus(pauseOnRefusal);
      Instant retryAt =
          (pauseEnd.isAfter(wait.deadline()) ? wait.deadline() : pauseEnd)
              .truncatedTo(ChronoUnit.MILLIS);
      deliver(() -> handler.trackingPaused(wait.setId(), e, retryAt));
      return (complete, operations) -> operations.reschedule(complete, retryAt);
    }
    boolean inputNeededTold = data.inputNeededTold();
    switch (result.kind()) {
      case COMPLETE -> {
        DocumentSet set = result.set().orElseThrow();
        deliver(() -> handler.completed(set));
        return PollTask::remove;
      }
      case CHANGED -> {
        DocumentSet set = result.set().orElseThrow();
        // input_needed within the grace is the service still taking the values up, not news: the
        // handler hears of input_needed only once the wait says the set needs input.
        if (!set.state().needsInput()) {
          deliver(() -> handler.stateChanged(set));
          inputNeededTold = false;
        }
      }
      case INPUT_NEEDED -> {
        // Every poll of a set waiting for its user says so again; the handler hears it once per
        // episode (at least once), until the set moves on or a submission is told.
        if (!inputNeededTold) {
          DocumentSet set = result.set().orElseThrow();
          deliver(() -> handler.inputNeeded(set));
          inputNeededTold = true;
        }
      }
      case UNCHANGED, FAILED_TRANSIENTLY -> {
        // Nothing to tell: the wait's backoff (or the failure's Retry-After) is in nextPollAt.
      }
    }
    String next = new TaskData(result.waitState(), inputNeededTold).encode();
    return (complete, operations) -> operations.reschedule(complete, result.nextPollAt(), next);
  }

  /**
   * A row this version cannot read (written by a later version during a rolling deploy, or damaged)
   * is put back as it is, soon due again so that an instance that can read it picks it: no poll,
   * nothing told, not a failure.
   */
  private static CompletionHandler<String> leaveForAVersionThatCanReadIt() {
    return (complete, operations) ->
        operations.reschedule(complete, complete.getTimeDone().plus(UNREADABLE_ROW_DELAY));
  }

  private static void remove(ExecutionComplete complete, ExecutionOperations<String> operations) {
    operations.remove();
  }

  /**
   * A failed execution (the handler threw, the database or something unexpected failed) keeps its
   * saved wait and runs again later, backing off: the change it saw is seen and delivered again.
   */
  void onFailure(ExecutionComplete complete, ExecutionOperations<String> operations) {
    int failures = Math.min(complete.getExecution().consecutiveFailures, 30);
    Duration wait = retryAfterFailure.multipliedBy(1L << Math.min(failures, 20));
    if (wait.compareTo(pauseOnRefusal) > 0) {
      wait = pauseOnRefusal;
    }
    operations.reschedule(complete, complete.getTimeDone().plus(wait));
  }

  private interface HandlerCall {
    void run() throws Exception;
  }

  private static void deliver(HandlerCall call) {
    try {
      call.run();
    } catch (RuntimeException e) {
      throw e;
    } catch (Exception e) {
      throw new HandlerFailedException(e);
    }
  }

  /** A handler threw a checked exception; the execution fails and is retried. */
  static final class HandlerFailedException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    HandlerFailedException(Exception cause) {
      super("the tracking handler failed: " + cause, cause);
    }
  }
}
