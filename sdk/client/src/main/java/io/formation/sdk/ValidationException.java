package io.formation.sdk;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * 422 Unprocessable Entity: the service rejected the submitted values. Each {@link ApiError}
 * carries the JSON Pointer of the field it is about, so a UI can show each message next to its
 * field:
 *
 * <pre>{@code
 * try {
 *   client.forms().submit(form, values);
 * } catch (ValidationException e) {
 *   e.messagesByPointer().forEach((pointer, message) -> ui.showError(pointer, message));
 * }
 * }</pre>
 */
public class ValidationException extends ApiException {
  private static final long serialVersionUID = 1L;

  ValidationException(ApiException.Answer answer) {
    super(answer);
  }

  /**
   * {@return the error messages keyed by JSON Pointer ({@code ""} for errors about the whole
   * document), in the order the service sent them; several messages for one field are joined with
   * "; "}
   */
  public Map<String, String> messagesByPointer() {
    Map<String, String> messages = new LinkedHashMap<>();
    for (ApiError error : errors()) {
      messages.merge(error.pointer().orElse(""), error.message(), (a, b) -> a + "; " + b);
    }
    return messages;
  }
}
