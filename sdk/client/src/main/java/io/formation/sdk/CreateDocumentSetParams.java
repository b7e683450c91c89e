package io.formation.sdk;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.formation.sdk.internal.Port;
import io.formation.sdk.internal.guards.Checks;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * What to create a document set from: the template, any further body fields the service may accept
 * (the interface shows only {@code template}), and the create's idempotency key.
 *
 * <pre>{@code
 * DocumentSet set = client.documentSets().create(
 *     CreateDocumentSetParams.of(DocumentSets.DELAWARE_CORPORATION)
 *         .with("team_id", TextNode.valueOf(teamId))
 *         .withIdempotencyKey("order-" + orderId));
 * }</pre>
 *
 * @param template the template name, e.g. {@link DocumentSets#DELAWARE_CORPORATION}
 * @param extraFields further top-level body fields, sent as given
 * @param idempotencyKey the {@code Idempotency-Key} of this one create, or null for a fresh random
 *     one per call
 */
public record CreateDocumentSetParams(
    String template, Map<String, JsonNode> extraFields, String idempotencyKey) {
  private static final int LONGEST_KEY = 255;

  /**
   * Checks the template and the key, and copies the fields.
   *
   * @param template the template name, e.g. {@link DocumentSets#DELAWARE_CORPORATION}
   * @param extraFields further top-level body fields, sent as given
   * @param idempotencyKey the {@code Idempotency-Key} of this one create, or null
   */
  public CreateDocumentSetParams {
    Checks.notBlank("template", template);
    if (extraFields.containsKey("template")) {
      throw Port.invalid("set the template with of(template), not as a field");
    }
    Map<String, JsonNode> copy = new LinkedHashMap<>();
    extraFields.forEach((name, value) -> copy.put(name, value.deepCopy()));
    extraFields = Collections.unmodifiableMap(copy);
    if (idempotencyKey != null) {
      if (idempotencyKey.isBlank() || idempotencyKey.length() > LONGEST_KEY) {
        throw Port.invalid("idempotencyKey must be 1 to " + LONGEST_KEY + " characters, not blank");
      }
      Checks.headerValue("idempotencyKey", idempotencyKey);
    }
  }

  /**
   * Params with a fresh random idempotency key per create call.
   *
   * @param template the template name, e.g. {@link DocumentSets#DELAWARE_CORPORATION}
   * @param extraFields further top-level body fields, sent as given
   */
  public CreateDocumentSetParams(String template, Map<String, JsonNode> extraFields) {
    this(template, extraFields, null);
  }

  /**
   * {@return params with only a template, and no further fields}
   *
   * @param template the template name
   */
  public static CreateDocumentSetParams of(String template) {
    return new CreateDocumentSetParams(template, Map.of());
  }

  /**
   * {@return a copy with one more body field}
   *
   * @param name the field's name
   * @param value the field's JSON value
   */
  public CreateDocumentSetParams with(String name, JsonNode value) {
    Map<String, JsonNode> fields = new LinkedHashMap<>(extraFields);
    fields.put(Objects.requireNonNull(name, "name"), Objects.requireNonNull(value, "value"));
    return new CreateDocumentSetParams(template, fields, idempotencyKey);
  }

  /**
   * {@return a copy whose create, and its retries alone, carry this {@code Idempotency-Key}} Give a
   * key your system already has for this one formation (an order id, say), so that a create
   * repeated after a crash or a lost answer is the same request to a service that honours the
   * header. Without one, each create call makes its own.
   *
   * @param key the key, 1 to 255 characters a header may carry
   */
  public CreateDocumentSetParams withIdempotencyKey(String key) {
    return new CreateDocumentSetParams(template, extraFields, Objects.requireNonNull(key, "key"));
  }

  /** The request body: {@code {"template": ..., ...fields}}. */
  ObjectNode toJson() {
    return JsonNodeFactory.instance.objectNode().put("template", template).setAll(extraFields);
  }
}
