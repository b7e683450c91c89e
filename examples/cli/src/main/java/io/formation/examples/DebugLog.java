package io.formation.examples;

import io.formation.sdk.AttemptEvent;
import io.formation.sdk.FormationListener;
import java.io.PrintStream;
import java.time.Duration;

/**
 * What {@code --debug} adds on standard error, heard through the SDK's {@link FormationListener}: a
 * {@code # http <METHOD> <url> -> <status> in <n> ms} line per attempt, and a line per retry. The
 * SDK leaves queries out of the url (a cursor, an action's signature), and never hands a listener
 * the token.
 */
final class DebugLog implements FormationListener {
  private final PrintStream err;

  DebugLog(PrintStream err) {
    this.err = err;
  }

  @Override
  public void attemptFinished(AttemptEvent attempt) {
    String exchange = "# http " + attempt.method() + " " + attempt.url();
    long millis = attempt.took().toMillis();
    if (attempt.failure().isPresent()) {
      err.println(exchange + " failed after " + millis + " ms: " + attempt.failure().get());
    } else {
      err.println(exchange + " -> " + attempt.statusCode() + " in " + millis + " ms");
    }
  }

  @Override
  public void retryScheduled(AttemptEvent attempt, Duration wait) {
    err.println(
        "# retry "
            + (attempt.attempt() + 1)
            + " of "
            + attempt.maxAttempts()
            + " in "
            + wait.toMillis()
            + " ms");
  }
}
