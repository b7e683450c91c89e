package io.formation.sdk.internal.transport;

import io.formation.sdk.internal.Port;
import java.io.IOException;

/** Ends a call as it is, never retried, carrying the exception through OkHttp. */
public final class FinalFailure extends IOException {
  private static final long serialVersionUID = 1L;

  private final transient RuntimeException exception;

  public FinalFailure(RuntimeException exception) {
    super(exception.getMessage());
    this.exception = exception;
  }

  /** A failure of OkHttp itself, or of what runs inside it. */
  static FinalFailure ofStack(Port port, RuntimeException e) {
    return new FinalFailure(port.failure("The HTTP stack failed during the call: " + e, e));
  }

  /** {@return what the caller is given} */
  public RuntimeException exception() {
    return exception;
  }
}
