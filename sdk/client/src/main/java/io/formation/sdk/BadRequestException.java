package io.formation.sdk;

/** 400 Bad Request: the request was malformed or a parameter was out of bounds. */
public class BadRequestException extends ApiException {
  private static final long serialVersionUID = 1L;

  BadRequestException(ApiException.Answer answer) {
    super(answer);
  }
}
