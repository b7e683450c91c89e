package io.formation.sdk;

import io.formation.sdk.internal.Port;
import io.formation.sdk.internal.guards.Log;
import io.formation.sdk.internal.transport.ApiRequest;
import io.formation.sdk.internal.transport.Outcome;
import io.formation.sdk.internal.transport.RequestIds;
import io.formation.sdk.model.DocumentSet;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.Optional;
import okhttp3.Headers;

/**
 * Where the client says what it does, once per event: its log and the partner's {@link
 * FormationListener}, so the two never disagree; nothing is built when nobody listens. The
 * internals' {@link Port}: they reach the listener and the exceptions through it.
 */
final class Events implements Port {
  private final FormationListener listener;
  private final Log log;

  /**
   * @param listener the partner's listener, or null
   */
  Events(FormationListener listener, Log log) {
    this.listener = listener;
    this.log = log;
  }

  @Override
  public void attemptStarted(ApiRequest request, int attempt, int maxAttempts) {
    if (listener != null) {
      AttemptEvent event = event(request, attempt, maxAttempts, 0, Duration.ZERO, null);
      notify(() -> listener.attemptStarted(event));
    }
  }

  @Override
  public void attemptFinished(
      ApiRequest request,
      int attempt,
      int maxAttempts,
      Outcome outcome,
      long nanos,
      Duration retryIn) {
    boolean debug = log.on(Level.DEBUG);
    if (listener == null && !debug) {
      return;
    }
    AttemptEvent event =
        event(
            request,
            attempt,
            maxAttempts,
            outcome.failure() == null ? outcome.statusCode() : 0,
            Duration.ofNanos(nanos),
            outcome);
    if (debug) {
      log.log(Level.DEBUG, line(event, outcome, retryIn), outcome.token());
    }
    if (log.on(Level.TRACE)) {
      trace(request, outcome);
    }
    if (listener != null) {
      notify(() -> listener.attemptFinished(event));
      if (retryIn != null) {
        notify(() -> listener.retryScheduled(event, retryIn));
      }
    }
  }

  /** The event of an attempt: started when {@code outcome} is null, else finished. */
  private static AttemptEvent event(
      ApiRequest request,
      int attempt,
      int maxAttempts,
      int status,
      Duration took,
      Outcome outcome) {
    return new AttemptEvent(
        request.method(),
        request.urlWithoutQuery(),
        attempt,
        maxAttempts,
        status,
        took,
        outcome == null ? Optional.empty() : RequestIds.of(outcome.headers()),
        outcome == null ? Optional.empty() : Optional.ofNullable(outcome.failure()));
  }

  void polled(DocumentSet set) {
    if (listener != null) {
      notify(() -> listener.polled(set));
    }
  }

  void stateChanged(DocumentSet set, int polls, Duration sinceStart) {
    if (log.on(Level.DEBUG)) {
      log.log(
          Level.DEBUG,
          "document set "
              + set.id()
              + " is "
              + set.state()
              + " (poll "
              + polls
              + ", "
              + seconds(sinceStart)
              + " into the wait)",
          null);
    }
    if (listener != null) {
      notify(() -> listener.stateChanged(set));
    }
  }

  void waitEnded(String id, String how, int polls, Duration took) {
    if (log.on(Level.DEBUG)) {
      log.log(
          Level.DEBUG,
          "wait for document set "
              + id
              + " ended: "
              + how
              + " after "
              + polls
              + (polls == 1 ? " poll" : " polls")
              + " in "
              + seconds(took),
          null);
    }
  }

  private static String line(AttemptEvent event, Outcome outcome, Duration retryIn) {
    StringBuilder line = new StringBuilder(event.method()).append(' ').append(event.url());
    if (outcome.failure() == null) {
      line.append(" -> ").append(outcome.statusCode());
    } else {
      line.append(" -> failed (")
          .append(outcome.failure())
          .append(outcome.requestSent() ? ", sent" : ", nothing sent")
          .append(')');
    }
    line.append(" in ").append(event.took().toMillis()).append(" ms");
    line.append(" (attempt ").append(event.attempt()).append(" of ").append(event.maxAttempts());
    event.requestId().ifPresent(id -> line.append(", request id ").append(id));
    line.append(')');
    if (retryIn != null) {
      line.append("; retrying in ").append(retryIn.toMillis()).append(" ms");
    } else if (outcome.failure() != null || outcome.statusCode() >= 400) {
      line.append("; not retried");
    }
    return line.toString();
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
    return Exceptions.rateLimited(request, retryAfter, why);
  }

  @Override
  public RuntimeException forStatus(
      ApiRequest request, int statusCode, Headers headers, String body, Duration retryAfter) {
    return Exceptions.forStatus(
        request.method(),
        request.url().toString(),
        statusCode,
        headers,
        body,
        Exceptions.errors(body),
        retryAfter);
  }

  private static String seconds(Duration duration) {
    return String.format(java.util.Locale.ROOT, "%.1f s", duration.toMillis() / 1000.0);
  }

  /**
   * Whatever a listener throws, an {@link Error} included (a {@code NoClassDefFoundError} in a
   * partner's metrics code), is logged and ignored: the call's outcome never changes, and a create
   * the service made is never reported as failed.
   */
  private void notify(Runnable call) {
    try {
      call.run();
    } catch (Throwable e) {
      log.log(Level.WARNING, "a FormationListener threw " + e, null);
    }
  }
}
