package io.formation.sandbox;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.core.StreamWriteFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;

/** JSON plumbing shared by the sandbox: one strict mapper and the JSON:API media type. */
final class Json {

  static final String MEDIA_TYPE = "application/vnd.api+json";

  // Strict on input, so that what the real service would reject as malformed is rejected here
  // too; decimals kept exact, so 0.00001 is echoed as written instead of as 1.0E-5.
  static final JsonMapper MAPPER =
      JsonMapper.builder()
          .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
          .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
          .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
          .enable(StreamWriteFeature.WRITE_BIGDECIMAL_AS_PLAIN)
          .build();

  private Json() {}

  static ObjectNode object() {
    return MAPPER.createObjectNode();
  }

  /**
   * Parses a request body.
   *
   * @throws ApiException 400 when the body is empty or not JSON
   */
  static JsonNode parseBody(String body) {
    if (body.isBlank()) {
      throw ApiException.badRequest(
          "malformed_json", "Malformed JSON", "The request body is empty.");
    }
    try {
      return MAPPER.readTree(body);
    } catch (JsonProcessingException e) {
      throw ApiException.badRequest(
          "malformed_json",
          "Malformed JSON",
          "The request body is not valid JSON: " + e.getOriginalMessage());
    }
  }

  static byte[] bytes(JsonNode node) {
    try {
      return MAPPER.writeValueAsString(node).getBytes(StandardCharsets.UTF_8);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot write JSON", e);
    }
  }
}
