package io.formation.examples.web;

import com.fasterxml.jackson.databind.JsonNode;
import io.formation.sdk.model.Form;

/**
 * A form as the page gets it: what JSON Forms needs, named as JSON Forms names it. Never its
 * actions: the browser names a form by id and the backend calls that form's own action.
 *
 * @param id the form's id
 * @param schema its JSON Schema, as the service sent it
 * @param uischema its JSON Forms UI schema, as the service sent it
 * @param data its current values, as the service sent them
 */
record FormView(String id, JsonNode schema, JsonNode uischema, JsonNode data) {

  static FormView of(Form form) {
    return new FormView(form.id(), form.schema(), form.uiSchema(), form.values());
  }
}
