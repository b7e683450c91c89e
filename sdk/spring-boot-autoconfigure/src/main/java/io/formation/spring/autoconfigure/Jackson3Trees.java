package io.formation.spring.autoconfigure;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.util.Map;
import tools.jackson.core.JsonGenerator;
import tools.jackson.core.JsonParser;
import tools.jackson.databind.DeserializationContext;
import tools.jackson.databind.SerializationContext;
import tools.jackson.databind.deser.std.StdDeserializer;
import tools.jackson.databind.module.SimpleModule;
import tools.jackson.databind.ser.std.StdSerializer;

/**
 * Jackson 3 (Spring Boot 4): the SDK's Jackson 2 trees written and read as JSON, and its models
 * written as {@link ModelJson} says. Jackson 3 does not know Jackson 2's trees (another package)
 * and would write one as a bean of its getters ({@code "nodeType"}, {@code "array"}, ...).
 *
 * <p>A tree is written node by node into Jackson 3's generator, so numbers keep their exact type
 * and any output format works; a body declared as a Jackson 2 tree is read by Jackson 3 and handed
 * to Jackson 2 as text.
 */
final class Jackson3Trees extends SimpleModule {
  private static final long serialVersionUID = 1L;

  // Plain settings: a tree holds nothing a configured mapper would change.
  private static final ObjectMapper JACKSON2 = JsonMapper.builder().build();

  Jackson3Trees() {
    super("formation-sdk-jackson2-trees");
    addSerializer(JsonNode.class, new TreeWriter());
    addDeserializer(JsonNode.class, new TreeReader());
    for (Class<?> type : ModelJson.TYPES) {
      add(type);
    }
  }

  private <T> void add(Class<T> type) {
    addSerializer(type, new ModelWriter<>(type));
  }

  static void write(JsonNode node, JsonGenerator out) {
    switch (node.getNodeType()) {
      case OBJECT -> {
        out.writeStartObject();
        for (Map.Entry<String, JsonNode> field : node.properties()) {
          out.writeName(field.getKey());
          write(field.getValue(), out);
        }
        out.writeEndObject();
      }
      case ARRAY -> {
        out.writeStartArray();
        for (JsonNode element : node) {
          write(element, out);
        }
        out.writeEndArray();
      }
      case STRING -> out.writeString(node.textValue());
      case BOOLEAN -> out.writeBoolean(node.booleanValue());
      case NUMBER -> writeNumber(node, out);
      case BINARY -> out.writeBinary(binary(node));
      case POJO -> out.writePOJO(((com.fasterxml.jackson.databind.node.POJONode) node).getPojo());
      // MISSING is the SDK's "the service sent none".
      case NULL, MISSING -> out.writeNull();
    }
  }

  private static void writeNumber(JsonNode node, JsonGenerator out) {
    switch (node.numberType()) {
      case INT -> out.writeNumber(node.intValue());
      case LONG -> out.writeNumber(node.longValue());
      case BIG_INTEGER -> out.writeNumber(node.bigIntegerValue());
      case FLOAT -> out.writeNumber(node.floatValue());
      case DOUBLE -> out.writeNumber(node.doubleValue());
      case BIG_DECIMAL -> out.writeNumber(node.decimalValue());
    }
  }

  private static byte[] binary(JsonNode node) {
    try {
      return node.binaryValue();
    } catch (java.io.IOException e) {
      throw new IllegalStateException("A binary node could not be read", e);
    }
  }

  private static final class TreeWriter extends StdSerializer<JsonNode> {
    TreeWriter() {
      super(JsonNode.class);
    }

    @Override
    public void serialize(JsonNode tree, JsonGenerator out, SerializationContext context) {
      write(tree, out);
    }
  }

  private static final class ModelWriter<T> extends StdSerializer<T> {
    ModelWriter(Class<T> type) {
      super(type);
    }

    @Override
    public void serialize(T model, JsonGenerator out, SerializationContext context) {
      write(ModelJson.of(model), out);
    }
  }

  private static final class TreeReader extends StdDeserializer<JsonNode> {
    TreeReader() {
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
