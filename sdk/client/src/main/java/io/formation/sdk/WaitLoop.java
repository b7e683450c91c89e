package io.formation.sdk;

import io.formation.sdk.internal.guards.Checks;
import io.formation.sdk.internal.limits.RetryPolicy;
import io.formation.sdk.internal.time.Time;
import io.formation.sdk.internal.transport.ApiRequest;
import io.formation.sdk.internal.transport.AsyncOperation;
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

  /** The wall clock a wait with these options reads. */
  Clock clock(PollOptions options) {
    return options.clock().orElse(time.clock());
  }

  PollResult poll(WaitState wait, PollOptions options) {
    Checks.nonNull("wait options", wait, options);
    WaitRule rule = rule(options);
    WaitClock time = new WaitClock(clock(options), this.time.ticker());
    awaitTurn(rule, wait, time.now(), time, null);
    return tell(rule, wait, endsAt(wait, pollOnce(rule, wait, time, null), time), time);
  }

  DocumentSet await(WaitState wait, PollOptions options) {
    Checks.nonNull("wait options", wait, options);
    WaitRule rule = rule(options);
    WaitClock time = new WaitClock(clock(options), this.time.ticker());
    wait = rule.takenUp(wait, time.now());
    FormationException lastFailure = null;
    while (true) {
      awaitTurn(rule, wait, wait.nextPoll(), time, lastFailure);
      WaitRule.Decision decision = endsAt(wait, pollOnce(rule, wait, time, lastFailure), time);
      PollResult result = tell(rule, wait, decision, time);
      if (result.kind() == PollResult.Kind.COMPLETE) {
        return result.set().orElseThrow();
      }
      if (decision.needsInput() != null) {
        throw ended(wait, decision.needsInput(), time);
      }
      wait = result.waitState();
      lastFailure = result.failure().orElse(null);
    }
  }

  /**
   * Sleeps until the rule lets the wait poll (the sleeper's waking a moment late or early is its
   * own precision); when no poll may be sent before the deadline, ends the wait there.
   */
  private void awaitTurn(
      WaitRule rule, WaitState wait, Instant due, WaitClock time, FormationException lastFailure) {
    Instant at = rule.pollAt(wait, due, time.now());
    if (at == null) {
      sleep(wait, time.until(wait.deadline()));
      throw ended(wait, rule.timeout(wait, lastFailure), time);
    }
    sleep(wait, time.until(at));
  }

  private WaitRule.Decision pollOnce(
      WaitRule rule, WaitState wait, WaitClock time, FormationException lastFailure) {
    DocumentSet set;
    try {
      set = transport.send(pollRequest(wait, time), Requests::documentSet);
    } catch (FormationException e) {
      if (Thread.currentThread().isInterrupted()) {
        throw e;
      }
      return rule.afterFailure(wait, e, time.now(), lastFailure);
    }
    return rule.afterPoll(wait, set, time.now());
  }

  /** The decision, once the time to tell its end has come. */
  private WaitRule.Decision endsAt(WaitState wait, WaitRule.Decision decision, WaitClock time) {
    if (decision.end() != null && decision.endAt() != null) {
      sleep(wait, time.until(decision.endAt()));
    }
    return decision;
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

  CompletableFuture<PollResult> pollAsync(WaitState wait, PollOptions options) {
    Checks.nonNull("wait options", wait, options);
    WaitRule rule = rule(options);
    WaitClock time = new WaitClock(clock(options), this.time.ticker());
    AsyncOperation<PollResult> operation = new AsyncOperation<>(transport.completions());
    Instant due = time.now();
    turnAsync(
        rule,
        wait,
        due,
        time,
        null,
        operation,
        () ->
            pollOnceAsync(
                rule,
                wait,
                time,
                null,
                operation,
                decision -> operation.complete(decision.result())));
    return operation.result();
  }

  CompletableFuture<DocumentSet> awaitAsync(WaitState start, PollOptions options) {
    Checks.nonNull("wait options", start, options);
    WaitRule rule = rule(options);
    WaitClock time = new WaitClock(clock(options), this.time.ticker());
    AsyncOperation<DocumentSet> operation = new AsyncOperation<>(transport.completions());
    WaitState wait = rule.takenUp(start, time.now());
    operation.run(() -> loopAsync(rule, wait, time, null, operation));
    return operation.result();
  }

  private void loopAsync(
      WaitRule rule,
      WaitState wait,
      WaitClock time,
      FormationException lastFailure,
      AsyncOperation<DocumentSet> operation) {
    turnAsync(
        rule,
        wait,
        wait.nextPoll(),
        time,
        lastFailure,
        operation,
        () ->
            pollOnceAsync(
                rule,
                wait,
                time,
                lastFailure,
                operation,
                decision -> {
                  PollResult result = decision.result();
                  if (result.kind() == PollResult.Kind.COMPLETE) {
                    operation.complete(result.set().orElseThrow());
                  } else if (decision.needsInput() != null) {
                    operation.fail(ended(wait, decision.needsInput(), time));
                  } else {
                    // What the next poll needs, not the result: a waiting set keeps no copy of
                    // the set last read (its JSON tree is several KB) until its next poll.
                    WaitState next = result.waitState();
                    FormationException failure = result.failure().orElse(null);
                    operation.run(() -> loopAsync(rule, next, time, failure, operation));
                  }
                }));
  }

  /** Parks until the rule lets the wait poll, then runs {@code poll}; as {@link #awaitTurn}. */
  private void turnAsync(
      WaitRule rule,
      WaitState wait,
      Instant due,
      WaitClock time,
      FormationException lastFailure,
      AsyncOperation<?> operation,
      Runnable poll) {
    Instant at = rule.pollAt(wait, due, time.now());
    if (at == null) {
      after(
          operation,
          time.until(wait.deadline()),
          () -> operation.fail(ended(wait, rule.timeout(wait, lastFailure), time)));
    } else {
      after(operation, time.until(at), poll);
    }
  }

  /** One poll, async; the rule's decision reaches {@code then} on the completions executor. */
  private void pollOnceAsync(
      WaitRule rule,
      WaitState wait,
      WaitClock time,
      FormationException lastFailure,
      AsyncOperation<?> operation,
      Consumer<WaitRule.Decision> then) {
    CompletableFuture<DocumentSet> sent =
        transport.sendAsyncStep(pollRequest(wait, time), Requests::documentSet);
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
                        () -> {
                          if (operation.isDone()) {
                            return;
                          }
                          Throwable failure = set != null ? null : AsyncOperation.unwrap(error);
                          if (failure != null && !(failure instanceof RuntimeException)) {
                            operation.fail(failure);
                            return;
                          }
                          Instant now = time.now();
                          WaitRule.Decision decision =
                              set != null
                                  ? rule.afterPoll(wait, set, now)
                                  : rule.afterFailure(
                                      wait, (RuntimeException) failure, now, lastFailure);
                          Runnable told =
                              () -> {
                                tell(rule, wait, decision, time);
                                then.accept(decision);
                              };
                          if (decision.end() != null && decision.endAt() != null) {
                            after(operation, time.until(decision.endAt()), told);
                          } else {
                            told.run();
                          }
                        })));
  }

  private void after(AsyncOperation<?> operation, Duration wait, Runnable next) {
    if (wait.isNegative() || wait.isZero()) {
      operation.run(next);
    } else {
      operation.after(transport.sleeper(), Time.capped(wait), next);
    }
  }

  /**
   * Tells the client's listener and the options' listener what the rule decided, then returns the
   * result, or throws the end.
   */
  private PollResult tell(
      WaitRule rule, WaitState wait, WaitRule.Decision decision, WaitClock time) {
    DocumentSet seen = decision.seen();
    if (seen != null) {
      events.polled(seen);
      if (decision.changed()) {
        events.stateChanged(seen, wait.polls() + 1, Duration.between(wait.started(), time.now()));
        rule.options().onStateChange().accept(seen);
      }
    }
    if (decision.end() != null) {
      throw ended(wait, decision.end(), time);
    }
    if (decision.result().kind() == PollResult.Kind.COMPLETE) {
      events.waitEnded(
          wait.setId(), "complete", wait.polls() + 1, Duration.between(wait.started(), time.now()));
    }
    return decision.result();
  }

  private RuntimeException ended(WaitState wait, RuntimeException end, WaitClock time) {
    events.waitEnded(
        wait.setId(),
        end.getClass().getSimpleName() + ": " + end.getMessage(),
        wait.polls(),
        Duration.between(wait.started(), time.now()));
    return end;
  }

  /** The rule for waits polling with these options. */
  private WaitRule rule(PollOptions options) {
    WaitRule last = lastRule;
    if (last == null || last.options() != options) {
      last = new WaitRule(options, time.random(), retryPolicy);
      lastRule = last;
    }
    return last;
  }

  private ApiRequest pollRequest(WaitState wait, WaitClock time) {
    return request.apply(wait.setId()).asPoll(time.reading(wait.deadline()));
  }
}
