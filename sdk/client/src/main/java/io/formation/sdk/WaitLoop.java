package io.formation.sdk;

import io.formation.sdk.internal.guards.Checks;
import io.formation.sdk.internal.limits.RetryPolicy;
import io.formation.sdk.internal.time.Time;
import io.formation.sdk.internal.transport.ApiRequest;
import io.formation.sdk.internal.transport.AsyncOperation;
import io.formation.sdk.internal.transport.Operation;
import io.formation.sdk.internal.transport.Transport;
import io.formation.sdk.model.DocumentSet;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * Carries out the {@link WaitRule}: sends each poll when the rule says, hands what it saw back to
 * the rule, tells the listeners what the rule decided, and sleeps (blocking) or parks (async) until
 * the next poll. It decides nothing itself.
 */
final class WaitLoop {
  private final Transport transport;
  private final Events events;
  private final Function<String, ApiRequest> request;
  private final Time time;
  private final RetryPolicy retryPolicy;
  // The rule of the options passed last (docs/building.md).
  private volatile WaitRule lastRule;

  WaitLoop(
      Transport transport,
      Events events,
      Function<String, ApiRequest> request,
      Time time,
      RetryPolicy retryPolicy) {
    this.transport = transport;
    this.events = events;
    this.request = request;
    this.time = time;
    this.retryPolicy = retryPolicy;
  }

  /** This loop, its polls built by {@code request} (a view's, with its request options). */
  WaitLoop withRequests(Function<String, ApiRequest> request) {
    return new WaitLoop(transport, events, request, time, retryPolicy);
  }

  /** {@return the saved context of the span that created the set through this client, or null} */
  String createdIn(String setId) {
    return events.createdIn(setId);
  }

  /** The wall clock a wait with these options reads. */
  Clock clock(PollOptions options) {
    return options.clock().orElse(time.clock());
  }

  PollResult poll(WaitState wait, PollOptions options) {
    Run run = new Run(wait, options, false);
    return run.step(wait, run.time.now(), null);
  }

  DocumentSet await(WaitState start, PollOptions options) {
    Run run = new Run(start, options, true);
    WaitState wait = run.rule.takenUp(start, run.time.now());
    FormationException lastFailure = null;
    while (true) {
      PollResult result = run.step(wait, wait.nextPoll(), lastFailure);
      if (result.kind() == PollResult.Kind.COMPLETE) {
        return result.set().orElseThrow();
      }
      wait = result.waitState();
      lastFailure = result.failure().orElse(null);
    }
  }

  CompletableFuture<PollResult> pollAsync(WaitState wait, PollOptions options) {
    Run run = new Run(wait, options, false);
    AsyncOperation<PollResult> operation = new AsyncOperation<>(transport.completions());
    run.turnAsync(
        wait,
        run.time.now(),
        null,
        operation,
        () -> run.pollOnceAsync(wait, null, operation, operation::complete));
    return operation.result();
  }

  CompletableFuture<DocumentSet> awaitAsync(WaitState start, PollOptions options) {
    Run run = new Run(start, options, true);
    AsyncOperation<DocumentSet> operation = new AsyncOperation<>(transport.completions());
    WaitState wait = run.rule.takenUp(start, run.time.now());
    operation.run(() -> run.loopAsync(wait, null, operation));
    return operation.result();
  }

  /** One call's wait: its rule, its clock read from the call on, and whether it runs to the end. */
  private final class Run {
    final WaitRule rule;
    final WaitClock time;
    // An await, which a set that needs input ends, rather than one poll, which reports it.
    final boolean untilComplete;

    Run(WaitState wait, PollOptions options, boolean untilComplete) {
      Checks.nonNull("wait options", wait, options);
      this.rule = rule(options);
      this.time = new WaitClock(clock(options), WaitLoop.this.time.ticker());
      this.untilComplete = untilComplete;
    }

    /**
     * Sleeps until the rule lets the wait poll (or ends it at the deadline if none may), polls, and
     * tells what the poll found when its time comes (the deadline, for a poll that ends the wait).
     */
    PollResult step(WaitState wait, Instant due, FormationException lastFailure) {
      Instant at = rule.pollAt(wait, due, time.now());
      sleep(wait, time.until(at != null ? at : wait.deadline()));
      if (at == null) {
        throw ended(wait, rule.timeout(wait, lastFailure));
      }
      WaitRule.Decision decision;
      try {
        DocumentSet set = transport.send(pollRequest(wait), DocumentSets::documentSet);
        decision = rule.afterPoll(wait, set, time.now());
      } catch (FormationException e) {
        if (Thread.currentThread().isInterrupted()) {
          throw e;
        }
        decision = rule.afterFailure(wait, e, time.now(), lastFailure);
      }
      sleep(wait, untilTold(decision));
      return tell(wait, decision);
    }

