package io.formation.examples.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.BooleanNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.LocalDate;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Completes a form's values with sample data derived from its JSON Schema, keeping every value the
 * user gave.
 *
 * <pre>{@code
 * JsonNode values = Autofill.fill(form.schema(), answers.get(form.id()));
 * for (Autofill.MissingField field : Autofill.missing(form.schema(), answers.get(form.id()))) {
 *   System.out.println("filled " + field.pointer());
 * }
 * }</pre>
 *
 * <p>A missing value is filled from, in order: {@code default}, {@code examples[0]}, {@code const},
 * the first {@code enum} value (or titled {@code oneOf} const), and otherwise a readable value of
 * the schema's type that keeps to its bounds, length, format and simple patterns. Optional
 * properties are filled too, except where a recursive schema would never end. The output depends
 * only on the input, so two runs fill the same values.
 */
public final class Autofill {
  private static final JsonNodeFactory JSON = JsonNodeFactory.instance;
  private static final LocalDate SAMPLE_DATE = LocalDate.of(2025, 1, 15);
  // Required properties of a recursive schema cannot be satisfied; stop rather than overflow.
  private static final int MAX_DEPTH = 64;

  private Autofill() {}

  /**
   * The given values with every value they lack filled with sample data. Given values win; given
   * objects are merged field by field, and given arrays are topped up to {@code minItems}.
   *
   * @param schema the form's JSON Schema
   * @param given values already known (may be null); JSON null counts as not given
   * @return a new value; {@code given} is not modified
   */
  public static JsonNode fill(JsonNode schema, JsonNode given) {
    SchemaView view = new SchemaView(schema);
    ObjectNode root = view.flatten(view.root());
    String label = root == null ? null : labelOf(null, root);
    JsonNode filled = new Filler(view, false).merge(schema, given, label, 0, 0);
    return filled == null ? NullNode.getInstance() : filled;
  }

  /** Sample values for a schema, as {@link #fill} makes them when nothing is given. */
  public static JsonNode sample(JsonNode schema) {
    return fill(schema, null);
  }

  /**
   * The given values plus the {@code default} or {@code const} of fields that lack a value, and
   * nothing else: no sample data is invented. Absent optional objects stay absent, so that their
   * defaults cannot make them half-filled.
   */
  public static JsonNode applyDefaults(JsonNode schema, JsonNode given) {
    JsonNode filled = new Filler(new SchemaView(schema), true).merge(schema, given, null, 0, 0);
    return filled == null ? NullNode.getInstance() : filled;
  }

  /**
   * A field that no given value covers.
   *
   * @param pointer JSON Pointer of the field within the form's values, "" for the whole form
   * @param required whether the schema requires it: required in its parent, and the parent either
   *     given or itself required
   */
  public record MissingField(String pointer, boolean required) {
    /** Checks that the pointer is present. */
    public MissingField {
      Objects.requireNonNull(pointer, "pointer");
    }
  }

  /**
   * The leaf fields that the given values do not cover, in schema order. An absent object is
   * reported field by field; an absent array, or a field with choices, is reported as one field. A
   * given array shorter than {@code minItems} reports its first missing index.
   */
  public static List<MissingField> missing(JsonNode schema, JsonNode given) {
    List<MissingField> out = new ArrayList<>();
    new Collector(new SchemaView(schema), out).collect(schema, given, "", true, 0);
    return List.copyOf(out);
  }

  private static final class Filler {
    private final SchemaView view;
    private final boolean defaultsOnly;
    // The $refs being expanded right now: an optional property that refers back is left out.
    private final Deque<String> activeRefs = new ArrayDeque<>();

    Filler(SchemaView view, boolean defaultsOnly) {
      this.view = view;
      this.defaultsOnly = defaultsOnly;
    }

