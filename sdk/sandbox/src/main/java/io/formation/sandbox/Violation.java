package io.formation.sandbox;

import java.util.Objects;

/**
 * One constraint of a form's JSON Schema that some values break, as {@link FormValidator} reports
 * it and as the sandbox answers it in a 422 error's {@code source.pointer}.
 *
 * <pre>{@code
 * for (Violation violation : FormValidator.validate(form.jsonSchema(), values)) {
 *   System.out.println(violation.pointer() + ": " + violation.message());
 *   // /directors/0/email: does not match the email pattern
 * }
 * }</pre>
 *
 * @param pointer the JSON Pointer (RFC 6901) of the offending field inside the values, such as
 *     {@code "/directors/0/email"}; for a missing required field, the pointer the field would have;
 *     {@code ""} for the values as a whole
 * @param message a readable description of what is wrong, without the pointer
 */
public record Violation(String pointer, String message) {

  /** Checks that both fields are present. */
  public Violation {
    Objects.requireNonNull(pointer, "pointer");
    Objects.requireNonNull(message, "message");
  }
}
