package io.formation.sdk;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * What to create a document set from: the template, and any further body fields the service may
 * accept (the interface shows only {@code template}).
 *
 * <pre>{@code
 * DocumentSet set = client.documentSets().create(
 *     CreateDocumentSetParams.of(DocumentSets.DELAWARE_CORPORATION)
 *         .with("team_id", TextNode.valueOf(teamId)));
 * }</pre>
 *
 * @param template the template name, e.g. {@link DocumentSets#DELAWARE_CORPORATION}
 * @param extraFields further top-level body fields, sent as given
 */
public record CreateDocumentSetParams(String template, Map<String, JsonNode> extraFields) {
  /**
   * Checks the template and copies the fields.
   *
   * @param template the template name, e.g. {@link DocumentSets#DELAWARE_CORPORATION}
   * @param extraFields further top-level body fields, sent as given
   */
  public CreateDocumentSetParams {
    Objects.requireNonNull(template, "template");
    if (template.isBlank()) {
      throw new IllegalArgumentException("template must not be blank");
    }
    if (extraFields.containsKey("template")) {
      throw new IllegalArgumentException("set the template with of(template), not as a field");
    }
    Map<String, JsonNode> copy = new LinkedHashMap<>();
    extraFields.forEach((name, value) -> copy.put(name, value.deepCopy()));
    extraFields = Collections.unmodifiableMap(copy);
  }

  /**
   * Params with only a template.
   *
   * @param template the template name
   * @return params with no further fields
   */
  public static CreateDocumentSetParams of(String template) {
    return new CreateDocumentSetParams(template, Map.of());
  }

  /**
   * A copy with one more body field.
   *
   * @param name the field's name
   * @param value the field's JSON value
   * @return a copy with that field added
   */
  public CreateDocumentSetParams with(String name, JsonNode value) {
    Map<String, JsonNode> fields = new LinkedHashMap<>(extraFields);
    fields.put(Objects.requireNonNull(name, "name"), Objects.requireNonNull(value, "value"));
    return new CreateDocumentSetParams(template, fields);
  }

  /** The request body: {@code {"template": ..., ...fields}}. */
  ObjectNode toJson() {
    ObjectNode body = JsonNodeFactory.instance.objectNode().put("template", template);
    extraFields.forEach((name, value) -> body.set(name, value.deepCopy()));
    return body;
  }
}
