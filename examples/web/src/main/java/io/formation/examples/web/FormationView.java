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
 */
record FormationView(String id, String state, boolean known, String appLink, Instant startedAt) {

  /** A set the service just returned. */
  static FormationView of(DocumentSet set) {
    return new FormationView(
        set.id(),
        set.state().value(),
        set.state().isKnown(),
        set.appLink().map(URI::toString).orElse(null),
        null);
  }

  /** A set as its row holds it: the last state the page's stream or tracking saw. */
  static FormationView of(PersonFormations.Started started) {
    String state = started.lastState();
    return new FormationView(
        started.id(),
        state,
        state != null && DocumentSetState.of(state).isKnown(),
        started.appLink(),
        started.startedAt());
  }
}
