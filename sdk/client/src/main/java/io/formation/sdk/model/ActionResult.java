package io.formation.sdk.model;

import com.fasterxml.jackson.databind.JsonNode;
import io.formation.sdk.internal.guards.Checks;
import java.util.Optional;

/**
 * What an action call returned. The interface does not fix the response, so the raw body is always
 * kept, and when it is a form or a document set, the parsed record is there too.
 *
 * @param statusCode the HTTP status (2xx)
 * @param body the body as sent; a missing node if the body was empty; a copy is returned
 * @param form the form, if the body was one
 * @param documentSet the document set, if the body was one
 */
public record ActionResult(
    int statusCode, JsonNode body, Optional<Form> form, Optional<DocumentSet> documentSet) {
  /**
   * Checks that no component is null.
   *
   * @param statusCode the HTTP status (2xx)
   * @param body the body as sent; a missing node if the body was empty; a copy is returned
   * @param form the form, if the body was one
   * @param documentSet the document set, if the body was one
   */
  public ActionResult {
    Checks.nonNull("body form documentSet", body, form, documentSet);
  }

  /** {@return the body as sent; a missing node if the body was empty; a copy} */
  @Override
  public JsonNode body() {
    return body.deepCopy();
  }
}
