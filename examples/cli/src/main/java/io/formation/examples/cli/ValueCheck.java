package io.formation.examples.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.BooleanNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.math.BigDecimal;
import java.net.URI;
import java.net.URISyntaxException;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.time.OffsetTime;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * Turns what a user typed for one field into the JSON value its schema asks for, or says in a few
 * words what is wrong, so that {@link Prompter} can ask again before anything is sent.
 */
final class ValueCheck {
  private static final JsonNodeFactory JSON = JsonNodeFactory.instance;
  private static final ObjectMapper MAPPER = new ObjectMapper();
  // Deliberately loose: the service has the last word, this only catches typos early.
  private static final Pattern EMAIL = Pattern.compile("^[^@\\s]+@[^@\\s]+\\.[^@\\s]+$");

  private ValueCheck() {}

  /** Either a value or the reason the text is not one. */
  record Parsed(JsonNode value, String problem) {
    static Parsed ok(JsonNode value) {
      return new Parsed(value, null);
    }

    static Parsed problem(String problem) {
      return new Parsed(null, problem);
    }
  }

  /** Parses non-blank typed text for a field with this (flattened) schema. */
  static Parsed parse(ObjectNode schema, String text) {
    List<SchemaView.Choice> choices = SchemaView.choices(schema);
    if (!choices.isEmpty()) {
      return choose(choices, text);
    }
    String type = SchemaView.type(schema);
    Parsed parsed = parseAs(type == null ? "string" : type, text);
    if (parsed.problem() != null) {
      return parsed;
    }
    String problem = problem(schema, parsed.value());
    return problem == null ? parsed : Parsed.problem(problem);
  }

  private static Parsed choose(List<SchemaView.Choice> choices, String text) {
    try {
      int number = Integer.parseInt(text);
      if (number >= 1 && number <= choices.size()) {
        return Parsed.ok(choices.get(number - 1).value().deepCopy());
      }
    } catch (NumberFormatException e) {
      // Not a number: maybe the value or its label was typed instead.
    }
    for (SchemaView.Choice choice : choices) {
      if (SchemaView.display(choice.value()).equalsIgnoreCase(text)
          || choice.label().equalsIgnoreCase(text)) {
        return Parsed.ok(choice.value().deepCopy());
      }
    }
    return Parsed.problem("choose a number from 1 to " + choices.size());
  }

  private static Parsed parseAs(String type, String text) {
    return switch (type) {
      case "boolean" -> yesOrNo(text);
      case "integer", "number" -> number(type.equals("integer"), text);
      case "null" ->
          text.equals("null") ? Parsed.ok(NullNode.getInstance()) : Parsed.problem("enter null");
      case "object", "array" -> json(type, text);
      default -> Parsed.ok(JSON.textNode(text));
    };
  }

  private static Parsed yesOrNo(String text) {
    return switch (text.toLowerCase(Locale.ROOT)) {
      case "y", "yes", "true" -> Parsed.ok(BooleanNode.TRUE);
      case "n", "no", "false" -> Parsed.ok(BooleanNode.FALSE);
      default -> Parsed.problem("answer yes or no");
    };
  }

  private static Parsed number(boolean integer, String text) {
    String problem = integer ? "enter a whole number" : "enter a number";
    try {
      BigDecimal number = new BigDecimal(text.replace("_", "").replace(",", ""));
      return integer && number.stripTrailingZeros().scale() > 0
          ? Parsed.problem(problem)
          : Parsed.ok(Autofill.toNode(number));
    } catch (NumberFormatException e) {
      return Parsed.problem(problem);
    }
  }

  // Free-form objects and arrays (no properties or items to ask about) are typed as JSON.
  private static Parsed json(String type, String text) {
    try {
      JsonNode value = MAPPER.readTree(text);
      return SchemaView.kind(value).equals(type)
          ? Parsed.ok(value)
          : Parsed.problem("enter a JSON " + type);
    } catch (JsonProcessingException e) {
      return Parsed.problem("enter a JSON " + type);
    }
  }

