package io.formation.examples.web;

import io.formation.sdk.ApiException;
import io.formation.sdk.AuthenticationException;
import io.formation.sdk.ConflictException;
import io.formation.sdk.NetworkException;
import io.formation.sdk.NotFoundException;
import io.formation.sdk.PermissionDeniedException;
import io.formation.sdk.PollTimeoutException;

/**
 * What the browser is told when a call to the service fails: what happened and what to do, in plain
 * words, never a status code or the service's URLs (the log has those).
 */
final class ServiceErrors {
  private ServiceErrors() {}

  static String describe(Throwable failure) {
    if (failure instanceof NotFoundException) {
      return "The Formation service no longer knows this formation.";
    }
    if (failure instanceof ConflictException) {
      return "The Formation service takes no changes to this form now; it keeps the values it"
          + " accepted.";
    }
    if (failure instanceof AuthenticationException
        || failure instanceof PermissionDeniedException) {
      return "The Formation service did not let this site in. The fault is ours, not yours: try"
          + " again later; what you typed is kept.";
    }
    if (failure instanceof ApiException e && ServiceRetry.isTransient(e)) {
      return "The Formation service is busy just now. Try again in a minute; what you typed is"
          + " kept.";
    }
    if (failure instanceof PollTimeoutException e) {
      return "Still "
          + e.lastSeen().map(set -> set.state().value().replace('_', ' ')).orElse("waiting")
          + " after the time this page follows a formation; the formation goes on at the service."
          + " Follow again to see where it is.";
    }
    if (failure instanceof NetworkException) {
      return "The Formation service could not be reached. Try again in a minute; what you typed"
          + " is kept.";
    }
    return "The Formation service could not do this just now. Try again later; what you typed is"
        + " kept.";
  }
}
