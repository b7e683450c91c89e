package io.formation.examples.web;

import java.time.Duration;

/**
 * A person asked for more than the backend allows one person: a 429 with {@code Retry-After}, its
 * message in plain words for the page to show as it is.
 */
final class TooMany extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final transient Duration retryAfter;

  private TooMany(String message, Duration retryAfter) {
    super(message, null, false, false);
    this.retryAfter = retryAfter;
  }

  static TooMany starts(int allowed, Duration per, Duration retryAfter) {
    return new TooMany(
        "You have started "
            + allowed
            + (allowed == 1 ? " formation" : " formations")
            + " in the past "
            + inWords(per)
            + ", the most one person can. You can start another in "
            + inWords(retryAfter)
            + ".",
        retryAfter);
  }

  static TooMany streams(int allowed, Duration retryAfter) {
    return new TooMany(
        "This browser already follows formations in "
            + allowed
            + (allowed == 1 ? " other tab or window" : " other tabs or windows")
            + ", the most at once. Close one, then choose Follow again.",
        retryAfter);
  }

  /** When asking again may succeed. */
  Duration retryAfter() {
    return retryAfter;
  }

  private static String inWords(Duration duration) {
    long minutes = (duration.toSeconds() + 59) / 60;
    if (minutes <= 1) {
      return "a minute";
    }
    return minutes < 120 ? minutes + " minutes" : (minutes + 59) / 60 + " hours";
  }
}