  /** What keeps {@code value} from satisfying the schema's scalar keywords, or null if nothing. */
  static String problem(ObjectNode schema, JsonNode value) {
    JsonNode constant = schema.get("const");
    if (constant != null && !constant.equals(value)) {
      return "must be " + SchemaView.display(constant);
    }
    if (value.isTextual()) {
      return stringProblem(schema, value.textValue());
    }
    if (value.isNumber()) {
      return numberProblem(schema, value.decimalValue());
    }
    return null;
  }

  private static String stringProblem(ObjectNode schema, String text) {
    int length = text.codePointCount(0, text.length());
    if (SchemaView.hasInt(schema, "minLength")) {
      int min = SchemaView.intKeyword(schema, "minLength", 0);
      if (length < min) {
        return min == 1 ? "must not be empty" : "must be at least " + min + " characters";
      }
    }
    if (SchemaView.hasInt(schema, "maxLength")) {
      int max = SchemaView.intKeyword(schema, "maxLength", 0);
      if (length > max) {
        return "must be at most " + max + " characters";
      }
    }
    String format = SchemaView.text(schema, "format");
    if (format != null && !formatted(format.toLowerCase(Locale.ROOT), text)) {
      return "must be " + formatDescription(format.toLowerCase(Locale.ROOT));
    }
    String pattern = SchemaView.text(schema, "pattern");
    if (pattern != null && !PatternSample.matches(pattern, text)) {
      return "must match the pattern " + pattern;
    }
    return null;
  }

  private static boolean formatted(String format, String text) {
    try {
      switch (format) {
        case "email", "idn-email" -> {
          return EMAIL.matcher(text).matches();
        }
        case "date" -> LocalDate.parse(text);
        case "date-time" -> OffsetDateTime.parse(text);
        case "time" -> OffsetTime.parse(text);
        case "uri", "url", "iri" -> {
          return new URI(text).getScheme() != null;
        }
        default -> {
          return true;
        }
      }
      return true;
    } catch (DateTimeParseException | URISyntaxException e) {
      return false;
    }
  }

  private static String formatDescription(String format) {
    return switch (format) {
      case "email", "idn-email" -> "an email address such as alex@example.com";
      case "date" -> "a date such as 2025-01-15";
      case "date-time" -> "a date and time such as 2025-01-15T09:30:00Z";
      case "time" -> "a time such as 09:30:00Z";
      default -> "an absolute URL such as https://example.com";
    };
  }

  private static String numberProblem(ObjectNode schema, BigDecimal number) {
    BigDecimal minimum = decimal(schema, "minimum");
    BigDecimal maximum = decimal(schema, "maximum");
    JsonNode exclusiveMinimum = schema.get("exclusiveMinimum");
    JsonNode exclusiveMaximum = schema.get("exclusiveMaximum");
    boolean draft4Min = exclusiveMinimum != null && exclusiveMinimum.asBoolean(false);
    boolean draft4Max = exclusiveMaximum != null && exclusiveMaximum.asBoolean(false);
    if (minimum != null
        && (draft4Min ? number.compareTo(minimum) <= 0 : number.compareTo(minimum) < 0)) {
      return (draft4Min ? "must be greater than " : "must be at least ") + plain(minimum);
    }
    if (exclusiveMinimum != null
        && exclusiveMinimum.isNumber()
        && number.compareTo(exclusiveMinimum.decimalValue()) <= 0) {
      return "must be greater than " + plain(exclusiveMinimum.decimalValue());
    }
    if (maximum != null
        && (draft4Max ? number.compareTo(maximum) >= 0 : number.compareTo(maximum) > 0)) {
      return (draft4Max ? "must be less than " : "must be at most ") + plain(maximum);
    }
    if (exclusiveMaximum != null
        && exclusiveMaximum.isNumber()
        && number.compareTo(exclusiveMaximum.decimalValue()) >= 0) {
      return "must be less than " + plain(exclusiveMaximum.decimalValue());
    }
    BigDecimal step = decimal(schema, "multipleOf");
    if (step != null && step.signum() > 0 && number.remainder(step).signum() != 0) {
      return "must be a multiple of " + plain(step);
    }
    return null;
  }

