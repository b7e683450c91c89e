package io.formation.sdk;

import java.util.List;
import okhttp3.Headers;

/**
 * 401 Unauthorized: the access token is missing, expired or invalid.
 *
 * <pre>{@code
 * catch (AuthenticationException e) {
 *   System.err.println(e.getMessage());
 * }
 * }</pre>
 */
public class AuthenticationException extends ApiException {
  private static final long serialVersionUID = 1L;

  /** Creates the exception; see {@link ApiException#ApiException}. */
  AuthenticationException(
      String method,
      String url,
      int statusCode,
      Headers headers,
      String body,
      List<ApiError> errors) {
    super(method, url, statusCode, headers, body, errors);
  }
}
