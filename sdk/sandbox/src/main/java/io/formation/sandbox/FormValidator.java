package io.formation.sandbox;

import com.fasterxml.jackson.databind.JsonNode;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.PathType;
import com.networknt.schema.SchemaValidatorsConfig;
import com.networknt.schema.SpecVersion;
import com.networknt.schema.ValidationMessage;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Checks form values against a form's JSON Schema (draft 2020-12, with {@code format} asserted),
 * the one check the sandbox applies to submitted values. A partner's code can run the same check
 * before it submits, and after a document set went back to {@code input_needed}, to find the forms
 * whose current values no longer satisfy their schema.
 *
 * <pre>{@code
 * List<Violation> violations = FormValidator.validate(form.jsonSchema(), form.values());
 * if (!violations.isEmpty()) {
 *   // This form needs values: ask the user for the fields at violation.pointer().
 * }
 * }</pre>
 *
 * <p>Backed by networknt's json-schema-validator. Schemas without {@code $schema} are read as draft
 * 2020-12. Messages are in English whatever the default locale.
 */
public final class FormValidator {
  private static final JsonSchemaFactory FACTORY =
      JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V202012);
  private static final SchemaValidatorsConfig CONFIG =
      SchemaValidatorsConfig.builder()
          .pathType(PathType.JSON_POINTER)
          // Draft 2020-12 makes format an annotation by default; the service rejects a bad email.
          .formatAssertionsEnabled(true)
          .locale(Locale.ENGLISH)
          .build();

  // The sandbox validates against a handful of fixed schemas; compiling each once is worth it.
  private static final int CACHE_LIMIT = 64;
  private static final Map<JsonNode, JsonSchema> COMPILED = new ConcurrentHashMap<>();

  private FormValidator() {}

  /**
   * Validates form values against a JSON Schema.
   *
   * @param schema the form's JSON Schema
   * @param values the values to check
   * @return every violation, in the order the validator found them; empty when the values are valid
   * @throws IllegalArgumentException if the schema cannot be compiled
   */
  public static List<Violation> validate(JsonNode schema, JsonNode values) {
    Objects.requireNonNull(schema, "schema");
    Objects.requireNonNull(values, "values");
    Set<ValidationMessage> messages = compile(schema).validate(values);
    List<Violation> violations = new ArrayList<>(messages.size());
    for (ValidationMessage message : messages) {
      violations.add(new Violation(pointer(message), text(message)));
    }
    return List.copyOf(violations);
  }

  private static JsonSchema compile(JsonNode schema) {
    JsonSchema compiled = COMPILED.get(schema);
    if (compiled != null) {
      return compiled;
    }
    try {
      compiled = FACTORY.getSchema(schema.deepCopy(), CONFIG);
      compiled.initializeValidators();
    } catch (RuntimeException e) {
      throw new IllegalArgumentException("not a usable JSON Schema: " + e.getMessage(), e);
    }
    if (COMPILED.size() < CACHE_LIMIT) {
      COMPILED.putIfAbsent(schema.deepCopy(), compiled);
    }
    return compiled;
  }

  /**
   * The library reports a missing or unexpected property at the object that holds it; a form shows
   * the error at the field itself, so the property name is appended.
   */
  private static String pointer(ValidationMessage message) {
    String location = message.getInstanceLocation().toString();
    String property = message.getProperty();
    boolean namesAField =
        switch (message.getType()) {
          case "required", "additionalProperties", "dependentRequired", "unevaluatedProperties" ->
              true;
          default -> false;
        };
    return property != null && namesAField ? Pointers.child(location, property) : location;
  }

  private static String text(ValidationMessage message) {
    String text = message.getError();
    return text == null || text.isBlank() ? message.getMessage() : text;
  }
}
