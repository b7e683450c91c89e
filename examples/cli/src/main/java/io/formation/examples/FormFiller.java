package io.formation.examples;

import com.fasterxml.jackson.core.JsonPointer;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.formation.sandbox.FormValidator;
import io.formation.sandbox.Violation;
import io.formation.sdk.model.Form;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

/**
 * Completes a form's values: the values the service holds (less those that no longer fit the
 * schema), then the answers file, then sample data ({@code --autofill}) or questions on a terminal.
 * With neither, a required field that nothing covers is a usage error. Defaults and consts from the
 * schema count as values. Whether a value fits is the validator's call; this class only walks the
 * schema's {@code properties} and {@code items} to find the fields.
 */
final class FormFiller {
  private static final JsonNodeFactory JSON = JsonNodeFactory.instance;
  private static final ObjectMapper MAPPER = new ObjectMapper();

  /** Where values come from: {@code --answers} and {@code --autofill}. */
  static final class Options {
    @Option(
        names = "--answers",
        paramLabel = "FILE",
        description = "JSON object of form id to values, e.g. {\"company\": {\"name\": \"Acme\"}}")
    Path answers;

    @Option(
        names = "--autofill",
        description = "Fill what the answers leave open with sample data from the form's schema")
    boolean autofill;
  }

  private final Cli cli;
  private final CommandSpec command;
  private final Answers answers;
  private final boolean autofill;

  /** Reads the answers file now, so that a bad one fails before anything is created. */
  FormFiller(Cli cli, CommandSpec command, Options options) {
    this.cli = cli;
    this.command = command;
    this.answers =
        options.answers == null ? Answers.none() : Answers.read(options.answers, command);
    this.autofill = options.autofill;
  }

  /** A form in the answers file that the document set does not have is a warning, not an error. */
  void warnAboutAnswersFor(List<Form> forms) {
    for (String id : answers.formIds()) {
      if (forms.stream().noneMatch(form -> form.id().equals(id))) {
        cli.out.printf(
            "# warning: the answers file %s has values for form '%s', which this document set does"
                + " not have; they are not used%n",
            answers.source(), id);
      }
    }
  }

  /** The values to submit for a form, completed as the class comment says. */
  JsonNode complete(Form form) {
    JsonNode held = form.values();
    Map<String, String> stale = strip(held, problems(form.schema(), held));
    JsonNode given = overlay(held, answers.forForm(form.id()).orElse(null));
    return new Walk(form, stale, false).run(given);
  }

  /**
   * The values after a person corrected the fields the service rejected; equal to the values sent
   * when none of its messages names a field that can be asked for.
   */
  JsonNode correct(Form form, JsonNode sent, Map<String, String> messagesByPointer) {
    JsonNode values = sent.deepCopy();
    strip(values, messagesByPointer);
    return new Walk(form, messagesByPointer, true).run(values);
  }

  /** Whether the form's current values satisfy its schema. */
  static boolean fits(Form form) {
    return problems(form.schema(), form.values()).isEmpty();
  }

  /** What the validator finds wrong with the values, by JSON Pointer. */
  static Map<String, String> problems(JsonNode schema, JsonNode values) {
    Map<String, String> problems = new LinkedHashMap<>();
    List<Violation> violations;
    try {
      violations = FormValidator.validate(schema, values);
    } catch (IllegalArgumentException e) {
      // A part of a schema that cannot stand alone (a $ref into the whole form): the service
      // judges.
      return problems;
    }
    for (Violation violation : violations) {
      problems.merge(violation.pointer(), violation.message(), (a, b) -> a + "; " + b);
    }
    return problems;
  }

  /**
   * Removes each value the problems point at, so that it is filled in again, and returns their
   * problems. A problem with an object or an array as a whole, or a missing field, needs no
   * removal: the walk fills in what is missing.
   */
  private static Map<String, String> strip(JsonNode values, Map<String, String> problems) {
    Map<String, String> stripped = new LinkedHashMap<>();
    problems.forEach(
        (pointer, message) -> {
          JsonPointer at;
          try {
            at = JsonPointer.compile(pointer);
          } catch (IllegalArgumentException e) {
            return; // Not a JSON Pointer: nothing to remove, the message is still shown.
          }
          if (at.matches() || !values.at(at).isValueNode()) {
            return;
          }
          JsonNode parent = values.at(at.head());
          if (parent instanceof ObjectNode object) {
            object.remove(at.last().getMatchingProperty());
          } else if (parent instanceof ArrayNode array) {
            array.set(at.last().getMatchingIndex(), JSON.nullNode());
          }
          stripped.put(pointer, message);
        });
    return stripped;
  }