    /** Zero, or the time until the deadline at which the decision ends the wait. */
    Duration untilTold(WaitRule.Decision decision) {
      return decision.endAt() == null ? Duration.ZERO : time.until(decision.endAt());
    }

    private void sleep(WaitState wait, Duration duration) {
      if (duration.isNegative() || duration.isZero()) {
        return;
      }
      try {
        transport.sleeper().sleep(Time.capped(duration));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw Exceptions.failure("Interrupted while waiting for document set " + wait.setId(), e);
      }
    }

    void loopAsync(
        WaitState wait, FormationException lastFailure, AsyncOperation<DocumentSet> operation) {
      turnAsync(
          wait,
          wait.nextPoll(),
          lastFailure,
          operation,
          () ->
              pollOnceAsync(
                  wait,
                  lastFailure,
                  operation,
                  result -> {
                    if (result.kind() == PollResult.Kind.COMPLETE) {
                      operation.complete(result.set().orElseThrow());
                    } else {
                      loopAsync(result.waitState(), result.failure().orElse(null), operation);
                    }
                  }));
    }

    /** Parks until the rule lets the wait poll, then runs {@code poll}; as {@link #step}. */
    void turnAsync(
        WaitState wait,
        Instant due,
        FormationException lastFailure,
        AsyncOperation<?> operation,
        Runnable poll) {
      Instant at = rule.pollAt(wait, due, time.now());
      after(
          operation,
          time.until(at != null ? at : wait.deadline()),
          at != null ? poll : () -> operation.fail(ended(wait, rule.timeout(wait, lastFailure))));
    }

    /** One poll, async; what it found reaches {@code then} on the completions executor. */
    void pollOnceAsync(
        WaitState wait,
        FormationException lastFailure,
        AsyncOperation<?> operation,
        Consumer<PollResult> then) {
      CompletableFuture<DocumentSet> sent =
          transport.sendAsyncStep(pollRequest(wait), DocumentSets::documentSet);
      if (!operation.track(sent)) {
        return;
      }
      // Never on OkHttp's threads, where a slow listener would hold a connection slot.
      sent.whenComplete(
          (set, error) ->
              AsyncOperation.execute(
                  transport.completions(),
                  () ->
                      operation.run(
                          () -> answered(wait, set, error, lastFailure, operation, then))));
    }

    private void answered(
        WaitState wait,
        DocumentSet set,
        Throwable error,
        FormationException lastFailure,
        AsyncOperation<?> operation,
        Consumer<PollResult> then) {
      if (operation.isDone()) {
        return;
      }
      Throwable failure = set != null ? null : AsyncOperation.unwrap(error);
      if (failure != null && !(failure instanceof RuntimeException)) {
        operation.fail(failure);
        return;
      }
      WaitRule.Decision decision =
          set != null
              ? rule.afterPoll(wait, set, time.now())
              : rule.afterFailure(wait, (RuntimeException) failure, time.now(), lastFailure);
      after(operation, untilTold(decision), () -> then.accept(tell(wait, decision)));
    }

    private void after(AsyncOperation<?> operation, Duration wait, Runnable next) {
      if (wait.isNegative() || wait.isZero()) {
        operation.run(next);
      } else {
        operation.after(transport.sleeper(), Time.capped(wait), next);
      }
    }

    /** Tells both listeners what the rule decided; returns the result, or throws the wait's end. */
    PollResult tell(WaitState wait, WaitRule.Decision decision) {
      DocumentSet seen = decision.seen();
      if (seen != null) {
        events.polled(seen);
        if (decision.changed()) {
          events.stateChanged(seen, wait, time.now());
          rule.options().onStateChange().accept(seen);
        }
      }
      if (decision.end() != null) {
        throw ended(wait, decision.end());
      }
      if (decision.result().kind() == PollResult.Kind.COMPLETE) {
        events.waitEnded(wait, "complete", wait.polls() + 1, time.now());
      }
      if (untilComplete && decision.needsInput() != null) {
        throw ended(wait, decision.needsInput());
      }
      return decision.result();
    }

    RuntimeException ended(WaitState wait, RuntimeException end) {
      events.waitEnded(
          wait, end.getClass().getSimpleName() + ": " + end.getMessage(), wait.polls(), time.now());
      return end;
    }

    private ApiRequest pollRequest(WaitState wait) {
      return request
          .apply(wait.setId())
          .asPoll(time.reading(wait.deadline()))
          .as(Operation.named("DocumentSets.poll").onSet(wait.setId()).linkedTo(wait.trace));
    }
  }

  private WaitRule rule(PollOptions options) {
    WaitRule last = lastRule;
    if (last == null || last.options() != options) {
      last = new WaitRule(options, time.random(), retryPolicy);
      lastRule = last;
    }
    return last;
  }
}
