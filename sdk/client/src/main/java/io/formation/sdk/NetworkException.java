package io.formation.sdk;

/**
 * The call failed before a complete response arrived: connection refused, DNS failure, timeout,
 * connection reset. The {@link #getCause() cause} is the underlying {@link java.io.IOException}.
 * {@link #requestSent()} tells whether the service may have received the request, which matters for
 * a {@code create} or an action: if it is false, nothing reached the service and trying again
 * cannot do anything twice.
 *
 * <pre>{@code
 * catch (NetworkException e) {
 *   if (!e.requestSent()) {
 *     retryNow();
 *   } else {
 *     checkWhetherItHappened();   // the service may have acted on it
 *   }
 * }
 * }</pre>
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
   * Whether the request was written to the network, so the service may have received it and acted
   * on it. False only when the SDK knows nothing was sent: the connection could not be made, or the
   * pooled connection had been closed by the server before the request went out.
   *
   * @return whether the service may have received the request
   */
  public boolean requestSent() {
    return requestSent;
  }
}
