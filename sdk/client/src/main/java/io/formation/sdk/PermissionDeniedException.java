package io.formation.sdk;

/** 403 Forbidden: the token lacks a scope or access to the resource. */
public class PermissionDeniedException extends ApiException {
  private static final long serialVersionUID = 1L;

  PermissionDeniedException(ApiException.Answer answer) {
    super(answer);
  }
}
