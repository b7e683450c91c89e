package io.formation.tracking;

import io.formation.sdk.WaitState;

/**
 * A tracked set's row data: its saved wait, and whether the handler was already told that the set
 * needs input. Written as the wait's own string, with {@code i:} in front in the second case (a
 * wait's string never holds a colon).
 */
record TaskData(WaitState waitState, boolean inputNeededTold) {
  private static final String INPUT_NEEDED_TOLD = "i:";

  /** Reads a row's data; {@link IllegalArgumentException} saying why for one it cannot read. */
  static TaskData decode(String text) {
    if (text == null) {
      throw new IllegalArgumentException("the row holds no saved wait");
    }
    if (text.startsWith(INPUT_NEEDED_TOLD)) {
      return new TaskData(WaitState.decode(text.substring(INPUT_NEEDED_TOLD.length())), true);
    }
    return new TaskData(WaitState.decode(text), false);
  }

  String encode() {
    return inputNeededTold ? INPUT_NEEDED_TOLD + waitState.encode() : waitState.encode();
  }
}
