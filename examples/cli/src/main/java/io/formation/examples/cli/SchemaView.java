package io.formation.examples.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The parts of a JSON Schema that {@link Autofill} and {@link Prompter} read, with local {@code
 * $ref}s, {@code allOf} and non-choice {@code oneOf}/{@code anyOf} folded into one flat schema so
 * neither has to know about them.
 */
final class SchemaView {
  private static final JsonNodeFactory JSON = JsonNodeFactory.instance;
  // A cycle of $refs without properties in between would otherwise never end.
  private static final int MAX_FOLD_DEPTH = 32;

  private final JsonNode root;

  SchemaView(JsonNode root) {
    this.root = absent(root) ? JSON.objectNode() : root;
  }

  JsonNode root() {
    return root;
  }

  /**
   * A value counts as not given when it is missing or JSON null (services send null for blanks).
   */
  static boolean absent(JsonNode value) {
    return value == null || value.isMissingNode() || value.isNull();
  }

  /**
   * The schema with {@code $ref}, {@code allOf} and the first non-null branch of a non-choice
   * {@code oneOf}/{@code anyOf} merged in; null when nothing satisfies it ({@code false}).
   */
  ObjectNode flatten(JsonNode schema) {
    return flatten(schema, 0);
  }

  private ObjectNode flatten(JsonNode schema, int depth) {
    ObjectNode out = JSON.objectNode();
    if (!fold(schema, out, depth)) {
      return null;
    }
    if (depth > MAX_FOLD_DEPTH) {
      return out;
    }
    for (String key : List.of("oneOf", "anyOf")) {
      JsonNode branches = out.get(key);
      if (branches == null || !branches.isArray() || isChoiceList(branches)) {
        continue;
      }
      out.remove(key);
      for (JsonNode branch : branches) {
        ObjectNode flat = flatten(branch, depth + 1);
        if (flat != null && !"null".equals(type(flat))) {
          fold(flat, out, depth + 1);
          break;
        }
      }
    }
    return out;
  }

  private boolean fold(JsonNode schema, ObjectNode out, int depth) {
    if (absent(schema) || depth > MAX_FOLD_DEPTH) {
      return true;
    }
    if (schema.isBoolean()) {
      return schema.booleanValue();
    }
    if (!schema.isObject()) {
      return true;
    }
    for (Map.Entry<String, JsonNode> entry : schema.properties()) {
      String key = entry.getKey();
      if (!key.equals("$ref") && !key.equals("allOf")) {
        mergeKeyword(out, key, entry.getValue());
      }
    }
    boolean possible = true;
    JsonNode target = target(ref(schema));
    if (target != null) {
      possible = fold(target, out, depth + 1);
    }
    JsonNode allOf = schema.get("allOf");
    if (allOf != null && allOf.isArray()) {
      for (JsonNode member : allOf) {
        possible &= fold(member, out, depth + 1);
      }
    }
    return possible;
  }

  // Keywords seen first win: a schema's own keywords beat those of its $ref and allOf members.
  private static void mergeKeyword(ObjectNode out, String key, JsonNode value) {
    JsonNode existing = out.get(key);
    if (existing == null) {
      out.set(key, value.deepCopy());
    } else if (key.equals("properties") && existing.isObject() && value.isObject()) {
      for (Map.Entry<String, JsonNode> property : value.properties()) {
        if (!existing.has(property.getKey())) {
          ((ObjectNode) existing).set(property.getKey(), property.getValue().deepCopy());
        }
      }
    } else if (key.equals("required") && existing.isArray() && value.isArray()) {
      Set<String> names = new LinkedHashSet<>(textValues(existing));
      names.addAll(textValues(value));
      ArrayNode merged = JSON.arrayNode();
      names.forEach(merged::add);
      out.set(key, merged);
    }
  }

  /** The {@code $ref} a schema carries directly, used to notice recursive schemas. */
  static String ref(JsonNode schema) {
    JsonNode ref = schema == null ? null : schema.get("$ref");
    return ref != null && ref.isTextual() ? ref.textValue() : null;
  }

