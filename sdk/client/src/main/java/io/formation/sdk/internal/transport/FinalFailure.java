package io.formation.sdk.internal.transport;

import java.io.IOException;

/**
 * Ends a call as it is, never retried: the token provider failed, or something inside the HTTP
 * stack threw what is not an I/O failure (a {@link RuntimeException} of OkHttp's, a {@link
 * LinkageError} of a library too old). It travels through OkHttp as an {@link IOException}, so no
 * OkHttp thread dies of it, and the caller gets the exception it carries.
 */
public final class FinalFailure extends IOException {
  private static final long serialVersionUID = 1L;

  private final transient RuntimeException exception;

  public FinalFailure(RuntimeException exception) {
    super(exception.getMessage());
    this.exception = exception;
  }

  /** {@return what the caller is given} */
  public RuntimeException exception() {
    return exception;
  }
}
