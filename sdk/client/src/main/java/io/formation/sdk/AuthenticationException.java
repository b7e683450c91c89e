package io.formation.sdk;

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

  AuthenticationException(ApiException.Answer answer) {
    super(answer);
  }
}
