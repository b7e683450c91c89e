package io.formation.sdk;

import java.util.List;
import okhttp3.Headers;

/**
 * 404 Not Found: the resource does not exist or is not visible to the token.
 *
 * <pre>{@code
 * catch (NotFoundException e) {
 *   System.err.println(e.getMessage());
 * }
 * }</pre>
 */
public class NotFoundException extends ApiException {
  private static final long serialVersionUID = 1L;

  /** Creates the exception; see {@link ApiException#ApiException}. */
  NotFoundException(
      String method,
      String url,
      int statusCode,
      Headers headers,
      String body,
      List<ApiError> errors) {
    super(method, url, statusCode, headers, body, errors);
  }
}
