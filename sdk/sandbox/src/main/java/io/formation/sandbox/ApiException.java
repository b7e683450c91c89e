package io.formation.sandbox;

import java.util.List;
import java.util.Map;

/** Ends a request with a JSON:API errors document; thrown from deep inside request handling. */
final class ApiException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final int status;
  private final transient List<ApiError> errors;
  private final transient Map<String, String> headers;

  ApiException(int status, List<ApiError> errors, Map<String, String> headers) {
    super(errors.isEmpty() ? Integer.toString(status) : errors.get(0).detail(), null, false, false);
    this.status = status;
    this.errors = List.copyOf(errors);
    this.headers = Map.copyOf(headers);
  }

  ApiException(ApiError error) {
    this(error.status(), List.of(error), Map.of());
  }

  static ApiException badRequest(String code, String title, String detail) {
    return new ApiException(ApiError.of(400, code, title, detail));
  }

  static ApiException invalidParameter(String parameter, String code, String detail) {
    return new ApiException(
        new ApiError(400, code, "Invalid query parameter", detail, null, parameter));
  }

  static ApiException notFound(String detail) {
    return new ApiException(ApiError.of(404, "not_found", "Not found", detail));
  }

  static ApiException forbidden(String detail) {
    return new ApiException(ApiError.of(403, "forbidden", "Forbidden", detail));
  }

  static ApiException methodNotAllowed(String method, String allowed) {
    return new ApiException(
        405,
        List.of(
            ApiError.of(
                405,
                "method_not_allowed",
                "Method not allowed",
                method + " is not allowed here; use " + allowed + ".")),
        Map.of("Allow", allowed));
  }

  static ApiException conflict(String code, String detail) {
    return new ApiException(ApiError.of(409, code, "Conflict", detail));
  }

  static ApiException unavailable() {
    return new ApiException(
        ApiError.of(
            503,
            "unavailable",
            "Service unavailable",
            "The service is briefly unavailable; try again."));
  }

  int status() {
    return status;
  }

  List<ApiError> errors() {
    return errors;
  }

  Map<String, String> headers() {
    return headers;
  }
}
