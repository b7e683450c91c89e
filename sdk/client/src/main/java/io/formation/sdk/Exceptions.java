package io.formation.sdk;

import com.fasterxml.jackson.databind.node.MissingNode;
import io.formation.sdk.internal.Failures;
import io.formation.sdk.internal.Redaction;
import io.formation.sdk.model.DocumentSet;
import io.formation.sdk.model.DocumentSetState;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import okhttp3.Headers;

/** The one factory of the SDK's exceptions; see {@link Failures}. */
final class Exceptions implements Failures {
  static final Exceptions INSTANCE = new Exceptions();

  private Exceptions() {}

  @Override
  public FormationException failure(String message, Throwable cause) {
    return new FormationException(Redaction.redact(message, null), Redaction.scrub(cause, null));
  }

  @Override
  public NetworkException network(String message, Throwable cause, boolean requestSent) {
    return new NetworkException(
        Redaction.redact(message, null), Redaction.scrub(cause, null), requestSent);
  }

  @Override
  public InvalidResponseException invalidResponse(String message, int statusCode, String body) {
    return new InvalidResponseException(Redaction.redact(message, null), statusCode, body, null);
  }

  @Override
  public UntrustedOriginException untrustedOrigin(String origin) {
    return new UntrustedOriginException(origin);
  }

  @Override
  public ApiException forStatus(
      String method,
      String url,
      int status,
      Headers headers,
      String body,
      List<ApiError> errors,
      Duration retryAfter) {
    return ByStatus.exception(
        new ApiException.Answer(method, url, status, headers, body, errors), retryAfter);
  }

  /** A wait whose deadline came: the state it saw last, if any, and its last failure, if any. */
  static PollTimeoutException pollTimeout(
      WaitState wait, DocumentSetState lastState, Throwable lastFailure) {
    DocumentSet lastSeen =
        lastState == null
            ? null
            // What a timeout reports, its id and state: thousands of waits each hold only this.
            : new DocumentSet(wait.setId(), lastState, Optional.empty(), MissingNode.getInstance());
    return new PollTimeoutException(wait.setId(), lastSeen, wait.timeout(), lastFailure);
  }

  /** A set that needs input, and what to do about it. */
  static InputNeededException inputNeeded(DocumentSet set, String detail) {
    return new InputNeededException(set, detail);
  }

  /**
   * A class of its own, loaded at the first error: the JVM loads every class this switch makes to
   * check the switch, and would otherwise load them all at every client's start.
   */
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
