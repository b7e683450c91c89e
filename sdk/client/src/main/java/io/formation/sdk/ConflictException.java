package io.formation.sdk;

import java.util.List;
import okhttp3.Headers;

/**
 * 409 Conflict: the resource is not in a state that allows the call.
 *
 * <pre>{@code
 * catch (ConflictException e) {
 *   System.err.println(e.getMessage());
 * }
 * }</pre>
 */
public class ConflictException extends ApiException {
  private static final long serialVersionUID = 1L;

  /** Creates the exception; see {@link ApiException#ApiException}. */
  ConflictException(
      String method,
      String url,
      int statusCode,
      Headers headers,
      String body,
      List<ApiError> errors) {
    super(method, url, statusCode, headers, body, errors);
  }
}
