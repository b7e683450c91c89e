package io.formation.sdk;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import io.formation.sdk.internal.guards.Redaction;
import io.formation.sdk.internal.json.Wire;
import io.formation.sdk.internal.time.Time;
import io.formation.sdk.internal.transport.ApiRequest;
import io.formation.sdk.model.DocumentSet;
import io.formation.sdk.model.DocumentSetState;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import okhttp3.Headers;

/** The one factory of the SDK's exceptions, so every message goes through {@link Redaction}. */
final class Exceptions {
  private Exceptions() {}

  static FormationException failure(String message, Throwable cause) {
    return new FormationException(Redaction.redact(message, null), Redaction.scrub(cause, null));
  }

  static NetworkException network(String message, Throwable cause, boolean requestSent) {
    return new NetworkException(
        Redaction.redact(message, null), Redaction.scrub(cause, null), requestSent);
  }

  static InvalidResponseException invalidResponse(String message, int statusCode, String body) {
    return new InvalidResponseException(Redaction.redact(message, null), statusCode, body, null);
  }

  static UntrustedOriginException untrustedOrigin(String origin) {
    return new UntrustedOriginException(origin);
  }

  static RateLimitException rateLimited(ApiRequest request, Duration retryAfter, String why) {
    long seconds = Math.max(1, Time.capped(retryAfter).plusMillis(999).getSeconds());
    String past =
        request.isPoll() ? "this poll's timeout or its wait's deadline" : "this call's timeout";
    ApiException.Answer answer =
        new ApiException.Answer(
            request.method(),
            request.url().toString(),
            429,
            Headers.of("Retry-After", Long.toString(seconds)),
            "not sent: " + why + " for another " + retryAfter + ", past " + past,
            List.of());
    return new RateLimitException(answer, retryAfter);
  }

  static ApiException forStatus(
      String method, String url, int status, Headers headers, String body, Duration retryAfter) {
    return ByStatus.exception(
        new ApiException.Answer(method, url, status, headers, body, errors(body)), retryAfter);
  }

  /** The JSON:API {@code errors} of a body; empty for anything else. */
  static List<ApiError> errors(String body) {
    JsonNode errors;
    try {
      errors = Wire.readTree(body).get("errors");
    } catch (IOException notJson) {
      return List.of();
    }
    if (errors == null || !errors.isArray()) {
      return List.of();
    }
    List<ApiError> parsed = new ArrayList<>();
    for (JsonNode error : errors) {
      if (error.isObject()) {
        JsonNode source = error.path("source");
        parsed.add(
            new ApiError(
                Wire.text(error.get("status")),
                Wire.text(error.get("code")),
                Wire.text(error.get("title")),
                Wire.text(error.get("detail")),
                Wire.text(source.get("pointer")),
                Wire.text(source.get("parameter")),
                error));
      }
    }
    return parsed;
  }

  /** A wait whose deadline came: the state it saw last, if any, and its last failure, if any. */
  static PollTimeoutException pollTimeout(
      WaitState wait, DocumentSetState lastState, Throwable lastFailure) {
    DocumentSet lastSeen =
        lastState == null
            ? null
            // What a saved wait knows of the set: its id and state.
            : new DocumentSet(wait.setId(), lastState, Optional.empty(), MissingNode.getInstance());
    return new PollTimeoutException(wait.setId(), lastSeen, wait.timeout(), lastFailure, false);
  }

  /**
   * A wait whose deadline came as its last poll read the set: the set as read when its state is new
   * (to be told), else its id and state as a saved wait knows them.
   */
  static PollTimeoutException pollTimeout(WaitState wait, DocumentSet seen, boolean changed) {
    return changed
        ? new PollTimeoutException(wait.setId(), seen, wait.timeout(), null, true)
        : pollTimeout(wait, seen.state(), null);
  }

  /**
   * What a saved wait says of its last poll's failure, for a timeout found when the wait is taken
   * up: the exception of its status, or of its kind, saying that it stands for that poll.
   */
  static FormationException savedFailure(WaitState wait) {
    String poll = "the last poll of document set " + wait.setId() + " before the deadline";
    return switch (wait.lastFailure) {
      case WaitState.NETWORK -> network(poll + " got no answer", null, true);
      case WaitState.INVALID -> invalidResponse(poll + " was not answered with a set", 0, "");
      case WaitState.OTHER -> failure(poll + " failed", null);
      default ->
          forStatus(
              "GET",
              "/v1/document_sets/" + wait.setId() + " (" + poll + ")",
              wait.lastFailure,
              Headers.of(),
              "",
              null);
    };
  }

  /** A set that needs input, and what to do about it. */
  static InputNeededException inputNeeded(DocumentSet set, String detail) {
    return new InputNeededException(set, detail);
  }

  /** A class of its own, loaded at the first error only: docs/building.md. */
  private static final class ByStatus {
    static ApiException exception(ApiException.Answer answer, Duration retryAfter) {
      return switch (answer.statusCode()) {
        case 400 -> new BadRequestException(answer);
        case 401 -> new AuthenticationException(answer);
        case 403 -> new PermissionDeniedException(answer);
        case 404 -> new NotFoundException(answer);
        case 409 -> new ConflictException(answer);
        case 422 -> new ValidationException(answer);
        case 429 -> new RateLimitException(answer, retryAfter);
        default ->
            answer.statusCode() >= 500 ? new ServerException(answer) : new ApiException(answer);
      };
    }
  }
}