    /** The merged value, or null when the field should stay absent. */
    JsonNode merge(JsonNode schema, JsonNode given, String label, int variant, int depth) {
      ObjectNode s = view.flatten(schema);
      if (SchemaView.absent(given)) {
        return s == null || depth > MAX_DEPTH ? null : sample(s, label, variant, depth);
      }
      if (s == null) {
        return given.deepCopy();
      }
      String type = SchemaView.type(s);
      if (given.isObject() && (type == null || type.equals("object"))) {
        ObjectNode out = JSON.objectNode();
        Set<String> required = SchemaView.required(s);
        for (Map.Entry<String, JsonNode> property : SchemaView.properties(s).entrySet()) {
          String name = property.getKey();
          JsonNode value =
              descend(
                  property.getValue(),
                  given.get(name),
                  name,
                  variant,
                  depth,
                  required.contains(name));
          if (value != null) {
            out.set(name, value);
          }
        }
        for (Map.Entry<String, JsonNode> field : given.properties()) {
          if (!out.has(field.getKey())) {
            out.set(field.getKey(), field.getValue().deepCopy());
          }
        }
        return out;
      }
      if (given.isArray() && (type == null || type.equals("array"))) {
        ArrayNode out = JSON.arrayNode();
        for (int i = 0; i < given.size(); i++) {
          JsonNode item = merge(SchemaView.items(s, i), given.get(i), label, i, depth + 1);
          out.add(item == null ? NullNode.getInstance() : item);
        }
        int minItems = SchemaView.intKeyword(s, "minItems", 0);
        while (out.size() < minItems && !defaultsOnly) {
          JsonNode item =
              merge(SchemaView.items(s, out.size()), null, label, out.size(), depth + 1);
          if (item == null) {
            break;
          }
          out.add(item);
        }
        return out;
      }
      return given.deepCopy();
    }

    private JsonNode descend(
        JsonNode schema, JsonNode given, String name, int variant, int depth, boolean required) {
      if (defaultsOnly && SchemaView.absent(given) && !required) {
        ObjectNode s = view.flatten(schema);
        return s == null || !(s.has("default") || s.has("const"))
            ? null
            : sample(s, name, 0, depth);
      }
      String ref = SchemaView.ref(schema);
      if (ref != null && activeRefs.contains(ref) && !required && SchemaView.absent(given)) {
        return null;
      }
      if (ref != null) {
        activeRefs.push(ref);
      }
      try {
        ObjectNode s = view.flatten(schema);
        String label = s == null ? name : labelOf(name, s);
        return merge(schema, given, label, variant, depth + 1);
      } finally {
        if (ref != null) {
          activeRefs.pop();
        }
      }
    }

    private JsonNode sample(ObjectNode s, String label, int variant, int depth) {
      if (s.has("default")) {
        return s.get("default").deepCopy();
      }
      JsonNode examples = s.get("examples");
      if (!defaultsOnly && examples != null && examples.isArray() && !examples.isEmpty()) {
        return examples.get(0).deepCopy();
      }
      if (s.has("const")) {
        return s.get("const").deepCopy();
      }
      String type = SchemaView.type(s);
      if (defaultsOnly) {
        // Only a required object is worth descending into: its own required fields may have
        // defaults.
        return "object".equals(type) ? merge(s, JSON.objectNode(), label, variant, depth) : null;
      }
      List<SchemaView.Choice> choices = SchemaView.choices(s);
      if (!choices.isEmpty()) {
        // Distinct items for arrays of choices, such as a multi-select with uniqueItems.
        return choices.get(variant % choices.size()).value().deepCopy();
      }
      switch (type == null ? "string" : type) {
        case "object":
          return merge(s, JSON.objectNode(), label, variant, depth);
        case "array":
          return sampleArray(s, label, depth);
        case "integer":
          return number(s, true, variant);
        case "number":
          return number(s, false, variant);
        case "boolean":
          return BooleanNode.FALSE;
        case "null":
          return NullNode.getInstance();
        default:
          return JSON.textNode(string(s, label, variant));
      }
    }