  // Only document-local references can be followed; there is nothing to fetch remote ones with.
  private JsonNode target(String ref) {
    if (ref == null || !ref.startsWith("#")) {
      return null;
    }
    String pointer = URLDecoder.decode(ref.substring(1), StandardCharsets.UTF_8);
    if (!pointer.isEmpty() && !pointer.startsWith("/")) {
      return null;
    }
    JsonNode target = root.at(pointer);
    return target.isMissingNode() ? null : target;
  }

  /**
   * The JSON type a value of this schema takes: the first non-null entry of {@code type}, or one
   * inferred from the keywords present; null when nothing tells.
   */
  static String type(ObjectNode schema) {
    JsonNode type = schema.get("type");
    if (type != null && type.isTextual()) {
      return type.textValue();
    }
    if (type != null && type.isArray()) {
      for (JsonNode entry : type) {
        if (entry.isTextual() && !entry.textValue().equals("null")) {
          return entry.textValue();
        }
      }
      if (!type.isEmpty()) {
        return "null";
      }
    }
    if (schema.has("const")) {
      return kind(schema.get("const"));
    }
    JsonNode values = schema.get("enum");
    if (values != null && values.isArray()) {
      for (JsonNode value : values) {
        if (!value.isNull()) {
          return kind(value);
        }
      }
    }
    if (hasAny(schema, "properties", "required", "additionalProperties", "minProperties")) {
      return "object";
    }
    if (hasAny(schema, "items", "prefixItems", "minItems", "maxItems", "uniqueItems")) {
      return "array";
    }
    if (hasAny(schema, "minLength", "maxLength", "pattern", "format")) {
      return "string";
    }
    if (hasAny(
        schema, "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf")) {
      return "number";
    }
    return null;
  }

  static boolean nullable(ObjectNode schema) {
    JsonNode type = schema.get("type");
    if (type == null) {
      return false;
    }
    if (type.isTextual()) {
      return type.textValue().equals("null");
    }
    for (JsonNode entry : type) {
      if ("null".equals(entry.textValue())) {
        return true;
      }
    }
    return false;
  }

  static String kind(JsonNode value) {
    if (value.isTextual()) {
      return "string";
    }
    if (value.isIntegralNumber()) {
      return "integer";
    }
    if (value.isNumber()) {
      return "number";
    }
    if (value.isBoolean()) {
      return "boolean";
    }
    if (value.isObject()) {
      return "object";
    }
    return value.isArray() ? "array" : "null";
  }

  static boolean isObject(ObjectNode schema) {
    return "object".equals(type(schema));
  }

  static boolean isArray(ObjectNode schema) {
    return "array".equals(type(schema));
  }

  /** The declared properties, in schema order. */
  static Map<String, JsonNode> properties(ObjectNode schema) {
    Map<String, JsonNode> properties = new LinkedHashMap<>();
    JsonNode declared = schema.get("properties");
    if (declared != null && declared.isObject()) {
      for (Map.Entry<String, JsonNode> property : declared.properties()) {
        properties.put(property.getKey(), property.getValue());
      }
    }
    return properties;
  }

  static Set<String> required(ObjectNode schema) {
    JsonNode required = schema.get("required");
    return required != null && required.isArray()
        ? new LinkedHashSet<>(textValues(required))
        : Set.of();
  }

  /** The schema of the array item at {@code index}: tuple forms first, then {@code items}. */
  static JsonNode items(ObjectNode schema, int index) {
    JsonNode prefix = schema.get("prefixItems");
    if (prefix != null && prefix.isArray() && index < prefix.size()) {
      return prefix.get(index);
    }
    JsonNode items = schema.get("items");
    if (items != null && items.isArray()) {
      // Draft 4 to 2019-09 tuple form.
      if (index < items.size()) {
        return items.get(index);
      }
      JsonNode additional = schema.get("additionalItems");
      return additional == null ? JSON.objectNode() : additional;
    }
    return items == null ? JSON.objectNode() : items;
  }

