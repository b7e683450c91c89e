package io.formation.examples.sandbox;

import com.fasterxml.jackson.databind.JsonNode;
import java.math.BigDecimal;
import java.net.URI;
import java.net.URISyntaxException;
import java.time.LocalDate;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.time.format.ResolverStyle;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;
import java.util.stream.Collectors;

/**
 * A small JSON Schema (draft 2020-12) validator covering the keywords the sandbox forms use, so the
 * sandbox can reject values the way the service does and partners can check their own values before
 * submitting them.
 *
 * <pre>{@code
 * SandboxForm company = DelawareForms.byId("company").orElseThrow();
 * List<SchemaValidator.Violation> violations =
 *     SchemaValidator.validate(company.jsonSchema(), mapper.readTree("{\"name\":\"\"}"));
 * // [Violation[pointer=/name, message=must be at least 1 character long],
 * //  Violation[pointer=/suffix, message=is required]]
 * }</pre>
 *
 * <p>Supported keywords: {@code type} (a name or an array of names), {@code required}, {@code
 * properties}, {@code additionalProperties} (boolean or schema), {@code items}, {@code minItems},
 * {@code maxItems}, {@code minLength} and {@code maxLength} (counted in code points), {@code
 * pattern}, {@code enum}, {@code const}, {@code minimum}, {@code maximum}, {@code
 * exclusiveMinimum}, {@code exclusiveMaximum} (numeric form) and {@code format} {@code email},
 * {@code date} and {@code uri}. Other keywords, including unknown formats, are treated as
 * annotations and ignored, as the specification prescribes for a validator that does not implement
 * them. Boolean schemas ({@code true}, {@code false}) are supported.
 */
public final class SchemaValidator {

  /**
   * One failed constraint.
   *
   * @param pointer JSON Pointer (RFC 6901) of the offending value inside the validated document;
   *     for a missing required property, the pointer the property would have; {@code ""} for the
   *     document itself
   * @param message a readable sentence fragment, such as {@code "must be a valid email address"}
   */
  public record Violation(String pointer, String message) {
    /** Checks that both fields are present. */
    public Violation {
      Objects.requireNonNull(pointer, "pointer");
      Objects.requireNonNull(message, "message");
    }
  }

  // Schemas are few and fixed, so compiled patterns are worth keeping.
  private static final Map<String, Pattern> PATTERNS = new ConcurrentHashMap<>();

  // Dot-atom local part and hostname labels. A dotted domain is required: on a formation form an
  // address such as "jane@example" is a typo far more often than a real single-label domain.
  private static final Pattern EMAIL =
      Pattern.compile(
          "^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*"
              + "@(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\\.)+"
              + "[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?$");

  private static final Pattern DATE_SHAPE = Pattern.compile("^[0-9]{4}-[0-9]{2}-[0-9]{2}$");
  private static final DateTimeFormatter DATE =
      DateTimeFormatter.ofPattern("uuuu-MM-dd").withResolverStyle(ResolverStyle.STRICT);

  private SchemaValidator() {}

  /**
   * Validates {@code value} against {@code schema}.
   *
   * @return every violation found, declared properties in the order of the schema, then undeclared
   *     ones in the order of the value; empty when the value is valid
   * @throws IllegalArgumentException if the schema itself is malformed (for example a bad {@code
   *     pattern})
   */
  public static List<Violation> validate(JsonNode schema, JsonNode value) {
    Objects.requireNonNull(schema, "schema");
    Objects.requireNonNull(value, "value");
    List<Violation> violations = new ArrayList<>();
    check(schema, value, "", violations);
    return List.copyOf(violations);
  }

  private static void check(JsonNode schema, JsonNode value, String pointer, List<Violation> out) {
    if (schema.isBoolean()) {
      if (!schema.booleanValue()) {
        out.add(new Violation(pointer, "is not allowed"));
      }
      return;
    }
    if (!schema.isObject()) {
      throw new IllegalArgumentException("schema at " + pointer + " must be an object or boolean");
    }
    JsonNode type = schema.get("type");
    // The remaining keywords only make sense for the declared type; reporting them on a value of
    // the wrong type would just repeat the type error in other words.
    if (type != null && !matchesType(type, value)) {
      out.add(new Violation(pointer, "must be " + describeType(type)));
      return;
    }
    JsonNode constant = schema.get("const");
    if (constant != null && !jsonEquals(constant, value)) {
      out.add(new Violation(pointer, "must be " + constant));
    }
    JsonNode allowed = schema.get("enum");
    if (allowed != null && !contains(allowed, value)) {
      out.add(new Violation(pointer, "must be one of " + join(allowed)));
    }
    if (value.isTextual()) {
      checkString(schema, value.textValue(), pointer, out);
    } else if (value.isNumber()) {
      checkNumber(schema, value.decimalValue(), pointer, out);
    } else if (value.isObject()) {
      checkObject(schema, value, pointer, out);
    } else if (value.isArray()) {
      checkArray(schema, value, pointer, out);
    }
  }