    // One item even when none is required, so the user sees what an item looks like.
    private JsonNode sampleArray(ObjectNode s, String label, int depth) {
      int minItems = SchemaView.intKeyword(s, "minItems", 0);
      int count = Math.max(minItems, 1);
      if (SchemaView.hasInt(s, "maxItems")) {
        count = Math.min(count, SchemaView.intKeyword(s, "maxItems", count));
      }
      ArrayNode out = JSON.arrayNode();
      for (int i = 0; i < count; i++) {
        JsonNode itemSchema = SchemaView.items(s, i);
        String ref = SchemaView.ref(itemSchema);
        boolean required = i < minItems;
        if (ref != null && activeRefs.contains(ref) && !required) {
          break;
        }
        if (ref != null) {
          activeRefs.push(ref);
        }
        try {
          JsonNode item = merge(itemSchema, null, label, i, depth + 1);
          if (item == null && !required) {
            break;
          }
          out.add(item == null ? NullNode.getInstance() : item);
        } finally {
          if (ref != null) {
            activeRefs.pop();
          }
        }
      }
      return out;
    }
  }

  private static final class Collector {
    private final SchemaView view;
    private final List<MissingField> out;
    private final Deque<String> activeRefs = new ArrayDeque<>();

    Collector(SchemaView view, List<MissingField> out) {
      this.view = view;
      this.out = out;
    }

    void collect(JsonNode schema, JsonNode given, String pointer, boolean required, int depth) {
      ObjectNode s = view.flatten(schema);
      if (s == null || depth > MAX_DEPTH) {
        return;
      }
      String type = SchemaView.type(s);
      if (!SchemaView.absent(given)) {
        if (given.isObject() && (type == null || type.equals("object"))) {
          Set<String> requiredNames = SchemaView.required(s);
          for (Map.Entry<String, JsonNode> property : SchemaView.properties(s).entrySet()) {
            String name = property.getKey();
            collectRef(
                property.getValue(),
                given.get(name),
                SchemaView.pointer(pointer, name),
                requiredNames.contains(name),
                depth);
          }
        } else if (given.isArray() && (type == null || type.equals("array"))) {
          for (int i = 0; i < given.size(); i++) {
            collectRef(
                SchemaView.items(s, i), given.get(i), SchemaView.pointer(pointer, i), true, depth);
          }
          if (given.size() < SchemaView.intKeyword(s, "minItems", 0)) {
            out.add(new MissingField(SchemaView.pointer(pointer, given.size()), true));
          }
        }
        return;
      }
      boolean leaf =
          !"object".equals(type)
              || SchemaView.properties(s).isEmpty()
              || s.has("default")
              || s.has("const")
              || !SchemaView.choices(s).isEmpty();
      if (leaf) {
        out.add(new MissingField(pointer, required));
        return;
      }
      Set<String> requiredNames = SchemaView.required(s);
      for (Map.Entry<String, JsonNode> property : SchemaView.properties(s).entrySet()) {
        String name = property.getKey();
        collectRef(
            property.getValue(),
            null,
            SchemaView.pointer(pointer, name),
            required && requiredNames.contains(name),
            depth);
      }
    }

    private void collectRef(
        JsonNode schema, JsonNode given, String pointer, boolean required, int depth) {
      String ref = SchemaView.ref(schema);
      if (ref != null && activeRefs.contains(ref) && !required && SchemaView.absent(given)) {
        return;
      }
      if (ref != null) {
        activeRefs.push(ref);
      }
      try {
        collect(schema, given, pointer, required, depth + 1);
      } finally {
        if (ref != null) {
          activeRefs.pop();
        }
      }
    }
  }

  /** "Company name" as a title or "companyName" as a name both label a value "company name". */
  static String labelOf(String name, ObjectNode schema) {
    String title = SchemaView.text(schema, "title");
    String base = title != null ? title : name == null ? null : SchemaView.humanize(name);
    if (base == null || base.isEmpty()) {
      return null;
    }
    String firstWord = base.split("\\s+", 2)[0];
    boolean acronym =
        firstWord.length() > 1 && firstWord.equals(firstWord.toUpperCase(Locale.ROOT));
    return acronym ? base : Character.toLowerCase(base.charAt(0)) + base.substring(1);
  }

