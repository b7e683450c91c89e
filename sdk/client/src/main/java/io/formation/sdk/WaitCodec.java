package io.formation.sdk;

import io.formation.sdk.internal.Port;
import io.formation.sdk.internal.guards.Origins;
import io.formation.sdk.internal.time.Time;
import io.formation.sdk.model.DocumentSetState;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;

/**
 * The string form of a {@link WaitState}: {@code w<format>.} then fields separated by dots. Format
 * 1 has ten, the flag {@code m} (moved on) last; format 2 adds the flag {@code i} (input needed
 * told) and how the last poll failed (its status, {@code n} network, {@code i} not a set, {@code x}
 * other; empty if it did not); format 3 adds the saved trace context and when a poll first read the
 * last state. A wait is written in the oldest format that holds it, so that an SDK that reads only
 * format 1 still reads most waits during a rolling deploy.
 */
final class WaitCodec {
  /** The latest format this version reads and writes. */
  static final int FORMAT = 3;

  /** The most a wait started by this version encodes to. */
  static final int LONGEST_ENCODED = 2048;

  /** Instants a wait holds: years -9999 to 9999, so that any difference of two fits a long. */
  static final long LATEST_MILLI = 253_402_300_799_999L;

  // Room for a wait saved with a longer id by an earlier build; a longer string is not a wait.
  private static final int LONGEST_DECODED = 4096;

  // The fields of each format, its version included; a later format adds its own at the end.
  private static final int[] FIELDS = {0, 11, 12, 14};

  private static final HexFormat UPPER_HEX = HexFormat.of().withUpperCase();

  private WaitCodec() {}

  /** The instant, as saved; refused out of range. */
  static long inRange(String name, long milli) {
    if (milli > LATEST_MILLI || milli < -LATEST_MILLI) {
      throw Port.invalid(
          "the " + name + " is out of range (years -9999 to 9999): " + milli + " ms");
    }
    return milli;
  }

  /** Rounded up, so that the least gap measured from a saved last poll is never short. */
  static long ceilMillis(Instant at) {
    long millis = at.toEpochMilli();
    return at.getNano() % 1_000_000 == 0 ? millis : millis + 1;
  }

  /** An interval as saved: whole milliseconds, at least one. */
  static long millis(Duration duration) {
    return Math.max(1, Time.capped(duration).toMillis());
  }

  static String encode(WaitState wait) {
    long started = wait.started;
    boolean v3 = wait.trace != null;
    boolean v2 = v3 || wait.inputNeededTold || wait.lastFailure != 0;
    List<String> fields =
        new ArrayList<>(
            List.of(
                "w" + (v3 ? 3 : v2 ? 2 : 1),
                escape(wait.setId),
                wait.lastState == null ? "" : escape(wait.lastState.value()),
                Long.toString(started),
                wait.deadline == WaitState.NO_DEADLINE ? "" : offset(wait.deadline, started),
                Long.toString(wait.interval),
                offset(wait.lastSubmission, started),
                offset(wait.lastPoll, started),
                offset(wait.nextPoll, started),
                Integer.toString(wait.polls),
                (wait.movedOn ? "m" : "") + (wait.inputNeededTold ? "i" : "")));
    if (v2) {
      fields.add(failure(wait.lastFailure));
    }
    if (v3) {
      fields.add(escape(wait.trace));
      fields.add(offset(wait.stateSince, started));
    }
    return String.join(".", fields);
  }

  private static String offset(long instant, long started) {
    return instant == WaitState.NONE ? "" : Long.toString(instant - started);
  }

  private static String failure(int code) {
    return switch (code) {
      case 0 -> "";
      case WaitState.NETWORK -> "n";
      case WaitState.INVALID -> "i";
      case WaitState.OTHER -> "x";
      default -> Integer.toString(code);
    };
  }

