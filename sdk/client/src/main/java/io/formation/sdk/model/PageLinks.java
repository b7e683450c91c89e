package io.formation.sdk.model;

import io.formation.sdk.internal.guards.Checks;
import java.util.Optional;

/**
 * The JSON:API {@code links} of a page, exactly as the service sent them (paths or URLs with opaque
 * cursors).
 *
 * @param self this page
 * @param first the first page
 * @param prev the previous page
 * @param next the next page; empty on the last page
 * @param last the last page
 */
public record PageLinks(
    Optional<String> self,
    Optional<String> first,
    Optional<String> prev,
    Optional<String> next,
    Optional<String> last) {
  /**
   * Checks that no component is null.
   *
   * @param self this page
   * @param first the first page
   * @param prev the previous page
   * @param next the next page; empty on the last page
   * @param last the last page
   */
  public PageLinks {
    Checks.nonNull("self first prev next last", self, first, prev, next, last);
  }
}
