package io.formation.tracking;

/**
 * The tracking table could not be read or written: the database is unreachable, its pool had no
 * connection within its timeout, or a statement failed. The cause is the database's error. A write
 * whose answer was lost may have been made; every call is safe to make again ({@code track} then
 * answers {@code false} for a set it did track, {@code untrack} for one it did remove).
 *
 * <pre>{@code
 * try {
 *   tracker.track(set.id());
 * } catch (TrackingException e) {
 *   retryLater(set.id());              // the database is down
 * }
 * }</pre>
 */
public final class TrackingException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  TrackingException(String message, Throwable cause) {
    super(message, cause);
  }
}
