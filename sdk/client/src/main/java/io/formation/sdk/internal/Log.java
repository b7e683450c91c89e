package io.formation.sdk.internal;

import java.io.PrintStream;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * The SDK's log: {@code System.Logger} {@value #NAME}, which SLF4J, Log4j and java.util.logging
 * pick up through their bridges. The switch partners expect, {@code FORMATION_LOG=debug} (or {@code
 * -Dformation.log=debug}, or {@code trace}), turns the lines on without any logging configuration:
 * those the logger would drop then go to standard error. Lines carry no token: the call's own is
 * replaced, and so is anything shaped like one.
 */
public final class Log {
  public static final String NAME = "io.formation.sdk";

  /** The most of a body a trace line shows. */
  static final int BODY_CHARS = 4096;

  private static final Pattern TOKEN_LIKE =
      Pattern.compile(
          "(?i)(bearer\\s+)[^\\s\"',;]+|eyJ[A-Za-z0-9_-]{6,}\\.[A-Za-z0-9_-]{6,}\\.[A-Za-z0-9_-]*");

  /** A URL's or path's query, which for an action url is its signature. */
  private static final Pattern QUERY =
      Pattern.compile("((?:https?://|/)[^\\s\"'?<>]*)\\?[^\\s\"'<>]*");

  private final Logger logger;
  private final Level switched;
  private final PrintStream fallback;

  /**
   * @param switched the level the switch asks for, or null
   * @param fallback where lines go that the switch turned on and the logger would drop
   */
  Log(Logger logger, Level switched, PrintStream fallback) {
    this.logger = logger;
    this.switched = switched;
    this.fallback = fallback;
  }

  /** The log as the environment configures it. */
  public static Log fromEnvironment() {
    String setting = System.getProperty("formation.log", System.getenv("FORMATION_LOG"));
    return new Log(System.getLogger(NAME), level(setting), System.err);
  }

  /** The level a switch value names ({@code debug}, {@code trace}, {@code info}...), or null. */
  static Level level(String setting) {
    if (setting == null || setting.isBlank()) {
      return null;
    }
    String name = setting.strip().toUpperCase(Locale.ROOT);
    for (Level level : Level.values()) {
      if (level.getName().equals(name)) {
        return level;
      }
    }
    return null;
  }

  boolean on(Level level) {
    return logger.isLoggable(level)
        || switched != null && switched.getSeverity() <= level.getSeverity();
  }

  /** Logs a line, redacted of the token and of anything shaped like one. */
  void log(Level level, String line, String token) {
    String safe = redact(line, token);
    if (logger.isLoggable(level)) {
      logger.log(level, safe);
    } else if (switched != null && switched.getSeverity() <= level.getSeverity()) {
      fallback.println("[formation " + level.getName().toLowerCase(Locale.ROOT) + "] " + safe);
    }
  }

  static String redact(String text, String token) {
    String safe = token == null || token.isEmpty() ? text : text.replace(token, "<redacted>");
    safe =
        TOKEN_LIKE
            .matcher(safe)
            .replaceAll(m -> m.group(1) != null ? "$1<redacted>" : "<redacted>");
    return QUERY.matcher(safe).replaceAll("$1?<redacted>");
  }
}
