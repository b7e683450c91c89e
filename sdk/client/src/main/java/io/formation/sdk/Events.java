package io.formation.sdk;

import io.formation.sdk.internal.Port;
import io.formation.sdk.internal.guards.Checks;
import io.formation.sdk.internal.guards.Log;
import io.formation.sdk.internal.guards.Origins;
import io.formation.sdk.internal.transport.ApiRequest;
import io.formation.sdk.internal.transport.Operation;
import io.formation.sdk.internal.transport.Outcome;
import io.formation.sdk.internal.transport.RequestIds;
import io.formation.sdk.model.DocumentSet;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import okhttp3.Headers;

/** The internals' {@link Port}: each event told once to the log, listener and tracer alike. */
final class Events implements Port {
  /** The name of a create, whose span's context the waits of its set keep. */
  static final String CREATE = "DocumentSets.create";

  private final FormationListener listener;
  private final FormationTracer tracer;
  private final Log log;
  // The context of the span that created each set, for the waits started afterwards; null untraced.
  private final Map<String, String> createdIn;

  /** The partner's listener and tracer may each be null. */
  Events(FormationListener listener, FormationTracer tracer, Log log) {
    this.listener = listener;
    this.tracer = tracer;
    this.log = log;
    this.createdIn = tracer == null ? null : Submissions.lru(Submissions.SETS);
  }

  Optional<FormationTracer> tracer() {
    return Optional.ofNullable(tracer);
  }

  /** {@return the saved context of the span that created the set through this client, or null} */
  String createdIn(String setId) {
    return createdIn == null ? null : createdIn.get(setId);
  }

  @Override
  public Call callStarted(ApiRequest request) {
    FormationTracer.CallSpan span = null;
    if (tracer != null) {
      try {
        Operation operation = request.operation();
        span =
            tracer.startCall(
                new FormationTracer.Call(
                    operation.name(),
                    Optional.ofNullable(operation.setId()),
                    Optional.ofNullable(operation.formId()),
                    Optional.ofNullable(operation.link())));
      } catch (Throwable e) {
        tracerThrew(e);
      }
    }
    return new Reported(request, span);
  }

  /** A tracer's failure is logged, never the call's. */
  private void tracerThrew(Throwable e) {
    log.log(Level.WARNING, "a FormationTracer threw " + e, null);
  }

  /** One call's events, and its span when traced. */
  private final class Reported implements Call {
    private final ApiRequest request;
    private final FormationTracer.CallSpan span;
    // Attempts of a call run one after another.
    private volatile FormationTracer.AttemptSpan attemptSpan;

    Reported(ApiRequest request, FormationTracer.CallSpan span) {
      this.request = request;
      this.span = span;
    }

    @Override
    public Map<String, String> attemptStarted(int attempt, int maxAttempts) {
      if (listener == null && tracer == null) {
        return Map.of();
      }
      AttemptEvent event = event(attempt, maxAttempts, null, 0);
      each(each -> each.attemptStarted(event));
      if (span == null) {
        return Map.of();
      }
      try {
        FormationTracer.AttemptSpan started = span.startAttempt(event);
        attemptSpan = started;
        return sendable(started.headers());
      } catch (Throwable e) {
        tracerThrew(e);
        return Map.of();
      }
    }

    @Override
    public void attemptFinished(
        int attempt, int maxAttempts, Outcome outcome, long nanos, Duration retryIn) {
      boolean debug = log.on(Level.DEBUG);
      if (listener == null && tracer == null && !debug) {
        return;
      }
      AttemptEvent event = event(attempt, maxAttempts, outcome, nanos);
      if (debug) {
        log.log(Level.DEBUG, line(event, outcome, retryIn), outcome.token());
      }
      if (log.on(Level.TRACE)) {
        trace(request, outcome);
      }
      FormationTracer.AttemptSpan ending = attemptSpan;
      attemptSpan = null;
      if (ending != null) {
        safely(() -> ending.end(event));
      }
      each(each -> each.attemptFinished(event));
      if (retryIn != null) {
        each(each -> each.retryScheduled(event, retryIn));
      }
    }

    /** The event of an attempt: started when {@code outcome} is null, else finished. */
    private AttemptEvent event(int attempt, int maxAttempts, Outcome outcome, long nanos) {
      return new AttemptEvent(
          request.method(),
          request.urlWithoutQuery(),
          attempt,
          maxAttempts,
          outcome == null || outcome.failure() != null ? 0 : outcome.statusCode(),
          Duration.ofNanos(nanos),
          outcome == null ? Optional.empty() : RequestIds.of(outcome.headers()),
          outcome == null ? Optional.empty() : Optional.ofNullable(outcome.failure()));
    }

    @Override
    public void ended(Object result, Throwable failure) {
      if (span == null) {
        return;
      }
      Object value = result instanceof ApiResponse<?> response ? response.value() : result;
      DocumentSet set = value instanceof DocumentSet read ? read : null;
      safely(() -> span.end(Optional.ofNullable(set), Optional.ofNullable(failure)));
      if (set != null && request.operation().name().equals(CREATE)) {
        safely(() -> span.context().ifPresent(context -> createdIn.put(set.id(), context)));
      }
    }
  }

