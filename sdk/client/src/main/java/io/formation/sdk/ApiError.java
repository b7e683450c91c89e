package io.formation.sdk;

import com.fasterxml.jackson.databind.JsonNode;
import io.formation.sdk.internal.guards.Checks;
import java.util.Optional;

/**
 * One entry of a JSON:API {@code errors} document, as sent by the service.
 *
 * @param status the HTTP status the error object carries, if any
 * @param code an application-specific error code, if any
 * @param title a short summary, if any
 * @param detail an explanation of this occurrence, if any
 * @param pointer the JSON Pointer ({@code source.pointer}) of the value the error is about, if any
 * @param parameter the query parameter ({@code source.parameter}) the error is about, if any
 * @param raw the error object as sent; a copy is returned
 */
public record ApiError(
    Optional<String> status,
    Optional<String> code,
    Optional<String> title,
    Optional<String> detail,
    Optional<String> pointer,
    Optional<String> parameter,
    JsonNode raw) {

  /**
   * Checks that no component is null.
   *
   * @param status the HTTP status the error object carries, if any
   * @param code an application-specific error code, if any
   * @param title a short summary, if any
   * @param detail an explanation of this occurrence, if any
   * @param pointer the JSON Pointer of the value the error is about, if any
   * @param parameter the query parameter ({@code source.parameter}) the error is about, if any
   * @param raw the error object as sent; a copy is returned
   */
  public ApiError {
    Checks.nonNull(
        "status code title detail pointer parameter raw",
        status,
        code,
        title,
        detail,
        pointer,
        parameter,
        raw);
  }

  /** {@return the error object as sent, including members the SDK does not model} */
  @Override
  public JsonNode raw() {
    return raw.deepCopy();
  }

  /** {@return the most useful human-readable text: the detail, else the title, else the code} */
  public String message() {
    return detail.or(() -> title).or(() -> code).orElse("(no detail)");
  }
}
