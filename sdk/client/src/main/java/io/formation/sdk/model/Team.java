package io.formation.sdk.model;

import com.fasterxml.jackson.databind.JsonNode;
import io.formation.sdk.internal.guards.Checks;
import java.util.Optional;

/**
 * A team the access token can act on behalf of.
 *
 * @param id the team's identifier
 * @param name the team's name ({@code attributes.name}); empty if the service sent none
 * @param raw the resource object as sent, with any attributes the SDK does not model; a copy is
 *     returned
 */
public record Team(String id, String name, JsonNode raw) {
  /**
   * Checks that no component is null.
   *
   * @param id the team's identifier
   * @param name the team's name ({@code attributes.name}); empty if the service sent none
   * @param raw the resource object as sent
   */
  public Team {
    Checks.nonNull("id name raw", id, name, raw);
  }

  /** {@return the resource object as sent, with any attributes the SDK does not model; a copy} */
  @Override
  public JsonNode raw() {
    return raw.deepCopy();
  }

  /**
   * {@return a copy of the attribute so named, if present, including ones the SDK does not model}
   *
   * @param name the attribute's name
   */
  public Optional<JsonNode> attribute(String name) {
    return Optional.ofNullable(raw.path("attributes").get(name)).map(JsonNode::deepCopy);
  }
}