  private static int failure(String text) {
    return switch (text) {
      case "" -> 0;
      case "n" -> WaitState.NETWORK;
      case "i" -> WaitState.INVALID;
      case "x" -> WaitState.OTHER;
      default -> {
        if (text.length() != 3 || !digits(text)) {
          throw Port.invalid("the failure field is not a status, \"n\", \"i\", \"x\" or empty");
        }
        yield Integer.parseInt(text);
      }
    };
  }

  static WaitState decode(String encoded) {
    Objects.requireNonNull(encoded, "encoded");
    if (encoded.length() > LONGEST_DECODED) {
      throw invalid(
          "it is " + encoded.length() + " characters long, more than " + LONGEST_DECODED, null);
    }
    String[] fields = encoded.split("\\.", -1);
    if (!fields[0].startsWith("w") || !digits(fields[0].substring(1))) {
      throw invalid("it does not start with the version, such as \"w" + FORMAT + ".\"", null);
    }
    int version = parseVersion(fields[0].substring(1));
    if (version > FORMAT) {
      throw invalid(
          ("it was written in format %s by a later version of the SDK; this one reads formats up"
                  + " to %s: upgrade the SDK")
              .formatted(version, FORMAT),
          null);
    }
    if (version < 1) {
      throw invalid("format " + version + " does not exist", null);
    }
    if (fields.length != FIELDS[version]) {
      throw invalid(
          "format %s has %s fields separated by '.', this string has %s"
              .formatted(version, FIELDS[version], fields.length),
          null);
    }
    try {
      String id = unescape("id", fields[1]);
      DocumentSetState state =
          fields[2].isEmpty() ? null : DocumentSetState.of(unescape("state", fields[2]));
      long started = number("start", fields[3]);
      long deadline = offset(started, "deadline", fields[4], WaitState.NO_DEADLINE);
      long interval = number("interval", fields[5]);
      long submission = offset(started, "submission", fields[6], WaitState.NONE);
      long lastPoll = offset(started, "last poll", fields[7], WaitState.NONE);
      long nextPoll = offset(started, "next poll", fields[8]);
      long polls = number("polls", fields[9]);
      if (polls > Integer.MAX_VALUE) {
        throw Port.invalid("polls is out of range: " + polls);
      }
      String flags = fields[10];
      boolean movedOn = flags.startsWith("m");
      boolean told = flags.endsWith("i") && version >= 2;
      if (flags.length() != (movedOn ? 1 : 0) + (told ? 1 : 0)) {
        throw Port.invalid(
            "the flags field is not "
                + (version >= 2 ? "empty, \"m\", \"i\" or \"mi\"" : "empty or \"m\""));
      }
      return new WaitState(
          id,
          started,
          deadline,
          interval,
          state,
          submission,
          movedOn,
          told,
          version >= 2 ? failure(fields[11]) : 0,
          (int) polls,
          lastPoll,
          nextPoll,
          version >= 3
              ? offset(started, "state since", fields[13], WaitState.NONE)
              : WaitState.NONE,
          version >= 3 ? unescape("trace", fields[12]) : null);
    } catch (IllegalArgumentException | ArithmeticException e) {
      throw invalid(e.getMessage(), e);
    }
  }

  /** Whether a trace context can be saved: printable ASCII, of a bounded length. */
  static boolean saveableTrace(String trace) {
    return !trace.isEmpty()
        && trace.length() <= WaitState.LONGEST_TRACE
        && trace.chars().allMatch(c -> c >= 0x21 && c <= 0x7e);
  }

  private static int parseVersion(String digits) {
    try {
      return Integer.parseInt(digits);
    } catch (NumberFormatException e) {
      return Integer.MAX_VALUE;
    }
  }

  private static IllegalArgumentException invalid(String why, Exception cause) {
    return Port.invalid("Not a saved wait (WaitState.encode()): " + why, cause);
  }

  private static boolean digits(String text) {
    return !text.isEmpty() && text.chars().allMatch(c -> c >= '0' && c <= '9');
  }

