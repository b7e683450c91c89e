package io.formation.sdk;

/**
 * The call failed before a complete response arrived: connection refused, DNS failure, timeout,
 * connection reset. The {@link #getCause() cause} is the underlying {@link java.io.IOException}.
 */
public class NetworkException extends FormationException {
  private static final long serialVersionUID = 1L;

  /** Whether the request was written to the network. */
  private final boolean requestSent;

  NetworkException(String message, Throwable cause, boolean requestSent) {
    super(message, cause);
    this.requestSent = requestSent;
  }

  /**
   * {@return whether the request was written to the network, so the service may have acted on it,
   * which matters for a {@code create} or an action} False only when the SDK knows nothing was sent
   * (the connection could not be made, or the server had closed the pooled one before the request
   * went out): trying again then cannot do anything twice.
   */
  public boolean requestSent() {
    return requestSent;
  }
}
