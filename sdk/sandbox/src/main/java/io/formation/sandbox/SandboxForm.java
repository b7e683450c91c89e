package io.formation.sandbox;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Objects;

/**
 * A form the sandbox serves for a template: its JSON Schema, its JSON Forms UI schema and an
 * example of values that satisfy the schema.
 *
 * <pre>{@code
 * for (SandboxForm form : SandboxTemplates.forms(SandboxTemplates.DELAWARE_CORPORATION)) {
 *   assertThat(FormValidator.validate(form.jsonSchema(), form.example())).isEmpty();
 * }
 * }</pre>
 *
 * <p>Immutable: the JSON trees are copied on the way in and on the way out, so a caller can change
 * what it gets without changing what the sandbox serves.
 *
 * @param id the form identifier, such as {@code "company"}
 * @param title a human-readable title, the same as the schema's {@code title}
 * @param jsonSchema the JSON Schema (draft 2020-12) the values must satisfy
 * @param uiSchema the JSON Forms UI schema laying the controls out
 * @param example values that satisfy {@code jsonSchema}, handy for demos and tests
 */
public record SandboxForm(
    String id, String title, JsonNode jsonSchema, JsonNode uiSchema, JsonNode example) {

  /** Checks that every field is present and copies the JSON trees. */
  public SandboxForm {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(title, "title");
    jsonSchema = Objects.requireNonNull(jsonSchema, "jsonSchema").deepCopy();
    uiSchema = Objects.requireNonNull(uiSchema, "uiSchema").deepCopy();
    example = Objects.requireNonNull(example, "example").deepCopy();
  }

  /** Returns a copy of the JSON Schema. */
  @Override
  public JsonNode jsonSchema() {
    return jsonSchema.deepCopy();
  }

  /** Returns a copy of the JSON Forms UI schema. */
  @Override
  public JsonNode uiSchema() {
    return uiSchema.deepCopy();
  }

  /** Returns a copy of the example values. */
  @Override
  public JsonNode example() {
    return example.deepCopy();
  }
}
