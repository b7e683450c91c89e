package io.formation.spring.autoconfigure;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.formation.sdk.model.ActionResult;
import io.formation.sdk.model.DocumentSet;
import io.formation.sdk.model.DocumentSetState;
import io.formation.sdk.model.Form;
import io.formation.sdk.model.FormAction;
import io.formation.sdk.model.Page;
import io.formation.sdk.model.PageLinks;
import io.formation.sdk.model.Team;
import java.util.List;
import java.util.Optional;

/**
 * The one rule for what JSON an SDK model is written as, for both Jackson generations: the JSON the
 * service sent. A form, document set, team or action is its resource as sent (every field, the ones
 * the SDK does not model too); a page is a JSON:API collection of its items and links; an action's
 * result is the body the service answered; a state is its value.
 */
final class ModelJson {
  static final List<Class<?>> TYPES =
      List.of(
          Form.class,
          DocumentSet.class,
          Team.class,
          FormAction.class,
          ActionResult.class,
          Page.class,
          PageLinks.class,
          DocumentSetState.class);

  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  private ModelJson() {}

  /**
   * The JSON of a model.
   *
   * @throws IllegalArgumentException if it is none of {@link #TYPES}
   */
  static JsonNode of(Object model) {
    if (model instanceof Form form) {
      return form.raw();
    }
    if (model instanceof DocumentSet set) {
      return set.raw();
    }
    if (model instanceof Team team) {
      return team.raw();
    }
    if (model instanceof FormAction action) {
      return action.raw();
    }
    if (model instanceof ActionResult result) {
      return result.body();
    }
    if (model instanceof DocumentSetState state) {
      return NODES.textNode(state.value());
    }
    if (model instanceof PageLinks links) {
      return links(links);
    }
    if (model instanceof Page<?> page) {
      if (!page.raw().isMissingNode()) {
        return page.raw();
      }
      ObjectNode collection = NODES.objectNode();
      ArrayNode data = collection.putArray("data");
      for (Object item : page.items()) {
        data.add(of(item));
      }
      collection.set("links", links(page.links()));
      return collection;
    }
    throw new IllegalArgumentException("Not a model of the Formation SDK: " + model.getClass());
  }

  private static ObjectNode links(PageLinks links) {
    ObjectNode node = NODES.objectNode();
    put(node, "self", links.self());
    put(node, "first", links.first());
    put(node, "prev", links.prev());
    put(node, "next", links.next());
    put(node, "last", links.last());
    return node;
  }

  private static void put(ObjectNode node, String name, Optional<String> link) {
    link.ifPresent(value -> node.put(name, value));
  }
}
