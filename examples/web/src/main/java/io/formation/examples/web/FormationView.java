package io.formation.examples.web;

import io.formation.sdk.model.DocumentSet;
import io.formation.sdk.model.DocumentSetState;
import java.net.URI;
import java.time.Instant;

/**
 * A document set as the page gets it.
 *
 * @param id its id
 * @param state its state exactly as the service sent it, listed in the interface or not
 * @param known whether the interface lists the state
 * @param appLink the link to the service's app for it, or null
 * @param startedAt when the person started it, or null when not known here
 * @param stale whether the state is the last one seen because the service could not be asked
 */
record FormationView(
    String id, String state, boolean known, String appLink, Instant startedAt, boolean stale) {

  static FormationView of(DocumentSet set) {
    return of(set, null);
  }

  static FormationView of(DocumentSet set, Instant startedAt) {
    return new FormationView(
        set.id(),
        set.state().value(),
        set.state().isKnown(),
        set.appLink().map(URI::toString).orElse(null),
        startedAt,
        false);
  }

  static FormationView stale(PersonFormations.Started started) {
    String state = started.lastState();
    return new FormationView(
        started.id(),
        state,
        state != null && DocumentSetState.of(state).isKnown(),
        null,
        started.startedAt(),
        true);
  }
}
