package io.formation.examples;

import com.fasterxml.jackson.databind.JsonNode;
import io.formation.sdk.ValidationException;
import java.util.ArrayList;
import java.util.List;

/**
 * The service rejected a form's values (422) and nobody is at a terminal to correct them: the
 * program exits with 1 after one line naming the form and one line per rejected field, such as
 * {@code /directors/0/email = "ada": must be a valid email address}.
 */
final class FormRejected extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final transient List<String> fieldLines = new ArrayList<>();

  FormRejected(String formId, JsonNode values, ValidationException cause) {
    // The SDK's message would show the action url, opaque and long; the fields follow instead.
    super(
        "form '"
            + formId
            + "' was rejected: the service returned "
            + cause.statusCode()
            + " for "
            + cause.messagesByPointer().size()
            + (cause.messagesByPointer().size() == 1 ? " value" : " values"),
        cause);
    cause
        .messagesByPointer()
        .forEach(
            (pointer, message) ->
                fieldLines.add(
                    "  "
                        + (pointer.isEmpty() ? "(the form)" : pointer + shown(values, pointer))
                        + ": "
                        + message));
  }

  List<String> fieldLines() {
    return fieldLines;
  }

  private static String shown(JsonNode values, String pointer) {
    try {
      JsonNode value = values.at(pointer);
      return value.isMissingNode() ? "" : " = " + value;
    } catch (IllegalArgumentException e) {
      return ""; // Not a JSON Pointer: the message alone.
    }
  }
}
