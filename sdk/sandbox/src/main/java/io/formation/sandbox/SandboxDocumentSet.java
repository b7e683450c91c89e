package io.formation.sandbox;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A snapshot of a document set held by a {@link FormationSandbox}, for assertions: what the API
 * would answer about it at the moment of the snapshot, by the sandbox's clock.
 *
 * <pre>{@code
 * SandboxDocumentSet set = sandbox.documentSet(id).orElseThrow();
 * assertThat(set.state()).isEqualTo("input_needed");
 * assertThat(set.formsNeedingValues()).containsExactly("people");
 * assertThat(set.values().get("company").get("name").asText()).isEqualTo("Acme Robotics");
 * }</pre>
 *
 * @param id the identifier, such as {@code "ds_k3v9..."}
 * @param template the template it was created from
 * @param state the state at the moment of the snapshot, as the API would report it
 * @param createdAt when it was created, by the sandbox's clock
 * @param appUrl the absolute link to the (sandbox) app page of the document set
 * @param values the current values of every form, by form id, in form order; {@code {}} for a form
 *     never submitted
 * @param formsNeedingValues the ids of the forms whose values are still to be accepted (never
 *     submitted, or reopened by a review), in form order
 * @param reviewed whether the set went back to {@code input_needed} for review (see {@link
 *     SandboxOptions#withReview})
 */
public record SandboxDocumentSet(
    String id,
    String template,
    String state,
    Instant createdAt,
    String appUrl,
    Map<String, JsonNode> values,
    List<String> formsNeedingValues,
    boolean reviewed) {

  /** Checks the fields and copies the values. */
  public SandboxDocumentSet {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(template, "template");
    Objects.requireNonNull(state, "state");
    Objects.requireNonNull(createdAt, "createdAt");
    Objects.requireNonNull(appUrl, "appUrl");
    values = deepCopy(Objects.requireNonNull(values, "values"));
    formsNeedingValues = List.copyOf(formsNeedingValues);
  }

  /** Returns a copy of the current values, by form id. */
  @Override
  public Map<String, JsonNode> values() {
    return deepCopy(values);
  }

  /** The values with every tree copied, in form order; unmodifiable. */
  private static Map<String, JsonNode> deepCopy(Map<String, JsonNode> values) {
    Map<String, JsonNode> copy = new LinkedHashMap<>();
    values.forEach((form, json) -> copy.put(form, json.deepCopy()));
    return Collections.unmodifiableMap(copy);
  }

  /** Returns whether the state is {@code complete}. */
  public boolean isComplete() {
    return "complete".equals(state);
  }
}
