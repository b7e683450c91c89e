package io.formation.sdk.internal.guards;

import java.io.PrintStream;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/** The SDK's log, {@code System.Logger} {@value #NAME}, with the FORMATION_LOG switch. */
public record Log(Logger logger, Level switched, PrintStream fallback) {
  public static final String NAME = "io.formation.sdk";

  /** The most of a body a trace line shows, in characters. */
  static final int BODY_CHARS = 4096;

  public static Log fromEnvironment() {
    String setting = System.getProperty("formation.log", System.getenv("FORMATION_LOG"));
    return new Log(System.getLogger(NAME), level(setting), System.err);
  }

  /** The level a switch value names ({@code debug}, {@code trace}, {@code info}...), or null. */
  static Level level(String setting) {
    try {
      return setting == null ? null : Level.valueOf(setting.strip().toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException unknown) {
      return null;
    }
  }

  public boolean on(Level level) {
    return logger.isLoggable(level)
        || switched != null && switched.getSeverity() <= level.getSeverity();
  }

  /** Logs a line redacted, then escaped, so service text forges no line. */
  public void log(Level level, String line, String token) {
    String safe = escape(Redaction.redact(line, token));
    if (logger.isLoggable(level)) {
      logger.log(level, safe);
    } else if (switched != null && switched.getSeverity() <= level.getSeverity()) {
      fallback.println("[formation " + level.getName().toLowerCase(Locale.ROOT) + "] " + safe);
    }
  }

  /** The text with its control characters escaped: one line stays one. */
  static String escape(String text) {
    StringBuilder out = null;
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (!Character.isISOControl(c) && c != '\u2028' && c != '\u2029') {
        if (out != null) {
          out.append(c);
        }
        continue;
      }
      if (out == null) {
        out = new StringBuilder(text.length() + 16).append(text, 0, i);
      }
      out.append(
          switch (c) {
            case '\n' -> "\\n";
            case '\r' -> "\\r";
            case '\t' -> "\\t";
            default -> String.format(Locale.ROOT, "\\u%04x", (int) c);
          });
    }
    return out == null ? text : out.toString();
  }

  /** A body as a trace line shows it: redacted, escaped, then cut. */
  public static String shown(byte[] body, String token) {
    String text;
    try {
      // A new decoder reports malformed input rather than replace it.
      text = StandardCharsets.UTF_8.newDecoder().decode(ByteBuffer.wrap(body)).toString();
    } catch (CharacterCodingException notText) {
      text = null;
    }
    if (text == null
        || text.chars().anyMatch(c -> Character.isISOControl(c) && !Character.isWhitespace(c))) {
      return "(binary body of " + body.length + " bytes left out)";
    }
    String safe = escape(Redaction.redact(text, token));
    if (safe.length() <= BODY_CHARS) {
      return safe;
    }
    int end = Character.isHighSurrogate(safe.charAt(BODY_CHARS - 1)) ? BODY_CHARS - 1 : BODY_CHARS;
    return safe.substring(0, end) + "...(" + body.length + " bytes in all)";
  }
}
