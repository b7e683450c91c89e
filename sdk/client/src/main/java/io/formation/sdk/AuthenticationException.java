package io.formation.sdk;

/** 401 Unauthorized: the access token is missing, expired or invalid. */
public class AuthenticationException extends ApiException {
  private static final long serialVersionUID = 1L;

  AuthenticationException(ApiException.Answer answer) {
    super(answer);
  }
}