  /** The tracer's headers a request can carry; any other is dropped, not sent half-way. */
  private Map<String, String> sendable(Map<String, String> headers) {
    if (headers == null || headers.isEmpty()) {
      return Map.of();
    }
    Map<String, String> kept = new LinkedHashMap<>();
    headers.forEach(
        (name, value) -> {
          if (name != null
              && value != null
              && Checks.isToken(name)
              && Checks.invalidHeaderCharAt(value) < 0) {
            kept.put(name, value);
          } else {
            log.log(Level.WARNING, "a FormationTracer gave a header that cannot be sent", null);
          }
        });
    return Map.copyOf(kept);
  }

  void polled(DocumentSet set) {
    each(each -> each.polled(set));
  }

  @Override
  public void paused(String origin, Duration pause) {
    if (log.on(Level.DEBUG)) {
      log.log(Level.DEBUG, "calls to " + origin + " paused for " + pause.toMillis() + " ms", null);
    }
    each(each -> each.paused(origin, pause));
  }

  /** The wait read the set in a new state, at {@code now}; {@code wait} is as it was before. */
  void stateChanged(DocumentSet set, WaitState wait, Instant now) {
    if (log.on(Level.DEBUG)) {
      Duration into = Duration.between(wait.started(), now);
      log.log(
          Level.DEBUG,
          "document set %s is %s (poll %s, %s into the wait)"
              .formatted(set.id(), set.state(), wait.polls() + 1, seconds(into)),
          null);
    }
    if (listener == null && tracer == null) {
      return;
    }
    StateChange change =
        new StateChange(
            set,
            wait.lastState(),
            Optional.ofNullable(WaitState.instant(wait.stateSince))
                .filter(since -> wait.lastState != null)
                .map(since -> between(since, now)),
            wait.lastPoll().map(last -> between(last, now)));
    each(each -> each.stateChanged(set));
    each(each -> each.stateChanged(change));
  }

  void waitEnded(WaitState wait, String how, int polls, Instant now) {
    if (log.on(Level.DEBUG)) {
      Duration took = Duration.between(wait.started(), now);
      log.log(
          Level.DEBUG,
          "wait for document set %s ended: %s after %s %s in %s"
              .formatted(wait.setId(), how, polls, polls == 1 ? "poll" : "polls", seconds(took)),
          null);
    }
  }

  private static String line(AttemptEvent event, Outcome outcome, Duration retryIn) {
    Throwable failure = outcome.failure();
    String answer =
        failure == null
            ? "" + outcome.statusCode()
            : "failed (" + failure + (outcome.requestSent() ? ", sent)" : ", nothing sent)");
    String next =
        retryIn != null
            ? "; retrying in " + retryIn.toMillis() + " ms"
            : failure != null || outcome.statusCode() >= 400 ? "; not retried" : "";
    return "%s %s -> %s in %s ms (attempt %s of %s%s)%s"
        .formatted(
            event.method(),
            event.url(),
            answer,
            event.took().toMillis(),
            event.attempt(),
            event.maxAttempts(),
            event.requestId().map(id -> ", request id " + id).orElse(""),
            next);
  }

  private void trace(ApiRequest request, Outcome outcome) {
    String token = outcome.token();
    if (request.body() != null) {
      log.log(Level.TRACE, "request body: " + Log.shown(request.body(), token), token);
    }
    if (outcome.failure() == null) {
      log.log(Level.TRACE, "response body: " + Log.shown(outcome.body(), token), token);
    }
  }

  @Override
  public RuntimeException failure(String message, Throwable cause) {
    return Exceptions.failure(message, cause);
  }

  @Override
  public RuntimeException network(String message, Throwable cause, boolean requestSent) {
    return Exceptions.network(message, cause, requestSent);
  }

  @Override
  public RuntimeException invalidResponse(String message, int statusCode, String body) {
    return Exceptions.invalidResponse(message, statusCode, body);
  }

  @Override
  public RuntimeException untrustedOrigin(String origin) {
    return Exceptions.untrustedOrigin(origin);
  }

  @Override
  public RuntimeException rateLimited(ApiRequest request, Duration retryAfter, String why) {
    String origin = Origins.origin(request.url());
    each(each -> each.heldBack(origin, retryAfter));
    return Exceptions.rateLimited(request, retryAfter, why);
  }

  @Override
  public RuntimeException forStatus(
      ApiRequest request, int statusCode, Headers headers, String body, Duration retryAfter) {
    return Exceptions.forStatus(
        request.method(), request.url().toString(), statusCode, headers, body, retryAfter);
  }

  /** Never negative: a poll saved by an instance whose clock runs ahead can seem later than now. */
  private static Duration between(Instant from, Instant to) {
    Duration between = Duration.between(from, to);
    return between.isNegative() ? Duration.ZERO : between;
  }

  private static String seconds(Duration duration) {
    return String.format(java.util.Locale.ROOT, "%.1f s", duration.toMillis() / 1000.0);
  }

  /** Tells the listener and the tracer, each on its own. */
  private void each(Consumer<FormationListener> event) {
    if (listener != null) {
      safely(() -> event.accept(listener));
    }
    if (tracer != null) {
      safely(() -> event.accept(tracer));
    }
  }

  /** Logs and ignores what a listener throws, an Error too: a call's outcome never changes. */
  private void safely(Runnable call) {
    try {
      call.run();
    } catch (Throwable e) {
      log.log(Level.WARNING, "a FormationListener or FormationTracer threw " + e, null);
    }
  }
}
