package io.formation.sdk.internal.guards;

import java.io.PrintStream;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * The SDK's log: {@code System.Logger} {@value #NAME}, which SLF4J, Log4j and java.util.logging
 * pick up through their bridges. The switch partners expect, {@code FORMATION_LOG=debug} (or {@code
 * -Dformation.log=debug}, or {@code trace}), turns the lines on without any logging configuration:
 * those the logger would drop then go to standard error. Every line goes through {@link Redaction}
 * and has its control characters escaped.
 *
 * @param logger the logger lines go to when it takes them
 * @param switched the level the switch asks for, or null
 * @param fallback where lines go that the switch turned on and the logger would drop
 */
public record Log(Logger logger, Level switched, PrintStream fallback) {
  public static final String NAME = "io.formation.sdk";

  /** The most of a body a trace line shows, in characters. */
  static final int BODY_CHARS = 4096;

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

  public boolean on(Level level) {
    return logger.isLoggable(level)
        || switched != null && switched.getSeverity() <= level.getSeverity();
  }

  /**
   * Logs a line: redacted first, then with its control characters escaped, so text from the service
   * can neither show a secret nor forge a line of its own.
   */
  public void log(Level level, String line, String token) {
    String safe = escape(Redaction.redact(line, token));
    if (logger.isLoggable(level)) {
      logger.log(level, safe);
    } else if (switched != null && switched.getSeverity() <= level.getSeverity()) {
      fallback.println("[formation " + level.getName().toLowerCase(Locale.ROOT) + "] " + safe);
    }
  }

  /**
   * The text with every control character (and the Unicode line separators) written as an escape:
   * one line stays one line, and a terminal runs no escape sequence from the service.
   */
  static String escape(String text) {
    StringBuilder out = null;
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      boolean control = Character.isISOControl(c) || c == '\u2028' || c == '\u2029';
      if (control && out == null) {
        out = new StringBuilder(text.length() + 16).append(text, 0, i);
      }
      if (!control) {
        if (out != null) {
          out.append(c);
        }
      } else if (c == '\n') {
        out.append("\\n");
      } else if (c == '\r') {
        out.append("\\r");
      } else if (c == '\t') {
        out.append("\\t");
      } else {
        out.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
      }
    }
    return out == null ? text : out.toString();
  }

  /**
   * A body as a trace line shows it, in the order that keeps secrets out: redacted whole, escaped
   * (see {@link Log#log}), and only then cut, on a character boundary. A body that is not text is
   * left out, as OkHttp's logging interceptor leaves it out.
   */
  public static String shown(byte[] body, String token) {
    String text;
    try {
      text =
          StandardCharsets.UTF_8
              .newDecoder()
              .onMalformedInput(CodingErrorAction.REPORT)
              .onUnmappableCharacter(CodingErrorAction.REPORT)
              .decode(ByteBuffer.wrap(body))
              .toString();
    } catch (CharacterCodingException notText) {
      return "(binary body of " + body.length + " bytes left out)";
    }
    if (text.chars().anyMatch(c -> Character.isISOControl(c) && !Character.isWhitespace(c))) {
      return "(binary body of " + body.length + " bytes left out)";
    }
    String safe = escape(Redaction.redact(text, token));
    if (safe.length() <= BODY_CHARS) {
      return safe;
    }
    int end = BODY_CHARS;
    if (Character.isHighSurrogate(safe.charAt(end - 1))) {
      end--;
    }
    return safe.substring(0, end) + "...(" + body.length + " bytes in all)";
  }
}
