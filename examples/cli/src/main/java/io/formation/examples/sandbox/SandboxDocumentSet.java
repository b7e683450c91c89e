package io.formation.examples.sandbox;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * A snapshot of a document set held by a {@link Sandbox}, for assertions.
 *
 * <pre>{@code
 * SandboxDocumentSet set = sandbox.documentSet(id).orElseThrow();
 * assertThat(set.state()).isEqualTo("input_needed");
 * assertThat(set.values().get("company").get("name").asText()).isEqualTo("Acme Robotics");
 * }</pre>
 *
 * @param id the identifier, such as {@code "ds_k3v9..."}
 * @param template the template it was created from
 * @param state the state at the moment of the snapshot, as the API would report it
 * @param createdAt when it was created, by the sandbox's clock
 * @param appUrl the absolute link to the (sandbox) app page of the document set
 * @param values the accepted values of each form that has some, by form id, in form order; forms
 *     without accepted values are absent
 */
public record SandboxDocumentSet(
    String id,
    String template,
    String state,
    Instant createdAt,
    String appUrl,
    Map<String, JsonNode> values) {

  /** Checks the fields and copies the values. */
  public SandboxDocumentSet {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(template, "template");
    Objects.requireNonNull(state, "state");
    Objects.requireNonNull(createdAt, "createdAt");
    Objects.requireNonNull(appUrl, "appUrl");
    Map<String, JsonNode> copy = new LinkedHashMap<>();
    Objects.requireNonNull(values, "values")
        .forEach((form, json) -> copy.put(form, json.deepCopy()));
    values = Collections.unmodifiableMap(copy);
  }

  /** Returns a copy of the accepted values, by form id. */
  @Override
  public Map<String, JsonNode> values() {
    Map<String, JsonNode> copy = new LinkedHashMap<>();
    values.forEach((form, json) -> copy.put(form, json.deepCopy()));
    return Collections.unmodifiableMap(copy);
  }

  /** Returns whether the state is {@code complete}. */
  public boolean isComplete() {
    return "complete".equals(state);
  }
}