  /** The base values with the given ones laid over them, objects merged field by field. */
  static JsonNode overlay(JsonNode base, JsonNode given) {
    if (!present(given)) {
      return base;
    }
    if (!(base instanceof ObjectNode object) || !given.isObject()) {
      return given.deepCopy();
    }
    ObjectNode merged = object.deepCopy();
    given
        .properties()
        .forEach(f -> merged.set(f.getKey(), overlay(merged.get(f.getKey()), f.getValue())));
    return merged;
  }

  private static boolean present(JsonNode value) {
    return value != null && !value.isNull() && !value.isMissingNode();
  }

  /** One pass over a form's schema, filling in what the values lack. */
  private final class Walk {
    private final Form form;
    private final Map<String, String> problems;
    private final boolean correcting;
    private final List<String> missing = new ArrayList<>();
    private int sampled;
    private boolean headed;

    /**
     * @param correcting whether a person is correcting what the service rejected: then only the
     *     rejected fields are asked for, and never sampled
     */
    Walk(Form form, Map<String, String> problems, boolean correcting) {
      this.form = form;
      this.problems = problems;
      this.correcting = correcting;
    }

    JsonNode run(JsonNode given) {
      JsonNode values = fill(form.schema(), given, "", null, true);
      if (!missing.isEmpty()) {
        throw new ParameterException(
            command.commandLine(),
            String.format(
                "form '%s' has no value for %s: pass --answers FILE or --autofill",
                form.id(), String.join(", ", missing.stream().map(p -> "'" + p + "'").toList())));
      }
      if (sampled > 0) {
        String noun = sampled == 1 ? " value" : " values";
        cli.out.println("# " + form.id() + ": " + sampled + noun + " filled in by --autofill");
      }
      return present(values) ? values : JSON.objectNode();
    }

    private JsonNode fill(
        JsonNode schema, JsonNode value, String pointer, String label, boolean required) {
      if (present(value)) {
        if (value instanceof ObjectNode object) {
          return fillObject(schema, object.deepCopy(), pointer, label);
        }
        return value instanceof ArrayNode array
            ? fillArray(schema, array.deepCopy(), pointer, label)
            : value;
      }
      if (schema.has("default") || schema.has("const")) {
        return (schema.has("default") ? schema.get("default") : schema.get("const")).deepCopy();
      }
      if (schema.has("properties") || schema.path("type").asText().equals("array")) {
        if (!required && !autofill) {
          return null;
        }
        return schema.has("properties")
            ? fillObject(schema, JSON.objectNode(), pointer, label)
            : fillArray(schema, JSON.arrayNode(), pointer, label);
      }
      if (autofill && !correcting) {
        sampled++;
        return sample(schema, label);
      }
      if (cli.interactive && (required || !correcting)) {
        return ask(schema, pointer, label, required);
      }
      if (required) {
        missing.add(pointer);
      }
      return null;
    }

    private ObjectNode fillObject(
        JsonNode schema, ObjectNode object, String pointer, String label) {
      Set<String> required = new HashSet<>();
      schema.path("required").forEach(name -> required.add(name.asText()));
      for (Map.Entry<String, JsonNode> property : schema.path("properties").properties()) {
        String name = property.getKey();
        JsonNode field = property.getValue();
        String title = field.path("title").asText(name);
        JsonNode value =
            fill(
                field,
                object.get(name),
                pointer + "/" + name.replace("~", "~0").replace("/", "~1"),
                label == null ? title : label + " / " + title,
                required.contains(name));
        if (value != null) {
          object.set(name, value);
        }
      }
      return object;
    }

