package io.formation.sdk.model;

import com.fasterxml.jackson.databind.JsonNode;
import io.formation.sdk.internal.Port;
import io.formation.sdk.internal.guards.Checks;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * A form of a document set: what to ask (JSON Schema), how to lay it out (JSON Forms UI schema),
 * the current values, and the actions that accept new values. Keep them together: submit a form's
 * values through that form's own actions.
 *
 * <pre>{@code
 * for (Form form : client.forms().list(documentSetId)) {
 *   JsonNode values = ui.render(form.schema(), form.uiSchema(), form.values());
 *   client.forms().submit(form, values);
 * }
 * }</pre>
 *
 * @param id the form's identifier
 * @param schema the JSON Schema of the values; a missing node if the service sent none
 * @param uiSchema the JSON Forms UI schema; a missing node if the service sent none
 * @param values the current values; an empty object if the service sent none
 * @param actions the available actions
 * @param raw the form as sent, with every field the SDK does not model
 */
public record Form(
    String id,
    JsonNode schema,
    JsonNode uiSchema,
    JsonNode values,
    List<FormAction> actions,
    JsonNode raw) {
  /**
   * Checks that no component is null and copies the actions.
   *
   * @param id the form's identifier
   * @param schema the JSON Schema of the values; a missing node if the service sent none
   * @param uiSchema the JSON Forms UI schema; a missing node if the service sent none
   * @param values the current values; an empty object if the service sent none
   * @param actions the available actions
   * @param raw the form as sent, with every field the SDK does not model
   */
  public Form {
    Checks.nonNull("id schema uiSchema values raw", id, schema, uiSchema, values, raw);
    actions = List.copyOf(actions);
  }

  /** {@return the JSON Schema; a copy, so changing it does not change the form} */
  @Override
  public JsonNode schema() {
    return schema.deepCopy();
  }

  /** {@return the UI schema; a copy} */
  @Override
  public JsonNode uiSchema() {
    return uiSchema.deepCopy();
  }

  /** {@return the current values; a copy, ready to be edited and submitted} */
  @Override
  public JsonNode values() {
    return values.deepCopy();
  }

  /** {@return the form as sent; a copy} */
  @Override
  public JsonNode raw() {
    return raw.deepCopy();
  }

  /**
   * {@return the action with this name (case-insensitive), if any}
   *
   * @param name the action's name
   */
  public Optional<FormAction> action(String name) {
    return actions.stream()
        .filter(action -> action.name().filter(name::equalsIgnoreCase).isPresent())
        .findFirst();
  }

  /**
   * The action that submits the values: the only action, else the one named {@code submit}.
   *
   * @return the action that submits the values
   * @throws IllegalStateException if there is no action, or several and none named submit
   */
  public FormAction submitAction() {
    if (actions.size() == 1) {
      return actions.get(0);
    }
    return action("submit").orElseThrow(() -> Port.illegalState(noSubmitAction()));
  }

  private String noSubmitAction() {
    String prefix = "Form " + id + " has ";
    String choose = "; choose one of form.actions() and call invoke";
    if (actions.isEmpty()) {
      return prefix + "no actions" + choose;
    }
    List<String> names =
        actions.stream()
            .map(a -> a.name().orElse(a.method().toLowerCase(Locale.ROOT) + " " + a.url()))
            .toList();
    return prefix + actions.size() + " actions and none named 'submit'" + choose + " " + names;
  }
}
