package io.formation.sdk.internal;

import io.formation.sdk.AttemptEvent;
import io.formation.sdk.FormationListener;
import io.formation.sdk.model.DocumentSet;
import java.lang.System.Logger.Level;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Optional;

/**
 * Where the client says what it does: its log, and the partner's {@link FormationListener}. The
 * transport and the waits report here, once per event, so a log line and a listener call can never
 * disagree; nothing is built when nobody listens.
 */
public final class Events {
  private final FormationListener listener;
  private final Log log;

  /**
   * @param listener the partner's listener, or null
   */
  public Events(FormationListener listener, Log log) {
    this.listener = listener;
    this.log = log;
  }

  void attemptStarted(ApiRequest request, int attempt, int maxAttempts) {
    if (listener != null) {
      AttemptEvent event = event(request, attempt, maxAttempts, 0, Duration.ZERO, null);
      notify(() -> listener.attemptStarted(event));
    }
  }

  /**
   * @param retryIn the wait before the next attempt, or null when this one was the last
   */
  void attemptFinished(
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

  public void polled(DocumentSet set) {
    if (listener != null) {
      notify(() -> listener.polled(set));
    }
  }

  public void stateChanged(DocumentSet set, int polls, Duration sinceStart) {
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

  public void waitEnded(String id, String how, int polls, Duration took) {
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
      log.log(Level.TRACE, "request body: " + shown(request.body(), token), token);
    }
    if (outcome.failure() == null) {
      log.log(Level.TRACE, "response body: " + shown(outcome.body(), token), token);
    }
  }

  /**
   * A body as a trace line shows it, in the order that keeps secrets out: redacted whole, escaped
   * (see {@link Log#log}), and only then cut, on a character boundary. A body that is not text is
   * left out, as OkHttp's logging interceptor leaves it out.
   */
  static String shown(byte[] body, String token) {
    String text;
    try {
      text =
          StandardCharsets.UTF_8
              .newDecoder()
              .onMalformedInput(CodingErrorAction.REPORT)
              .onUnmappableCharacter(CodingErrorAction.REPORT)
              .decode(ByteBuffer.wrap(body))
              .toString();
    } catch (CharacterCodingException notText) {
      return "(binary body of " + body.length + " bytes left out)";
    }
    if (text.chars().anyMatch(c -> Character.isISOControl(c) && !Character.isWhitespace(c))) {
      return "(binary body of " + body.length + " bytes left out)";
    }
    String safe = Log.escape(Redaction.redact(text, token));
    if (safe.length() <= Log.BODY_CHARS) {
      return safe;
    }
    int end = Log.BODY_CHARS;
    if (Character.isHighSurrogate(safe.charAt(end - 1))) {
      end--;
    }
    return safe.substring(0, end) + "...(" + body.length + " bytes in all)";
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
