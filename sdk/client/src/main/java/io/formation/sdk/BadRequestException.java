package io.formation.sdk;

import java.util.List;
import okhttp3.Headers;

/**
 * 400 Bad Request: the request was malformed or a parameter was out of bounds.
 *
 * <pre>{@code
 * catch (BadRequestException e) {
 *   System.err.println(e.getMessage());
 * }
 * }</pre>
 */
public class BadRequestException extends ApiException {
  private static final long serialVersionUID = 1L;

  /** Creates the exception; see {@link ApiException#ApiException}. */
  BadRequestException(
      String method,
      String url,
      int statusCode,
      Headers headers,
      String body,
      List<ApiError> errors) {
    super(method, url, statusCode, headers, body, errors);
  }
}
