package io.formation.tracking;

import com.github.kagkarlsson.scheduler.task.CompletionHandler;
import com.github.kagkarlsson.scheduler.task.ExecutionComplete;
import com.github.kagkarlsson.scheduler.task.ExecutionContext;
import com.github.kagkarlsson.scheduler.task.ExecutionOperations;
import com.github.kagkarlsson.scheduler.task.TaskInstance;
import io.formation.sdk.FormationClient;
import io.formation.sdk.FormationException;
import io.formation.sdk.FormationTracer;
import io.formation.sdk.NotFoundException;
import io.formation.sdk.PollOptions;
import io.formation.sdk.PollResult;
import io.formation.sdk.PollTimeoutException;
import io.formation.sdk.WaitState;
import io.formation.sdk.model.DocumentSet;
import java.time.Duration;
import java.util.Optional;

/**
 * One execution of a tracked set: one poll, the handler told what the wait's rule decided, the wait
 * saved with its next poll time. The handler runs before anything is saved, so a crash or a throw
 * between the two means the same change is seen, and delivered, again: at least once, never lost.
 */
final class PollTask {
  /** Short: an instance of the version that wrote the row takes it at its next look after this. */
  static final Duration UNREADABLE_ROW_DELAY = Duration.ofSeconds(30);

  private final FormationClient client;
  private final PollOptions options;
  private final TrackingHandler handler;
  private final Duration pauseOnRefusal;
  private final Duration retryAfterFailure;

  /**
   * @param options the tracker's, with {@link PollOptions#retryFailuresAfter()} set to the pause on
   *     refusal
   */
  PollTask(
      FormationClient client,
      PollOptions options,
      TrackingHandler handler,
      Duration pauseOnRefusal,
      Duration retryAfterFailure) {
    this.client = client;
    this.options = options;
    this.handler = handler;
    this.pauseOnRefusal = pauseOnRefusal;
    this.retryAfterFailure = retryAfterFailure;
  }

  CompletionHandler<String> execute(TaskInstance<String> instance, ExecutionContext context) {
    WaitState wait;
    try {
      wait = TaskData.decode(instance.getData());
    } catch (IllegalArgumentException unreadable) {
      return leaveForAVersionThatCanReadIt();
    }
    PollResult result;
    try {
      result = client.documentSets().poll(wait, options);
    } catch (PollTimeoutException e) {
      // Answered at the deadline in a new state: the handler hears it, as the listener did.
      if (e.stateChanged()) {
        DocumentSet set = e.lastSeen().orElseThrow();
        deliver(wait, "stateChanged", () -> handler.stateChanged(set));
      }
      deliver(wait, "trackingEnded", () -> handler.trackingEnded(wait.setId(), e));
      return PollTask::remove;
    } catch (NotFoundException e) {
      deliver(wait, "trackingEnded", () -> handler.trackingEnded(wait.setId(), e));
      return PollTask::remove;
    }
    // The wait's rule decided everything; the handler hears what the options' listener heard.
    result
        .set()
        .filter(set -> result.stateChanged() && !set.state().isComplete())
        .ifPresent(set -> deliver(wait, "stateChanged", () -> handler.stateChanged(set)));
    switch (result.kind()) {
      case COMPLETE -> {
        DocumentSet set = result.set().orElseThrow();
        deliver(wait, "completed", () -> handler.completed(set));
        return PollTask::remove;
      }
      case INPUT_NEEDED -> {
        DocumentSet set = result.set().orElseThrow();
        deliver(wait, "inputNeeded", () -> handler.inputNeeded(set));
      }
      case FAILED -> {
        FormationException failure = result.failure().orElseThrow();
        deliver(
            wait,
            "trackingPaused",
            () -> handler.trackingPaused(wait.setId(), failure, result.nextPollAt()));
      }
      case CHANGED, UNCHANGED, FAILED_TRANSIENTLY -> {
        // Told above, or nothing to tell: the next poll is in nextPollAt.
      }
    }
    String next = result.waitState().encode();
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

  /**
   * Tells the handler, in a span of the client's tracer (if it has one) linked to the span that
   * created the set, so that a formation's trace reaches its completion days later.
   */
  private void deliver(WaitState wait, String method, HandlerCall call) {
    FormationTracer.CallSpan span = span(wait, method);
    if (span == null) {
      run(call);
      return;
    }
    Throwable[] thrown = new Throwable[1];
    boolean[] ran = new boolean[1];
    Runnable told =
        () -> {
          ran[0] = true;
          try {
            run(call);
          } catch (RuntimeException | Error e) {
            thrown[0] = e;
          }
        };
    try {
      span.run(told);
    } catch (RuntimeException | Error tracerFailed) {
      // A tracer's failure never keeps the handler from being told.
      if (!ran[0]) {
        told.run();
      }
    }
    try {
      span.end(Optional.empty(), Optional.ofNullable(thrown[0]));
    } catch (RuntimeException | Error ignored) {
      // Nor changes what the handler did.
    }
    if (thrown[0] instanceof Error error) {
      throw error;
    }
    if (thrown[0] != null) {
      throw (RuntimeException) thrown[0];
    }
  }

  private FormationTracer.CallSpan span(WaitState wait, String method) {
    try {
      return client
          .tracer()
          .map(
              tracer ->
                  tracer.startCall(
                      new FormationTracer.Call(
                          "FormationTracker." + method,
                          Optional.of(wait.setId()),
                          Optional.empty(),
                          wait.traceContext())))
          .orElse(null);
    } catch (RuntimeException | Error e) {
      return null;
    }
  }

  private static void run(HandlerCall call) {
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
