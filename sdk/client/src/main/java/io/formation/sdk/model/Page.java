package io.formation.sdk.model;

import java.util.List;
import java.util.Objects;

/**
 * One page of a paginated collection.
 *
 * <pre>{@code
 * for (Page<Team> page : client.teams().list().pages()) {
 *   save(page.items());
 *   checkpoint(page.links().next());
 * }
 * }</pre>
 *
 * @param items the items of this page
 * @param links the page's links, as sent
 * @param <T> the item type
 */
public record Page<T>(List<T> items, PageLinks links) {
  /**
   * Copies the items and checks that no component is null.
   *
   * @param items the items of this page
   * @param links the page's links, as sent
   */
  public Page {
    items = List.copyOf(items);
    Objects.requireNonNull(links, "links");
  }

  /** {@return whether the service announced a further page} */
  public boolean hasNext() {
    return links.next().isPresent();
  }
}