  private static void checkString(
      JsonNode schema, String text, String pointer, List<Violation> out) {
    int length = text.codePointCount(0, text.length());
    JsonNode minLength = schema.get("minLength");
    if (minLength != null && length < minLength.asInt()) {
      out.add(
          new Violation(pointer, "must be at least " + characters(minLength.asInt()) + " long"));
    }
    JsonNode maxLength = schema.get("maxLength");
    if (maxLength != null && length > maxLength.asInt()) {
      out.add(new Violation(pointer, "must be at most " + characters(maxLength.asInt()) + " long"));
    }
    JsonNode pattern = schema.get("pattern");
    if (pattern != null && !compile(pattern.asText()).matcher(text).find()) {
      out.add(new Violation(pointer, "must match the pattern " + pattern.asText()));
    }
    JsonNode format = schema.get("format");
    if (format != null) {
      checkFormat(format.asText(), text, pointer, out);
    }
  }

  private static void checkFormat(String format, String text, String pointer, List<Violation> out) {
    switch (format) {
      case "email":
        if (!EMAIL.matcher(text).matches()) {
          out.add(new Violation(pointer, "must be a valid email address"));
        }
        break;
      case "date":
        if (!isDate(text)) {
          out.add(new Violation(pointer, "must be a date in the form YYYY-MM-DD"));
        }
        break;
      case "uri":
        if (!isAbsoluteUri(text)) {
          out.add(new Violation(pointer, "must be an absolute URI, such as https://example.com"));
        }
        break;
      default:
        // Unknown formats are annotations only.
        break;
    }
  }

  private static boolean isDate(String text) {
    if (!DATE_SHAPE.matcher(text).matches()) {
      return false;
    }
    try {
      LocalDate.parse(text, DATE);
      return true;
    } catch (DateTimeParseException e) {
      return false;
    }
  }

  private static boolean isAbsoluteUri(String text) {
    try {
      URI uri = new URI(text);
      return uri.isAbsolute();
    } catch (URISyntaxException e) {
      return false;
    }
  }

  private static void checkNumber(
      JsonNode schema, BigDecimal number, String pointer, List<Violation> out) {
    JsonNode minimum = schema.get("minimum");
    if (minimum != null && number.compareTo(minimum.decimalValue()) < 0) {
      out.add(new Violation(pointer, "must be at least " + minimum));
    }
    JsonNode maximum = schema.get("maximum");
    if (maximum != null && number.compareTo(maximum.decimalValue()) > 0) {
      out.add(new Violation(pointer, "must be at most " + maximum));
    }
    JsonNode exclusiveMinimum = schema.get("exclusiveMinimum");
    if (exclusiveMinimum != null
        && exclusiveMinimum.isNumber()
        && number.compareTo(exclusiveMinimum.decimalValue()) <= 0) {
      out.add(new Violation(pointer, "must be greater than " + exclusiveMinimum));
    }
    JsonNode exclusiveMaximum = schema.get("exclusiveMaximum");
    if (exclusiveMaximum != null
        && exclusiveMaximum.isNumber()
        && number.compareTo(exclusiveMaximum.decimalValue()) >= 0) {
      out.add(new Violation(pointer, "must be less than " + exclusiveMaximum));
    }
  }

  private static void checkObject(
      JsonNode schema, JsonNode object, String pointer, List<Violation> out) {
    List<String> required = new ArrayList<>();
    schema.path("required").forEach(name -> required.add(name.asText()));
    JsonNode properties = schema.path("properties");
    // Declared properties first, in the schema's order, so errors read in the order of the form;
    // a missing required one is reported where it would have been.
    for (Map.Entry<String, JsonNode> property : properties.properties()) {
      JsonNode present = object.get(property.getKey());
      if (present != null) {
        check(property.getValue(), present, child(pointer, property.getKey()), out);
      } else if (required.contains(property.getKey())) {
        out.add(new Violation(child(pointer, property.getKey()), "is required"));
      }
    }
    for (String name : required) {
      if (!properties.has(name) && !object.has(name)) {
        out.add(new Violation(child(pointer, name), "is required"));
      }
    }
    JsonNode additional = schema.get("additionalProperties");
    if (additional != null) {
      for (Map.Entry<String, JsonNode> property : object.properties()) {
        if (!properties.has(property.getKey())) {
          check(additional, property.getValue(), child(pointer, property.getKey()), out);
        }
      }
    }
  }

