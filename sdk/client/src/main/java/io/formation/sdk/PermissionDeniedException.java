package io.formation.sdk;

import java.util.List;
import okhttp3.Headers;

/**
 * 403 Forbidden: the token lacks a scope or access to the resource.
 *
 * <pre>{@code
 * catch (PermissionDeniedException e) {
 *   System.err.println(e.getMessage());
 * }
 * }</pre>
 */
public class PermissionDeniedException extends ApiException {
  private static final long serialVersionUID = 1L;

  /** Creates the exception; see {@link ApiException#ApiException}. */
  PermissionDeniedException(
      String method,
      String url,
      int statusCode,
      Headers headers,
      String body,
      List<ApiError> errors) {
    super(method, url, statusCode, headers, body, errors);
  }
}
