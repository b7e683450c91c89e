package io.formation.sdk;

import io.formation.sdk.internal.Failures;
import java.time.Duration;
import java.util.List;
import okhttp3.Headers;

/** The one factory of the SDK's exceptions; see {@link Failures}. */
final class Exceptions implements Failures {
  static final Exceptions INSTANCE = new Exceptions();

  private Exceptions() {}

  @Override
  public FormationException failure(String message, Throwable cause) {
    return new FormationException(message, cause);
  }

  @Override
  public NetworkException network(String message, Throwable cause, boolean requestSent) {
    return new NetworkException(message, cause, requestSent);
  }

  @Override
  public InvalidResponseException invalidResponse(String message, int statusCode, String body) {
    return new InvalidResponseException(message, statusCode, body, null);
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
    return switch (status) {
      case 400 -> new BadRequestException(method, url, status, headers, body, errors);
      case 401 -> new AuthenticationException(method, url, status, headers, body, errors);
      case 403 -> new PermissionDeniedException(method, url, status, headers, body, errors);
      case 404 -> new NotFoundException(method, url, status, headers, body, errors);
      case 409 -> new ConflictException(method, url, status, headers, body, errors);
      case 422 -> new ValidationException(method, url, status, headers, body, errors);
      case 429 -> new RateLimitException(method, url, status, headers, body, errors, retryAfter);
      default ->
          status >= 500
              ? new ServerException(method, url, status, headers, body, errors)
              : new ApiException(method, url, status, headers, body, errors);
    };
  }
}