  /** A short description of what the field takes, such as "whole number, at least 1". */
  static String hint(ObjectNode schema) {
    if (!SchemaView.choices(schema).isEmpty()) {
      return null;
    }
    String type = SchemaView.type(schema);
    List<String> parts = new ArrayList<>();
    switch (type == null ? "string" : type) {
      case "boolean" -> parts.add("yes or no");
      case "integer", "number" -> {
        parts.add(type.equals("integer") ? "whole number" : "number");
        numberHints(schema, parts);
      }
      case "object", "array" -> parts.add("JSON " + type);
      default -> stringHints(schema, parts);
    }
    return parts.isEmpty() ? null : String.join(", ", parts);
  }

  private static void numberHints(ObjectNode schema, List<String> parts) {
    JsonNode exclusiveMinimum = schema.get("exclusiveMinimum");
    JsonNode exclusiveMaximum = schema.get("exclusiveMaximum");
    BigDecimal minimum = decimal(schema, "minimum");
    BigDecimal maximum = decimal(schema, "maximum");
    if (exclusiveMinimum != null && exclusiveMinimum.isNumber()) {
      parts.add("greater than " + plain(exclusiveMinimum.decimalValue()));
    } else if (minimum != null) {
      boolean exclusive = exclusiveMinimum != null && exclusiveMinimum.asBoolean(false);
      parts.add((exclusive ? "greater than " : "at least ") + plain(minimum));
    }
    if (exclusiveMaximum != null && exclusiveMaximum.isNumber()) {
      parts.add("less than " + plain(exclusiveMaximum.decimalValue()));
    } else if (maximum != null) {
      boolean exclusive = exclusiveMaximum != null && exclusiveMaximum.asBoolean(false);
      parts.add((exclusive ? "less than " : "at most ") + plain(maximum));
    }
    BigDecimal step = decimal(schema, "multipleOf");
    if (step != null) {
      parts.add("a multiple of " + plain(step));
    }
  }

  private static void stringHints(ObjectNode schema, List<String> parts) {
    String format = SchemaView.text(schema, "format");
    if (format != null) {
      switch (format.toLowerCase(Locale.ROOT)) {
        case "email", "idn-email" -> parts.add("email address");
        case "date" -> parts.add("date, YYYY-MM-DD");
        case "date-time" -> parts.add("date and time, such as 2025-01-15T09:30:00Z");
        case "time" -> parts.add("time, such as 09:30:00Z");
        case "uri", "url", "iri" -> parts.add("URL, such as https://example.com");
        default -> parts.add(format);
      }
    }
    boolean hasMin = SchemaView.intKeyword(schema, "minLength", 0) > 1;
    boolean hasMax = SchemaView.hasInt(schema, "maxLength");
    int min = SchemaView.intKeyword(schema, "minLength", 0);
    int max = SchemaView.intKeyword(schema, "maxLength", 0);
    if (hasMin && hasMax) {
      parts.add(min == max ? min + " characters" : min + " to " + max + " characters");
    } else if (hasMin) {
      parts.add("at least " + min + " characters");
    } else if (hasMax) {
      parts.add("at most " + max + " characters");
    }
    String pattern = SchemaView.text(schema, "pattern");
    if (pattern != null) {
      parts.add("matching " + pattern);
    }
  }

  private static BigDecimal decimal(ObjectNode schema, String key) {
    JsonNode value = schema.get(key);
    return value != null && value.isNumber() ? value.decimalValue() : null;
  }

  private static String plain(BigDecimal number) {
    return number.stripTrailingZeros().toPlainString();
  }
}