  static String string(ObjectNode s, String label, int variant) {
    int minLength = Math.max(0, SchemaView.intKeyword(s, "minLength", 0));
    int maxLength = Math.max(minLength, SchemaView.intKeyword(s, "maxLength", Integer.MAX_VALUE));
    String pattern = SchemaView.text(s, "pattern");
    List<String> candidates = new ArrayList<>(formatted(SchemaView.text(s, "format"), variant));
    String readable = fit(readable(label, variant), minLength, maxLength);
    candidates.add(readable);
    for (String candidate : candidates) {
      int length = candidate.codePointCount(0, candidate.length());
      if (length >= minLength
          && length <= maxLength
          && (pattern == null || PatternSample.matches(pattern, candidate))) {
        return candidate;
      }
    }
    if (pattern != null) {
      String generated = PatternSample.generate(pattern, minLength, maxLength);
      if (generated != null) {
        return generated;
      }
    }
    // Nothing satisfies every constraint; a well-formed value is the most useful wrong answer.
    return candidates.get(0);
  }

  private static String readable(String label, int variant) {
    String text = "Sample " + (label == null ? "text" : label);
    return variant > 0 ? text + " " + (variant + 1) : text;
  }

  /** Repeats or cuts {@code text} to a length within bounds, never ending in a space. */
  static String fit(String text, int minLength, int maxLength) {
    StringBuilder out = new StringBuilder(text);
    while (out.length() < minLength) {
      out.append(' ').append(text);
    }
    String fitted = out.length() > maxLength ? out.substring(0, maxLength) : out.toString();
    fitted = fitted.stripTrailing();
    StringBuilder padded = new StringBuilder(fitted);
    while (padded.length() < minLength) {
      padded.append('x');
    }
    return padded.toString();
  }

  // Shorter alternatives come after the preferred value so tight maxLengths still get a valid one.
  private static List<String> formatted(String format, int variant) {
    if (format == null) {
      return List.of();
    }
    String n = variant > 0 ? String.valueOf(variant + 1) : "";
    switch (format.toLowerCase(Locale.ROOT)) {
      case "email":
      case "idn-email":
        return List.of("alex" + n + "@example.com", "a" + n + "@b.co");
      case "date":
        return List.of(SAMPLE_DATE.plusDays(variant).toString());
      case "date-time":
        return List.of(SAMPLE_DATE.plusDays(variant) + "T09:30:00Z");
      case "time":
        return List.of("09:30:00Z");
      case "uri":
      case "url":
      case "iri":
      case "uri-reference":
      case "iri-reference":
        return List.of(variant > 0 ? "https://example.com/" + n : "https://example.com");
      case "hostname":
      case "idn-hostname":
        return List.of(variant > 0 ? "host" + n + ".example.com" : "example.com");
      case "ipv4":
        return List.of("192.0.2." + (1 + variant % 254));
      case "ipv6":
        return List.of("2001:db8::" + Integer.toHexString(1 + variant));
      case "uuid":
        return List.of(String.format(Locale.ROOT, "123e4567-e89b-42d3-a456-%012d", variant));
      case "duration":
        return List.of("P" + (1 + variant) + "D");
      case "json-pointer":
        return List.of("/sample");
      case "regex":
        return List.of(".*");
      case "phone":
      case "tel":
        return List.of("+1302555" + String.format(Locale.ROOT, "%04d", 100 + variant));
      default:
        return List.of();
    }
  }

  private record Bound(BigDecimal value, boolean exclusive) {}

