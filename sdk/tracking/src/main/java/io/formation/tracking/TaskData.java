package io.formation.tracking;

import io.formation.sdk.WaitState;

/**
 * A tracked set's row data: its saved wait's own string. Rows written by earlier versions may carry
 * {@code i:} in front (the handler was told the set needs input); the wait now keeps that itself,
 * so the prefix is dropped, and at most one {@code inputNeeded} is told again after an upgrade.
 */
final class TaskData {
  private static final String LEGACY_INPUT_NEEDED_TOLD = "i:";

  private TaskData() {}

  /** Reads a row's data; {@link IllegalArgumentException} saying why for one it cannot read. */
  static WaitState decode(String text) {
    if (text == null) {
      throw new IllegalArgumentException("the row holds no saved wait");
    }
    return WaitState.decode(
        text.startsWith(LEGACY_INPUT_NEEDED_TOLD)
            ? text.substring(LEGACY_INPUT_NEEDED_TOLD.length())
            : text);
  }
}