  static int intKeyword(ObjectNode schema, String key, int otherwise) {
    JsonNode value = schema.get(key);
    return value != null && value.isNumber() ? value.intValue() : otherwise;
  }

  static boolean hasInt(ObjectNode schema, String key) {
    JsonNode value = schema.get(key);
    return value != null && value.isNumber();
  }

  static String text(ObjectNode schema, String key) {
    JsonNode value = schema.get(key);
    return value != null && value.isTextual() && !value.textValue().isBlank()
        ? value.textValue().strip()
        : null;
  }

  /** One value a user may pick, with the label to show for it. */
  record Choice(JsonNode value, String label) {}

  /**
   * The values to offer as a numbered list: {@code enum}, or a {@code oneOf}/{@code anyOf} whose
   * branches are all {@code const} (the JSON Forms way of giving enum values titles).
   */
  static List<Choice> choices(ObjectNode schema) {
    List<Choice> choices = new ArrayList<>();
    JsonNode values = schema.get("enum");
    if (values != null && values.isArray()) {
      for (JsonNode value : values) {
        choices.add(new Choice(value, display(value)));
      }
      return choices;
    }
    for (String key : List.of("oneOf", "anyOf")) {
      JsonNode branches = schema.get(key);
      if (branches != null && branches.isArray() && isChoiceList(branches)) {
        for (JsonNode branch : branches) {
          String title = text((ObjectNode) branch, "title");
          JsonNode value = branch.get("const");
          choices.add(new Choice(value, title == null ? display(value) : title));
        }
        return choices;
      }
    }
    return choices;
  }

  // Only direct consts count, so that deciding never has to follow a (possibly cyclic) $ref.
  private static boolean isChoiceList(JsonNode branches) {
    if (branches.isEmpty()) {
      return false;
    }
    for (JsonNode branch : branches) {
      if (!branch.isObject() || !branch.has("const")) {
        return false;
      }
    }
    return true;
  }

  static String display(JsonNode value) {
    return value.isTextual() ? value.textValue() : value.toString();
  }

  /** "companyName", "company_name" and "company-name" all become "Company name". */
  static String humanize(String name) {
    String spaced =
        name.replaceAll("([a-z0-9])([A-Z])", "$1 $2")
            .replaceAll("[_\\-.]+", " ")
            .strip()
            .replaceAll("\\s+", " ");
    if (spaced.isEmpty()) {
      return name;
    }
    StringBuilder words = new StringBuilder();
    for (String word : spaced.split(" ")) {
      if (words.length() > 0) {
        words.append(' ');
      }
      // Acronyms such as EIN or US stay as they are.
      boolean acronym = word.length() > 1 && word.equals(word.toUpperCase(Locale.ROOT));
      words.append(acronym ? word : word.toLowerCase(Locale.ROOT));
    }
    return Character.toUpperCase(words.charAt(0)) + words.substring(1);
  }

  /** Appends one reference token to a JSON Pointer, escaping it as RFC 6901 asks. */
  static String pointer(String parent, String token) {
    return parent + "/" + token.replace("~", "~0").replace("/", "~1");
  }

  static String pointer(String parent, int index) {
    return parent + "/" + index;
  }

  /** Splits a JSON Pointer into unescaped reference tokens; "" is the whole document. */
  static List<String> tokens(String pointer) {
    List<String> tokens = new ArrayList<>();
    if (pointer.isEmpty()) {
      return tokens;
    }
    String body = pointer.startsWith("/") ? pointer.substring(1) : pointer;
    for (String token : body.split("/", -1)) {
      tokens.add(token.replace("~1", "/").replace("~0", "~"));
    }
    return tokens;
  }

  private static boolean hasAny(ObjectNode schema, String... keys) {
    for (String key : keys) {
      if (schema.has(key)) {
        return true;
      }
    }
    return false;
  }

  private static List<String> textValues(JsonNode array) {
    List<String> values = new ArrayList<>();
    for (JsonNode value : array) {
      if (value.isTextual()) {
        values.add(value.textValue());
      }
    }
    return values;
  }
}