  static JsonNode number(ObjectNode s, boolean integer, int variant) {
    Bound lower = bound(s, "minimum", "exclusiveMinimum", true);
    Bound upper = bound(s, "maximum", "exclusiveMaximum", false);
    BigDecimal step = decimal(s, "multipleOf");
    if (step != null && step.signum() <= 0) {
      step = null;
    }
    if (integer && (step == null || step.stripTrailingZeros().scale() > 0)) {
      step = BigDecimal.ONE;
    }
    BigDecimal value = pick(lower, upper, step);
    if (variant > 0) {
      BigDecimal next =
          value.add((step == null ? BigDecimal.ONE : step).multiply(BigDecimal.valueOf(variant)));
      if (within(next, lower, upper)) {
        value = next;
      }
    }
    return toNode(value);
  }

  // Prefers 1, the most readable amount, then the smallest value the bounds allow.
  private static BigDecimal pick(Bound lower, Bound upper, BigDecimal step) {
    if (within(BigDecimal.ONE, lower, upper) && multipleOf(BigDecimal.ONE, step)) {
      return BigDecimal.ONE;
    }
    if (lower != null) {
      BigDecimal low = lower.value();
      if (step != null) {
        BigDecimal atOrBelow = low.divide(step, 0, RoundingMode.FLOOR).multiply(step);
        return atOrBelow.compareTo(low) == 0 && !lower.exclusive()
            ? atOrBelow
            : atOrBelow.add(step);
      }
      if (!lower.exclusive()) {
        return low;
      }
      BigDecimal above = low.add(BigDecimal.ONE);
      return within(above, lower, upper)
          ? above
          : low.add(upper.value()).divide(BigDecimal.valueOf(2));
    }
    if (upper != null) {
      BigDecimal high = upper.value();
      if (step != null) {
        BigDecimal atOrAbove = high.divide(step, 0, RoundingMode.CEILING).multiply(step);
        return atOrAbove.compareTo(high) == 0 && !upper.exclusive()
            ? atOrAbove
            : atOrAbove.subtract(step);
      }
      return upper.exclusive() ? high.subtract(BigDecimal.ONE) : high;
    }
    return step == null ? BigDecimal.ONE : step;
  }

  /**
   * Reads a bound in either draft: 2020-12 gives {@code exclusiveMinimum} a number of its own,
   * draft 4 makes it a boolean that turns {@code minimum} exclusive.
   */
  private static Bound bound(
      ObjectNode s, String inclusiveKey, String exclusiveKey, boolean lower) {
    BigDecimal inclusive = decimal(s, inclusiveKey);
    JsonNode exclusive = s.get(exclusiveKey);
    if (exclusive != null && exclusive.isNumber()) {
      BigDecimal value = exclusive.decimalValue();
      boolean tighter =
          inclusive == null
              || (lower ? value.compareTo(inclusive) >= 0 : value.compareTo(inclusive) <= 0);
      if (tighter) {
        return new Bound(value, true);
      }
    }
    if (inclusive == null) {
      return null;
    }
    return new Bound(
        inclusive, exclusive != null && exclusive.isBoolean() && exclusive.booleanValue());
  }

  private static boolean within(BigDecimal value, Bound lower, Bound upper) {
    if (lower != null) {
      int c = value.compareTo(lower.value());
      if (c < 0 || (c == 0 && lower.exclusive())) {
        return false;
      }
    }
    if (upper != null) {
      int c = value.compareTo(upper.value());
      return c < 0 || (c == 0 && !upper.exclusive());
    }
    return true;
  }

  private static boolean multipleOf(BigDecimal value, BigDecimal step) {
    return step == null || value.remainder(step).signum() == 0;
  }

  private static BigDecimal decimal(ObjectNode s, String key) {
    JsonNode value = s.get(key);
    return value != null && value.isNumber() ? value.decimalValue() : null;
  }

  static JsonNode toNode(BigDecimal value) {
    BigDecimal stripped = value.stripTrailingZeros();
    if (stripped.scale() <= 0) {
      try {
        long whole = stripped.longValueExact();
        return whole == (int) whole ? JSON.numberNode((int) whole) : JSON.numberNode(whole);
      } catch (ArithmeticException e) {
        return JSON.numberNode(stripped.toBigInteger());
      }
    }
    return JSON.numberNode(stripped);
  }
}
