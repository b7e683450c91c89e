package io.formation.examples;

import com.fasterxml.jackson.databind.JsonNode;
import io.formation.sdk.ValidationException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The service rejected a form's values (422) and nobody is there to correct them: the program exits
 * with 1 after printing which form was rejected and each error next to its field and value.
 */
final class FormRejected extends RuntimeException {
  private static final long serialVersionUID = 1L;
  private static final int MAX_VALUE_LENGTH = 60;

  private final transient List<String> fieldLines;

  FormRejected(String formId, JsonNode values, ValidationException cause) {
    // The SDK's message would show the action url, opaque and long; the fields follow instead.
    super(
        "form '"
            + formId
            + "' was rejected: the service returned "
            + cause.statusCode()
            + " for "
            + count(cause.messagesByPointer().size()),
        cause);
    this.fieldLines = fieldLines(values, cause.messagesByPointer());
  }

  /** One line per rejected field, such as {@code /directors/0/email = "ada": must be ...}. */
  List<String> fieldLines() {
    return fieldLines;
  }

  static List<String> fieldLines(JsonNode values, Map<String, String> messagesByPointer) {
    List<String> lines = new ArrayList<>();
    messagesByPointer.forEach(
        (pointer, message) -> {
          if (pointer.isEmpty()) {
            lines.add("  (the form): " + message);
            return;
          }
          JsonNode value = valueAt(values, pointer);
          String shown = value == null ? "" : " = " + shorten(value.toString());
          lines.add("  " + pointer + shown + ": " + message);
        });
    return List.copyOf(lines);
  }

  private static String count(int errors) {
    return errors == 1 ? "1 value" : errors + " values";
  }

  private static JsonNode valueAt(JsonNode values, String pointer) {
    try {
      JsonNode value = values.at(pointer);
      return value.isMissingNode() ? null : value;
    } catch (IllegalArgumentException e) {
      // Not a JSON Pointer: show the message without a value.
      return null;
    }
  }

  private static String shorten(String json) {
    return json.length() <= MAX_VALUE_LENGTH ? json : json.substring(0, MAX_VALUE_LENGTH) + "...";
  }
}
