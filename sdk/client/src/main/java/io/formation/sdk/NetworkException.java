package io.formation.sdk;

/**
 * The call failed before a complete response arrived: connection refused, DNS failure, timeout,
 * connection reset. The {@link #getCause() cause} is the underlying {@link java.io.IOException}.
 *
 * <pre>{@code
 * catch (NetworkException e) {
 *   retryLater();
 * }
 * }</pre>
 */
public class NetworkException extends FormationException {
  private static final long serialVersionUID = 1L;

  /** Creates the exception with the I/O failure as its cause. */
  public NetworkException(String message, Throwable cause) {
    super(message, cause);
  }
}