  private static long number(String name, String text) {
    boolean negative = text.startsWith("-");
    if (!digits(negative ? text.substring(1) : text)) {
      throw Port.invalid("the " + name + " field is not a whole number of milliseconds");
    }
    try {
      return Long.parseLong(text);
    } catch (NumberFormatException tooLarge) {
      throw Port.invalid("the " + name + " field is out of range: " + text);
    }
  }

  private static long offset(long base, String name, String text) {
    try {
      return Math.addExact(base, number(name, text));
    } catch (ArithmeticException overflow) {
      throw Port.invalid("the " + name + " field is out of range: " + text);
    }
  }

  /** As {@link #offset(long, String, String)}, or {@code absent} for an empty field. */
  private static long offset(long base, String name, String text, long absent) {
    return text.isEmpty() ? absent : offset(base, name, text);
  }

  /** Percent-encodes UTF-8 bytes outside {@code A-Z a-z 0-9 _ -}: the separator never occurs. */
  static String escape(String text) {
    StringBuilder out = new StringBuilder(text.length());
    for (byte b : text.getBytes(StandardCharsets.UTF_8)) {
      if (unreserved(b)) {
        out.append((char) b);
      } else {
        out.append('%').append(UPPER_HEX.toHexDigits(b));
      }
    }
    return out.toString();
  }

  private static boolean unreserved(int c) {
    return c >= 'A' && c <= 'Z'
        || c >= 'a' && c <= 'z'
        || c >= '0' && c <= '9'
        || c == '_'
        || c == '-';
  }

  private static String unescape(String name, String text) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream(text.length());
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c == '%') {
        // ASCII hex only: Character.digit would read other scripts' digits too.
        if (i + 2 >= text.length()
            || !HexFormat.isHexDigit(text.charAt(i + 1))
            || !HexFormat.isHexDigit(text.charAt(i + 2))) {
          throw Port.invalid("the " + name + " field has a bad %-escape");
        }
        bytes.write(HexFormat.fromHexDigits(text, i + 1, i + 3));
        i += 2;
      } else if (unreserved(c)) {
        bytes.write(c);
      } else {
        throw Port.invalid(
            "the %s field has a character that must be %%-escaped: U+%04X"
                .formatted(name, (int) c));
      }
    }
    return bytes.toString(StandardCharsets.UTF_8);
  }

  /** Refuses an id a saved wait could not hold and read back as it is. */
  static void saveableId(String setId) {
    Origins.requireId("document set id", setId);
    if (!wellFormed(setId)) {
      throw Port.invalid(
          "document set id is not well-formed Unicode (it has a lone surrogate): " + setId);
    }
    int escaped = escape(setId).length();
    if (escaped > WaitState.LONGEST_ID) {
      throw Port.invalid(
          ("document set id is %s characters long once %%-escaped;"
                  + " a saved wait holds ids of at most %s")
              .formatted(escaped, WaitState.LONGEST_ID));
    }
  }

  /** Whether the text has no lone surrogate: a pair reads as one code point, a lone one not. */
  private static boolean wellFormed(String text) {
    return text.codePoints()
        .allMatch(c -> c < Character.MIN_SURROGATE || c > Character.MAX_SURROGATE);
  }

  /**
   * The state as a wait keeps it: itself, or the digest of its UTF-16 characters when it could not
   * be saved as it is (too long, or not well-formed Unicode).
   */
  static DocumentSetState stored(DocumentSetState state) {
    String value = state.value();
    if (wellFormed(value) && escape(value).length() <= WaitState.LONGEST_STATE) {
      return state;
    }
    ByteBuffer chars = ByteBuffer.allocate(value.length() * 2);
    chars.asCharBuffer().put(value);
    try {
      byte[] digest = MessageDigest.getInstance("SHA-256").digest(chars.array());
      return DocumentSetState.of("sha256-" + HexFormat.of().formatHex(digest));
    } catch (NoSuchAlgorithmException e) {
      throw Port.illegalState("every Java platform has SHA-256", e);
    }
  }
}
