package io.formation.sdk.model;

import com.fasterxml.jackson.databind.JsonNode;
import io.formation.sdk.internal.Port;
import io.formation.sdk.internal.guards.Checks;
import java.util.Optional;

/**
 * An action of a form: where and how to send the form's values. The url is opaque and used exactly
 * as the service returned it; never build one yourself.
 *
 * @param method the HTTP method, upper case (e.g. {@code PUT}); an RFC 9110 token
 * @param url the url exactly as returned (absolute, or relative to the base URL)
 * @param name the action's name, if the service gave one
 * @param label the action's human-readable label, if the service gave one
 * @param raw the action object as sent; a copy is returned
 */
public record FormAction(
    String method, String url, Optional<String> name, Optional<String> label, JsonNode raw) {
  /**
   * Checks that no component is null or blank.
   *
   * @param method the HTTP method, upper case (e.g. {@code PUT}); an RFC 9110 token
   * @param url the url exactly as returned (absolute, or relative to the base URL)
   * @param name the action's name, if the service gave one
   * @param label the action's human-readable label, if the service gave one
   * @param raw the action object as sent; a copy is returned
   */
  public FormAction {
    Checks.nonNull("method url name label raw", method, url, name, label, raw);
    if (url.isBlank()) {
      throw Port.invalid("An action needs a url");
    }
    if (!Checks.isToken(method)) {
      // It would go into the request line as is, where anything but a token rewrites the request.
      throw Port.invalid("An action's method must be an HTTP method token");
    }
  }

  /** {@return the action object as sent; a copy} */
  @Override
  public JsonNode raw() {
    return raw.deepCopy();
  }
}
