package io.formation.examples;

import java.io.PrintStream;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/**
 * What {@code --debug} adds on standard error: the SDK's own debug log, one {@code # }-prefixed
 * line per attempt (method, url without its query, status, time, attempt n of N, request id), per
 * state a wait sees and per wait's end. The SDK logs through {@code System.Logger}, which, with no
 * other logging library in this program, is java.util.logging: this turns the SDK's logger on at
 * debug ({@code FINE}) for the run, into the program's standard error. The SDK keeps the token and
 * anything shaped like one out of its lines.
 */
final class DebugLog implements AutoCloseable {
  // Held for the run: java.util.logging keeps loggers only while someone refers to them.
  private final Logger logger = Logger.getLogger("io.formation.sdk");
  private final Level level = logger.getLevel();
  private final boolean parents = logger.getUseParentHandlers();
  private final Handler handler;

  DebugLog(PrintStream err) {
    handler =
        new Handler() {
          @Override
          public void publish(LogRecord record) {
            if (isLoggable(record)) {
              err.println("# " + record.getMessage());
            }
          }

          @Override
          public void flush() {
            err.flush();
          }

          @Override
          public void close() {}
        };
    handler.setLevel(Level.FINE);
    logger.addHandler(handler);
    logger.setLevel(Level.FINE);
    logger.setUseParentHandlers(false); // or warnings would also reach the console handler
  }

  @Override
  public void close() {
    logger.removeHandler(handler);
    logger.setLevel(level);
    logger.setUseParentHandlers(parents);
  }
}