  private static void checkArray(
      JsonNode schema, JsonNode array, String pointer, List<Violation> out) {
    JsonNode minItems = schema.get("minItems");
    if (minItems != null && array.size() < minItems.asInt()) {
      out.add(new Violation(pointer, "must have at least " + items(minItems.asInt())));
    }
    JsonNode maxItems = schema.get("maxItems");
    if (maxItems != null && array.size() > maxItems.asInt()) {
      out.add(new Violation(pointer, "must have at most " + items(maxItems.asInt())));
    }
    JsonNode itemSchema = schema.get("items");
    if (itemSchema != null) {
      for (int i = 0; i < array.size(); i++) {
        check(itemSchema, array.get(i), pointer + "/" + i, out);
      }
    }
  }

  private static boolean matchesType(JsonNode type, JsonNode value) {
    if (type.isArray()) {
      for (JsonNode name : type) {
        if (matchesType(name.asText(), value)) {
          return true;
        }
      }
      return false;
    }
    return matchesType(type.asText(), value);
  }

  private static boolean matchesType(String type, JsonNode value) {
    switch (type) {
      case "string":
        return value.isTextual();
      case "integer":
        // Draft 2020-12 counts 1.0 as an integer: the type is about the value, not its spelling.
        return value.isIntegralNumber() || (value.isNumber() && isWhole(value.decimalValue()));
      case "number":
        return value.isNumber();
      case "boolean":
        return value.isBoolean();
      case "object":
        return value.isObject();
      case "array":
        return value.isArray();
      case "null":
        return value.isNull();
      default:
        throw new IllegalArgumentException("unknown type in schema: " + type);
    }
  }

  private static boolean isWhole(BigDecimal number) {
    return number.signum() == 0 || number.stripTrailingZeros().scale() <= 0;
  }

  private static String describeType(JsonNode type) {
    if (type.isArray()) {
      List<String> names = new ArrayList<>();
      type.forEach(name -> names.add(article(name.asText())));
      return String.join(" or ", names);
    }
    return article(type.asText());
  }

  private static String article(String type) {
    switch (type) {
      case "integer":
      case "object":
      case "array":
        return "an " + type;
      case "null":
        return "null";
      default:
        return "a " + type;
    }
  }

  private static boolean contains(JsonNode allowed, JsonNode value) {
    for (JsonNode candidate : allowed) {
      if (jsonEquals(candidate, value)) {
        return true;
      }
    }
    return false;
  }

  /** JSON Schema equality: numbers compare by value, so {@code 1} equals {@code 1.0}. */
  static boolean jsonEquals(JsonNode a, JsonNode b) {
    if (a.isNumber() && b.isNumber()) {
      return a.decimalValue().compareTo(b.decimalValue()) == 0;
    }
    if (a.isObject() && b.isObject()) {
      if (a.size() != b.size()) {
        return false;
      }
      for (Map.Entry<String, JsonNode> entry : a.properties()) {
        JsonNode other = b.get(entry.getKey());
        if (other == null || !jsonEquals(entry.getValue(), other)) {
          return false;
        }
      }
      return true;
    }
    if (a.isArray() && b.isArray()) {
      if (a.size() != b.size()) {
        return false;
      }
      Iterator<JsonNode> left = a.elements();
      Iterator<JsonNode> right = b.elements();
      while (left.hasNext()) {
        if (!jsonEquals(left.next(), right.next())) {
          return false;
        }
      }
      return true;
    }
    return a.equals(b);
  }

  private static String join(JsonNode allowed) {
    List<String> values = new ArrayList<>();
    allowed.forEach(value -> values.add(value.toString()));
    return values.stream().collect(Collectors.joining(", "));
  }

  private static Pattern compile(String regex) {
    return PATTERNS.computeIfAbsent(
        regex,
        r -> {
          try {
            return Pattern.compile(r);
          } catch (PatternSyntaxException e) {
            throw new IllegalArgumentException("invalid pattern in schema: " + r, e);
          }
        });
  }

  static String child(String pointer, String name) {
    return pointer + "/" + name.replace("~", "~0").replace("/", "~1");
  }

  private static String characters(int count) {
    return count == 1 ? "1 character" : count + " characters";
  }

  private static String items(int count) {
    return count == 1 ? "1 item" : count + " items";
  }
}
