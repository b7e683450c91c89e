package io.formation.sdk.model;

import com.fasterxml.jackson.databind.JsonNode;
import io.formation.sdk.internal.guards.Checks;
import java.net.URI;
import java.util.Optional;

/**
 * A document set: one formation in progress.
 *
 * @param id the identifier used in the document set endpoints
 * @param state the current state
 * @param appLink the link to the service's app for this document set, if the service sent one
 * @param raw the resource as sent (the JSON:API resource object, or the plain object), with every
 *     field the SDK does not model; a copy is returned
 */
public record DocumentSet(String id, DocumentSetState state, Optional<URI> appLink, JsonNode raw) {
  /**
   * Checks that no component is null.
   *
   * @param id the identifier used in the document set endpoints
   * @param state the current state
   * @param appLink the link to the service's app for this document set, if the service sent one
   * @param raw the resource as sent
   */
  public DocumentSet {
    Checks.nonNull("id state appLink raw", id, state, appLink, raw);
  }

  /** {@return the resource as sent, with every field the SDK does not model; a copy} */
  @Override
  public JsonNode raw() {
    return raw.deepCopy();
  }
}
