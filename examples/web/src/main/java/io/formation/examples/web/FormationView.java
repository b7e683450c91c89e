package io.formation.examples.web;

import io.formation.sdk.model.DocumentSet;
import java.net.URI;

/**
 * A document set as the page gets it.
 *
 * @param id its id
 * @param state its state exactly as the service sent it, listed in the interface or not
 * @param known whether the interface lists the state
 * @param appLink the link to the service's app for it, or null
 */
record FormationView(String id, String state, boolean known, String appLink) {

  static FormationView of(DocumentSet set) {
    return new FormationView(
        set.id(),
        set.state().value(),
        set.state().isKnown(),
        set.appLink().map(URI::toString).orElse(null));
  }
}
