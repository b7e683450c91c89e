package io.formation.sdk.model;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import io.formation.sdk.internal.guards.Checks;
import java.util.List;

/**
 * One page of a paginated collection.
 *
 * @param items the items of this page
 * @param links the page's links, as sent
 * @param raw the page's document as sent ({@code data}, {@code links} with its nulls, {@code meta}
 *     and anything else); a copy is returned; missing for a page not read from the service
 * @param <T> the item type
 */
public record Page<T>(List<T> items, PageLinks links, JsonNode raw) {
  /**
   * Copies the items and checks that no component is null.
   *
   * @param items the items of this page
   * @param links the page's links, as sent
   * @param raw the page's document as sent
   */
  public Page {
    items = List.copyOf(items);
    Checks.nonNull("links raw", links, raw);
  }

  /**
   * A page not read from the service, so with no document as sent.
   *
   * @param items the items of this page
   * @param links the page's links
   */
  public Page(List<T> items, PageLinks links) {
    this(items, links, MissingNode.getInstance());
  }

  /** {@return the page's document as sent; a copy} */
  @Override
  public JsonNode raw() {
    return raw.deepCopy();
  }

  /** {@return whether the service announced a further page} */
  public boolean hasNext() {
    return links.next().isPresent();
  }
}
