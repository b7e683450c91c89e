package io.formation.sdk.internal.transport;

import java.io.IOException;

/** Ends a call as it is, never retried, carrying the exception through OkHttp. */
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
