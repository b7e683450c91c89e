package io.formation.examples.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Asks a user, field by field, for the form values nothing else provided, checking each answer
 * against the form's JSON Schema and asking again until it fits.
 *
 * <pre>{@code
 * Prompter prompter = new Prompter(
 *     new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)), System.out);
 * JsonNode values = prompter.fill(form.id(), form.schema(), answers.get(form.id()));
 * try {
 *   client.forms().submit(form, values);
 * } catch (ValidationException e) {
 *   values = prompter.reask(form.id(), form.schema(), values, e.messagesByPointer());
 * }
 * }</pre>
 *
 * <p>A field shows its {@code title} (or its name made readable) and the path to it, its {@code
 * description}, numbered choices for {@code enum} or titled {@code oneOf} consts, and its {@code
 * default}, which Enter accepts. Enter skips an optional field. An optional object is offered with
 * a yes/no question; an array asks how many items, then each item.
 *
 * <p>Without a terminal, use {@link #requireComplete} instead: it asks nothing and fails with the
 * form and field that lack a value.
 */
public final class Prompter {
  private static final JsonNodeFactory JSON = JsonNodeFactory.instance;
  // The pointers listed in a "no value" error before the rest are counted instead.
  private static final int MAX_LISTED = 5;

  private final BufferedReader in;
  private final PrintStream out;

  /** A prompter reading answers from {@code in} and writing questions to {@code out}. */
  public Prompter(BufferedReader in, PrintStream out) {
    this.in = Objects.requireNonNull(in, "in");
    this.out = Objects.requireNonNull(out, "out");
  }

  /**
   * A message from the service about one value of a form, such as a JSON:API error's {@code
   * source.pointer} and {@code detail}.
   *
   * @param pointer JSON Pointer into the form's values; "" for the form as a whole
   * @param message what is wrong, shown next to the field
   */
  public record FieldError(String pointer, String message) {
    /** Checks that both components are present. */
    public FieldError {
      Objects.requireNonNull(pointer, "pointer");
      Objects.requireNonNull(message, "message");
    }
  }

  /**
   * Asks for every field that {@code given} does not cover and returns the completed values.
   * Nothing is printed when nothing is missing.
   *
   * @param formId the form's id, shown in the heading and in errors
   * @param schema the form's JSON Schema
   * @param given values already known (may be null); they are kept and not asked for
   * @throws UsageException if the input ends before every required field is answered
   */
  public JsonNode fill(String formId, JsonNode schema, JsonNode given) {
    Session session = new Session(formId, schema, false);
    JsonNode values = session.ask(schema, given, Field.ROOT, true, List.of());
    return values == null ? JSON.objectNode() : values;
  }

  /**
   * Asks again for the fields the service rejected, showing each message next to its field and
   * offering the current value as the default. Messages for the form as a whole, or for pointers
   * the schema does not describe, are printed and nothing is asked for them; if only such messages
   * come back, the returned values equal the given ones.
   *
   * @param values the values that were submitted; not modified
   * @param errors the service's messages, in its order; several for one pointer are shown together
   * @throws UsageException if the input ends before the fields are answered
   */
  public JsonNode reask(String formId, JsonNode schema, JsonNode values, List<FieldError> errors) {
    Session session = new Session(formId, schema, true);
    session.heading();
    Map<String, List<String>> messages = new LinkedHashMap<>();
    for (FieldError error : errors) {
      messages.computeIfAbsent(error.pointer(), pointer -> new ArrayList<>()).add(error.message());
    }
    JsonNode result = SchemaView.absent(values) ? JSON.objectNode() : values.deepCopy();
    Map<String, Target> targets = new LinkedHashMap<>();
    // Messages that name no field come first: they are often the reason for the others.
    for (Map.Entry<String, List<String>> entry : messages.entrySet()) {
      String pointer = entry.getKey();
      Target target = pointer.isEmpty() ? null : session.resolve(pointer);
      if (target == null) {
        for (String message : entry.getValue()) {
          out.println("  ! " + (pointer.isEmpty() ? "" : pointer + ": ") + message);
        }
      } else {
        targets.put(pointer, target);
      }
    }
    for (Map.Entry<String, Target> entry : targets.entrySet()) {
      String pointer = entry.getKey();
      Target target = entry.getValue();
      JsonNode current = at(result, pointer);
      JsonNode answer =
          session.ask(
              target.schema(), current, target.field(), target.required(), messages.get(pointer));
      result = put(result, SchemaView.tokens(pointer), answer);
    }
    return result;
  }

  /**
   * {@link #reask(String, JsonNode, JsonNode, List)} with messages keyed by JSON Pointer, as the
   * SDK's {@code ValidationException.messagesByPointer()} gives them.
   */
  public JsonNode reask(
      String formId, JsonNode schema, JsonNode values, Map<String, String> messagesByPointer) {
    List<FieldError> errors = new ArrayList<>();
    messagesByPointer.forEach((pointer, message) -> errors.add(new FieldError(pointer, message)));
    return reask(formId, schema, values, errors);
  }

  /**
   * The non-interactive counterpart of {@link #fill}: the values with schema defaults applied,
   * provided every required field then has a value.
   *
   * @throws UsageException naming the form and the fields without a value, such as {@code form
   *     'people' field '/directors/0/email' has no value: pass --answers FILE or --autofill}
   */
  public static JsonNode requireComplete(String formId, JsonNode schema, JsonNode values) {
    JsonNode completed = Autofill.applyDefaults(schema, values);
    List<String> missing = new ArrayList<>();
    for (Autofill.MissingField field : Autofill.missing(schema, completed)) {
      if (field.required()) {
        missing.add("'" + field.pointer() + "'");
      }
    }
    if (missing.isEmpty()) {
      return completed;
    }
    String fields;
    if (missing.size() == 1) {
      fields = "field " + missing.get(0) + " has no value";
    } else {
      List<String> listed = missing.subList(0, Math.min(MAX_LISTED, missing.size()));
      String more =
          missing.size() > MAX_LISTED ? " and " + (missing.size() - MAX_LISTED) + " more" : "";
      fields = "fields " + String.join(", ", listed) + more + " have no value";
    }
    throw new UsageException(
        "form '" + formId + "' " + fields + ": pass --answers FILE or --autofill",
        CommandLine.Command.QUICKSTART);
  }

  /** Where a field sits: its JSON Pointer and the readable path shown to the user. */
  private record Field(String pointer, String label) {
    static final Field ROOT = new Field("", null);

    Field property(String name, ObjectNode schema) {
      String title = schema == null ? null : SchemaView.text(schema, "title");
      String own = title != null ? title : SchemaView.humanize(name);
      return new Field(
          SchemaView.pointer(pointer, name), label == null ? own : label + " / " + own);
    }

    Field item(int index) {
      String own = "#" + (index + 1);
      return new Field(SchemaView.pointer(pointer, index), label == null ? own : label + " " + own);
    }

    String shown() {
      return label == null ? "Value" : label;
    }
  }

  private record Target(JsonNode schema, Field field, boolean required) {}

  /** One form's questions: the schema to read and whether the heading was printed yet. */
  private final class Session {
    private final String formId;
    private final SchemaView view;
    private final boolean revise;
    private boolean headed;

    Session(String formId, JsonNode schema, boolean revise) {
      this.formId = formId;
      this.view = new SchemaView(schema);
      this.revise = revise;
    }

    // Printed lazily in fill mode so that a form with nothing missing stays silent.
    void heading() {
      if (headed) {
        return;
      }
      headed = true;
      ObjectNode root = view.flatten(view.root());
      String title = root == null ? null : SchemaView.text(root, "title");
      String name = "Form '" + formId + "'" + (title == null ? "" : " (" + title + ")");
      if (revise) {
        out.println(name + ": the service did not accept some values.");
      } else {
        out.println(name + " needs some values.");
        String description = root == null ? null : SchemaView.text(root, "description");
        if (description != null) {
          out.println(description);
        }
      }
    }

    /**
     * The value for one field: asked for when not given (or, when revising, always, with the
     * current value as default); null when the user leaves an optional field out.
     */
    JsonNode ask(
        JsonNode schema, JsonNode current, Field field, boolean required, List<String> messages) {
      ObjectNode s = view.flatten(schema);
      if (s == null) {
        return current;
      }
      boolean given = !SchemaView.absent(current);
      boolean choices = !SchemaView.choices(s).isEmpty();
      if (!choices && SchemaView.isObject(s) && !SchemaView.properties(s).isEmpty()) {
        return askObject(s, given ? current : null, field, required, messages);
      }
      if (!choices && SchemaView.isArray(s)) {
        return askArray(s, given ? current : null, field, required, messages);
      }
      if (given && !revise) {
        return current;
      }
      if (s.has("const")) {
        // One possible value: asking would only invite a wrong answer.
        heading();
        out.println();
        out.println(
            field.shown() + ": " + SchemaView.display(s.get("const")) + " (set by the form)");
        return s.get("const").deepCopy();
      }
      if ("null".equals(SchemaView.type(s))) {
        return NullNode.getInstance();
      }
      return askLeaf(s, given ? current : null, field, required, messages);
    }

    private JsonNode askObject(
        ObjectNode s, JsonNode current, Field field, boolean required, List<String> messages) {
      if (current == null && !required) {
        header(s, field, false, messages);
        if (!confirm()) {
          return null;
        }
      } else if (!messages.isEmpty()) {
        header(s, field, required, messages);
      }
      ObjectNode values =
          current != null && current.isObject() ? current.deepCopy() : JSON.objectNode();
      Set<String> requiredNames = SchemaView.required(s);
      for (Map.Entry<String, JsonNode> property : SchemaView.properties(s).entrySet()) {
        String name = property.getKey();
        JsonNode answer =
            ask(
                property.getValue(),
                values.get(name),
                field.property(name, view.flatten(property.getValue())),
                requiredNames.contains(name),
                List.of());
        if (answer == null) {
          values.remove(name);
        } else {
          values.set(name, answer);
        }
      }
      return values;
    }

    private JsonNode askArray(
        ObjectNode s, JsonNode current, Field field, boolean required, List<String> messages) {
      int minItems = Math.max(0, SchemaView.intKeyword(s, "minItems", 0));
      int maxItems =
          SchemaView.hasInt(s, "maxItems")
              ? SchemaView.intKeyword(s, "maxItems", Integer.MAX_VALUE)
              : Integer.MAX_VALUE;
      JsonNode existing = current != null && current.isArray() ? current : null;
      int count;
      if (existing != null && !revise) {
        count = Math.max(existing.size(), minItems);
      } else {
        header(s, field, required, messages);
        int suggested = existing != null ? existing.size() : minItems;
        count = askCount(minItems, maxItems, Math.min(maxItems, Math.max(minItems, suggested)));
        if (count == 0 && existing == null && !required) {
          return null;
        }
      }
      ArrayNode items = JSON.arrayNode();
      for (int i = 0; i < count; i++) {
        JsonNode item = existing != null && i < existing.size() ? existing.get(i) : null;
        JsonNode answer = ask(SchemaView.items(s, i), item, field.item(i), true, List.of());
        items.add(answer == null ? NullNode.getInstance() : answer);
      }
      return items;
    }

    private int askCount(int minItems, int maxItems, int suggested) {
      String range =
          maxItems == Integer.MAX_VALUE
              ? "at least " + minItems
              : minItems == maxItems ? "exactly " + minItems : minItems + " to " + maxItems;
      out.println("  How many? (" + range + ")");
      while (true) {
        String text = readLine("[" + suggested + "] > ");
        if (text.isEmpty()) {
          return suggested;
        }
        try {
          int count = Integer.parseInt(text);
          if (count >= minItems && count <= maxItems) {
            return count;
          }
        } catch (NumberFormatException e) {
          // Falls through to the same message as a number out of range.
        }
        out.println("  ! enter a whole number, " + range);
      }
    }

    private JsonNode askLeaf(
        ObjectNode s, JsonNode current, Field field, boolean required, List<String> messages) {
      List<SchemaView.Choice> choices = SchemaView.choices(s);
      JsonNode suggested = current != null ? current : s.get("default");
      header(s, field, required, messages);
      for (int i = 0; i < choices.size(); i++) {
        out.println("  " + (i + 1) + ") " + choices.get(i).label());
      }
      String hint = ValueCheck.hint(s);
      if (hint != null) {
        out.println("  (" + hint + ")");
      }
      String prompt =
          suggested != null
              ? "[" + shown(suggested, choices) + "] > "
              : required ? "> " : "[Enter to skip] > ";
      while (true) {
        String text = readLine(prompt);
        if (text.isEmpty()) {
          if (suggested != null) {
            return suggested.deepCopy();
          }
          if (!required) {
            return null;
          }
          if (SchemaView.nullable(s)) {
            return NullNode.getInstance();
          }
          out.println("  ! a value is required");
          continue;
        }
        ValueCheck.Parsed parsed = ValueCheck.parse(s, text);
        if (parsed.problem() == null) {
          return parsed.value();
        }
        out.println("  ! " + parsed.problem());
      }
    }

    private void header(ObjectNode s, Field field, boolean required, List<String> messages) {
      heading();
      out.println();
      String where = revise ? " (" + field.pointer() + ")" : "";
      out.println(field.shown() + (required ? "" : " (optional)") + where);
      String description = SchemaView.text(s, "description");
      if (description != null) {
        out.println("  " + description);
      }
      for (String message : messages) {
        out.println("  ! " + message);
      }
    }

    private boolean confirm() {
      while (true) {
        String text = readLine("Add it? [y/N] > ");
        switch (text.toLowerCase(Locale.ROOT)) {
          case "", "n", "no" -> {
            return false;
          }
          case "y", "yes" -> {
            return true;
          }
          default -> out.println("  ! answer y or n");
        }
      }
    }

    private String readLine(String prompt) {
      out.print("  " + prompt);
      out.flush();
      String line;
      try {
        line = in.readLine();
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      if (line == null) {
        throw new UsageException(
            "input ended while asking for form '" + formId + "'; pass --answers FILE or --autofill",
            CommandLine.Command.QUICKSTART);
      }
      return line.strip();
    }

    /** The schema, readable path and requiredness of the field a pointer names, or null. */
    Target resolve(String pointer) {
      JsonNode schema = view.root();
      Field field = Field.ROOT;
      boolean required = true;
      for (String token : SchemaView.tokens(pointer)) {
        ObjectNode s = view.flatten(schema);
        if (s == null) {
          return null;
        }
        if (SchemaView.isArray(s)) {
          int index;
          try {
            index = Integer.parseInt(token);
          } catch (NumberFormatException e) {
            return null;
          }
          if (index < 0) {
            return null;
          }
          schema = SchemaView.items(s, index);
          field = field.item(index);
          required = true;
        } else {
          JsonNode property = SchemaView.properties(s).get(token);
          if (property == null) {
            return null;
          }
          schema = property;
          field = field.property(token, view.flatten(property));
          required = SchemaView.required(s).contains(token);
        }
      }
      return new Target(schema, field, required);
    }
  }

  private static String shown(JsonNode value, List<SchemaView.Choice> choices) {
    for (SchemaView.Choice choice : choices) {
      if (choice.value().equals(value)) {
        return choice.label();
      }
    }
    return SchemaView.display(value);
  }

  private static JsonNode at(JsonNode root, String pointer) {
    JsonNode node = root;
    for (String token : SchemaView.tokens(pointer)) {
      if (node == null) {
        return null;
      }
      if (node.isArray()) {
        try {
          node = node.get(Integer.parseInt(token));
        } catch (NumberFormatException e) {
          return null;
        }
      } else {
        node = node.get(token);
      }
    }
    return node;
  }

  /** Sets (or, for null, removes) the value at the pointer, creating containers on the way. */
  private static JsonNode put(JsonNode root, List<String> tokens, JsonNode value) {
    if (tokens.isEmpty()) {
      return value == null ? JSON.objectNode() : value;
    }
    JsonNode container = root.isContainerNode() ? root : JSON.objectNode();
    JsonNode node = container;
    for (int i = 0; i < tokens.size(); i++) {
      String token = tokens.get(i);
      boolean last = i == tokens.size() - 1;
      JsonNode child = last ? value : childOf(node, token);
      if (!last && (child == null || !child.isContainerNode())) {
        child = isIndex(tokens.get(i + 1)) ? JSON.arrayNode() : JSON.objectNode();
      }
      if (node.isArray() && !isIndex(token)) {
        // The values disagree with the schema here; leave them for the service to reject again.
        return container;
      }
      if (node.isArray()) {
        ArrayNode array = (ArrayNode) node;
        int index = Integer.parseInt(token);
        while (array.size() <= index) {
          array.addNull();
        }
        array.set(index, child == null ? NullNode.getInstance() : child);
      } else if (child == null) {
        ((ObjectNode) node).remove(token);
      } else {
        ((ObjectNode) node).set(token, child);
      }
      node = child;
    }
    return container;
  }

  private static JsonNode childOf(JsonNode node, String token) {
    if (node.isArray()) {
      return isIndex(token) ? node.get(Integer.parseInt(token)) : null;
    }
    return node.get(token);
  }

  private static boolean isIndex(String token) {
    return !token.isEmpty() && token.chars().allMatch(Character::isDigit) && token.length() < 10;
  }
}
