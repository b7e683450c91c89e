package io.formation.sdk;

/**
 * Root of every exception the SDK throws. Unchecked, so callers catch only what they can handle:
 *
 * <pre>{@code
 * try {
 *   client.documentSets().get(id);
 * } catch (NotFoundException e) {
 *   // the id is unknown to the service
 * } catch (FormationException e) {
 *   // anything else: network, service error, unexpected response
 * }
 * }</pre>
 */
public class FormationException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  FormationException(String message) {
    super(message);
  }

  FormationException(String message, Throwable cause) {
    super(message, cause);
  }
}
