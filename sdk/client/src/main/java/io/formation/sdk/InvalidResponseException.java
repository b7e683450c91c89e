package io.formation.sdk;

/**
 * The service answered with a success status but a body the SDK cannot read: not JSON (an HTML page
 * from a proxy), truncated JSON, an empty body where a resource was expected, or a resource without
 * a required member. Also thrown when a pager's {@code next} link repeats one already visited.
 */
public class InvalidResponseException extends FormationException {
  private static final long serialVersionUID = 1L;

  /** The HTTP status of the response. */
  private final int statusCode;

  /** The raw body as far as it was read. */
  private final String body;

  InvalidResponseException(String message, int statusCode, String body, Throwable cause) {
    super(message, cause);
    this.statusCode = statusCode;
    this.body = body;
  }

  /** {@return the HTTP status of the response} */
  public int statusCode() {
    return statusCode;
  }

  /** {@return the raw body as far as it was read; empty if unknown} */
  public String body() {
    return body;
  }
}
