package io.formation.sdk;

/** 409 Conflict: the resource is not in a state that allows the call. */
public class ConflictException extends ApiException {
  private static final long serialVersionUID = 1L;

  ConflictException(ApiException.Answer answer) {
    super(answer);
  }
}