    private ArrayNode fillArray(JsonNode schema, ArrayNode array, String pointer, String label) {
      JsonNode items = schema.path("items");
      String name = label == null ? "Item" : label;
      int wanted = Math.max(schema.path("minItems").asInt(0), autofill ? 1 : 0);
      for (int i = 0; i < Math.max(array.size(), wanted); i++) {
        JsonNode item =
            fill(items, array.get(i), pointer + "/" + i, name + " #" + (i + 1), i < wanted);
        if (item == null) {
          break;
        }
        if (i < array.size()) {
          array.set(i, item);
        } else {
          array.add(item);
        }
      }
      return array;
    }

    /** Sample data: the schema's own examples and choices first, then plain values of its type. */
    private JsonNode sample(JsonNode schema, String label) {
      List<JsonNode> candidates = new ArrayList<>();
      schema.path("examples").forEach(candidates::add);
      schema.path("enum").forEach(candidates::add);
      switch (schema.path("type").asText("string")) {
        case "integer", "number" -> {
          candidates.add(schema.path("minimum"));
          candidates.add(JSON.numberNode(1));
          candidates.add(JSON.numberNode(schema.path("exclusiveMinimum").asInt() + 1));
        }
        case "boolean" -> candidates.add(JSON.booleanNode(false));
        default -> {
          candidates.add(
              JSON.textNode(
                  switch (schema.path("format").asText()) {
                    case "email" -> "alex@example.com";
                    case "date" -> "2025-01-15";
                    case "date-time" -> "2025-01-15T09:30:00Z";
                    case "uri", "url" -> "https://example.com";
                    default ->
                        "Sample " + (label == null ? "text" : label.toLowerCase(Locale.ROOT));
                  }));
          candidates.add(JSON.textNode("12345"));
        }
      }
      candidates.removeIf(JsonNode::isMissingNode);
      return candidates.stream()
          .filter(candidate -> problems(schema, candidate).isEmpty())
          .findFirst()
          .orElse(candidates.get(0))
          .deepCopy();
    }

    /** Asks for one field until the answer fits its schema. */
    private JsonNode ask(JsonNode schema, String pointer, String label, boolean required) {
      if (!headed) {
        headed = true;
        String title = form.schema().path("title").asText(null);
        String titled = title == null ? "" : " (" + title + ")";
        cli.out.printf("Form '%s'%s needs some values.%n", form.id(), titled);
      }
      String optional = required ? "" : ", optional: Enter skips it";
      cli.out.printf("%n%s (%s%s)%n", label == null ? "Value" : label, pointer, optional);
      if (schema.has("description")) {
        cli.out.println("  " + schema.get("description").asText());
      }
      if (problems.containsKey(pointer)) {
        cli.out.println("  ! " + problems.get(pointer));
      }
      List<JsonNode> choices = new ArrayList<>();
      schema.path("enum").forEach(choices::add);
      for (int i = 0; i < choices.size(); i++) {
        cli.out.println("  " + (i + 1) + ") " + choices.get(i).asText());
      }
      while (true) {
        cli.out.print("> ");
        cli.out.flush();
        String text = readLine();
        if (text == null) {
          throw new ParameterException(
              command.commandLine(),
              "input ended before form '" + form.id() + "' field '" + pointer + "' was answered");
        }
        if (text.isBlank()) {
          if (!required) {
            return null;
          }
          cli.out.println("  ! a value is required");
          continue;
        }
        JsonNode value = parse(schema, choices, text.strip());
        Map<String, String> wrong = problems(schema, value);
        if (wrong.isEmpty()) {
          return value;
        }
        wrong.values().forEach(message -> cli.out.println("  ! " + message));
      }
    }

    private String readLine() {
      try {
        return cli.in.readLine();
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
  }

  /** A choice by its number, a number or boolean as JSON, anything else as the text typed. */
  private static JsonNode parse(JsonNode schema, List<JsonNode> choices, String text) {
    if (text.matches("[0-9]{1,3}") && !choices.isEmpty()) {
      int index = Integer.parseInt(text);
      if (index >= 1 && index <= choices.size()) {
        return choices.get(index - 1);
      }
    }
    if (List.of("integer", "number", "boolean").contains(schema.path("type").asText())) {
      try {
        return MAPPER.readTree(text);
      } catch (IOException e) {
        // Not JSON: the validator says what it should have been.
      }
    }
    return JSON.textNode(text);
  }
}
