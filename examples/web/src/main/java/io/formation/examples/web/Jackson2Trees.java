package io.formation.examples.web;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import tools.jackson.core.JsonGenerator;
import tools.jackson.core.JsonParser;
import tools.jackson.databind.DeserializationContext;
import tools.jackson.databind.SerializationContext;
import tools.jackson.databind.deser.std.StdDeserializer;
import tools.jackson.databind.module.SimpleModule;
import tools.jackson.databind.ser.std.StdSerializer;

/**
 * Lets Spring's Jackson 3 carry the SDK's Jackson 2 trees through unchanged, both ways.
 *
 * <p>The SDK hands out {@code com.fasterxml.jackson.databind.JsonNode} (Jackson 2); Spring Boot 4
 * writes JSON with Jackson 3 ({@code tools.jackson}), which does not know Jackson 2 trees and would
 * write one as a bean made of its getters ({@code "nodeType"}, {@code "array"}, ...). So a tree is
 * written by Jackson 2, as the SDK read it, and put verbatim into Jackson 3's output; a request
 * body declared as a Jackson 2 tree is read by Jackson 2 from the JSON Jackson 3 parsed. Registered
 * as a bean, Spring Boot adds it to the one JSON mapper of the application, so records holding
 * Jackson 2 trees are plain return values of a controller.
 */
final class Jackson2Trees extends SimpleModule {
  private static final long serialVersionUID = 1L;

  // Plain settings: a tree holds nothing a configured mapper would change.
  private static final ObjectMapper JACKSON2 = JsonMapper.builder().build();

  Jackson2Trees() {
    super("jackson2-trees");
    addSerializer(JsonNode.class, new Writer());
    addDeserializer(JsonNode.class, new Reader());
  }

  private static final class Writer extends StdSerializer<JsonNode> {
    Writer() {
      super(JsonNode.class);
    }

    @Override
    public void serialize(JsonNode tree, JsonGenerator generator, SerializationContext context) {
      if (tree.isMissingNode()) {
        // The SDK's "the service sent none"; Jackson 2 would write nothing at all.
        generator.writeNull();
        return;
      }
      try {
        generator.writeRawValue(JACKSON2.writeValueAsString(tree));
      } catch (JsonProcessingException e) {
        throw new IllegalStateException("A JSON tree could not be written", e);
      }
    }
  }

  private static final class Reader extends StdDeserializer<JsonNode> {
    Reader() {
      super(JsonNode.class);
    }

    @Override
    public JsonNode deserialize(JsonParser parser, DeserializationContext context) {
      String json = context.readTree(parser).toString();
      try {
        return JACKSON2.readTree(json);
      } catch (JsonProcessingException e) {
        // Jackson 3 has just parsed this very text; only a bug could land here.
        throw new IllegalStateException("Parsed JSON could not be read again", e);
      }
    }
  }
}
