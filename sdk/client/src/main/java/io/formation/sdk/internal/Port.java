package io.formation.sdk.internal;

import io.formation.sdk.internal.json.Wire;
import io.formation.sdk.internal.transport.ApiRequest;
import io.formation.sdk.internal.transport.Outcome;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.concurrent.CancellationException;
import okhttp3.Headers;

/**
 * The internals' one way to the public package: its exceptions and the listener; the statics make
 * every other exception.
 */
public interface Port {
  RuntimeException failure(String message, Throwable cause);

  RuntimeException network(String message, Throwable cause, boolean requestSent);

  RuntimeException invalidResponse(String message, int statusCode, String body);

  RuntimeException untrustedOrigin(String origin);

  /** The 429 of a call the client held back for {@code retryAfter}, nothing sent. */
  RuntimeException rateLimited(ApiRequest request, Duration retryAfter, String why);

  /** The exception for an error status, its JSON:API errors read from the body. */
  RuntimeException forStatus(
      ApiRequest request, int statusCode, Headers headers, String body, Duration retryAfter);

  /** The service's Retry-After paused every call to the origin for {@code pause}. */
  void paused(String origin, Duration pause);

  /** A call begins, on the caller's thread: {@return what hears its attempts and its end} */
  Call callStarted(ApiRequest request);

  /**
   * What the port hears of one call; every attempt started is finished once, then the call ends.
   */
  interface Call {
    /** {@return the headers the attempt carries to a trusted origin (its trace's), often none} */
    Map<String, String> attemptStarted(int attempt, int maxAttempts);

    void attemptFinished(
        int attempt, int maxAttempts, Outcome outcome, long nanos, Duration retryIn);

    void ended(Object result, Throwable failure);
  }

  static IllegalArgumentException invalid(String message) {
    return new IllegalArgumentException(message);
  }

  static IllegalArgumentException invalid(String message, Throwable cause) {
    return new IllegalArgumentException(message, cause);
  }

  static IllegalStateException illegalState(String message) {
    return new IllegalStateException(message);
  }

  static IllegalStateException illegalState(String message, Throwable cause) {
    return new IllegalStateException(message, cause);
  }

  static IllegalStateException illegalState(Throwable cause) {
    return new IllegalStateException(cause);
  }

  static NullPointerException missing(String name) {
    return new NullPointerException(name);
  }

  /** How a call its caller cancelled ended. */
  static CancellationException cancelled() {
    return new CancellationException("cancelled by the caller");
  }

  static NoSuchElementException noMoreElements() {
    return new NoSuchElementException();
  }

  static UncheckedIOException unchecked(IOException e) {
    return new UncheckedIOException(e);
  }

  static InterruptedIOException interrupted(String message) {
    return new InterruptedIOException(message);
  }

  /** The body was JSON, but not the shape expected. */
  static Wire.ShapeException shape(String message) {
    return new Wire.ShapeException(message);
  }
}
