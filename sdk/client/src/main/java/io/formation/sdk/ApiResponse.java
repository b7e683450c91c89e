package io.formation.sdk;

import io.formation.sdk.internal.guards.Checks;
import io.formation.sdk.internal.transport.JsonResponse;
import io.formation.sdk.internal.transport.RequestIds;
import java.util.Optional;
import okhttp3.Headers;

/**
 * A result with the response it came in: status, headers and the service's request id. Returned by
 * the services' {@code withResponse()} views.
 *
 * <pre>{@code
 * ApiResponse<DocumentSet> created =
 *     client.documentSets().withResponse().create(CreateDocumentSetParams.of(template));
 * log.info("created {} (request id {})", created.value().id(), created.requestId().orElse("none"));
 * }</pre>
 *
 * @param value the result, as the plain call returns it
 * @param statusCode the HTTP status of the answer
 * @param headers the answer's headers
 * @param requestId the service's {@code Request-Id} or {@code X-Request-Id}, if it sent one
 * @param <T> the result's type
 */
public record ApiResponse<T>(T value, int statusCode, Headers headers, Optional<String> requestId) {
  /**
   * Checks that no component is null.
   *
   * @param value the result, as the plain call returns it
   * @param statusCode the HTTP status of the answer
   * @param headers the answer's headers
   * @param requestId the service's {@code Request-Id} or {@code X-Request-Id}, if it sent one
   */
  public ApiResponse {
    Checks.nonNull("value headers requestId", value, headers, requestId);
  }

  static <T> ApiResponse<T> of(JsonResponse response, T value) {
    return new ApiResponse<>(
        value, response.statusCode(), response.headers(), RequestIds.of(response.headers()));
  }
}
