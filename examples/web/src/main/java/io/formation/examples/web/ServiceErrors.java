package io.formation.examples.web;

import io.formation.sdk.ApiException;
import io.formation.sdk.NetworkException;
import io.formation.sdk.PollTimeoutException;

/**
 * What the browser is told when a call to the service fails. The SDK's own messages name the
 * service's URLs; the browser has no use for them, so it gets the status and the service's detail.
 */
final class ServiceErrors {
  private ServiceErrors() {}

  static String describe(Throwable failure) {
    if (failure instanceof ApiException e) {
      return "The Formation service answered "
          + e.statusCode()
          + e.detail().map(detail -> ": " + detail).orElse(".");
    }
    if (failure instanceof PollTimeoutException e) {
      return "Still "
          + e.lastSeen().map(set -> set.state().value()).orElse("waiting")
          + " after the time allowed; the formation goes on at the service.";
    }
    if (failure instanceof NetworkException) {
      return "The Formation service could not be reached.";
    }
    return "The call to the Formation service failed.";
  }
}
