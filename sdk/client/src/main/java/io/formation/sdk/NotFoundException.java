package io.formation.sdk;

/** 404 Not Found: the resource does not exist or is not visible to the token. */
public class NotFoundException extends ApiException {
  private static final long serialVersionUID = 1L;

  NotFoundException(ApiException.Answer answer) {
    super(answer);
  }
}
