package io.formation.sdk.internal;

import io.formation.sdk.ApiError;
import io.formation.sdk.ApiException;
import io.formation.sdk.FormationException;
import io.formation.sdk.InvalidResponseException;
import io.formation.sdk.NetworkException;
import io.formation.sdk.RateLimitException;
import io.formation.sdk.UntrustedOriginException;
import java.time.Duration;
import java.util.List;
import okhttp3.Headers;

/**
 * Makes the SDK's exceptions for the internals. Their constructors are not public API, so the error
 * types can evolve; the one implementation lives beside them and the client hands it down.
 */
public interface Failures {
  FormationException failure(String message, Throwable cause);

  NetworkException network(String message, Throwable cause, boolean requestSent);

  InvalidResponseException invalidResponse(String message, int statusCode, String body);

  UntrustedOriginException untrustedOrigin(String origin);

  /** The 429 of a call the client held back for {@code retryAfter}, nothing sent. */
  RateLimitException rateLimited(ApiRequest request, Duration retryAfter, String why);

  /** The exception for an error status: the one place a status picks its exception type. */
  ApiException forStatus(
      String method,
      String url,
      int statusCode,
      Headers headers,
      String body,
      List<ApiError> errors,
      Duration retryAfter);
}
