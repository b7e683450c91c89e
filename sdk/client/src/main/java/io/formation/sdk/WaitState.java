package io.formation.sdk;

import io.formation.sdk.internal.Checks;
import io.formation.sdk.internal.Origins;
import io.formation.sdk.model.DocumentSetState;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * How far a wait for completion has got, as a small immutable value that outlives the process: save
 * {@link #encode()} where you keep the document set (a column, a task's data, a CLI argument),
 * restore it with {@link #decode(String)} after a restart or on another instance, and the wait goes
 * on as if it had never stopped: the same grace for {@code input_needed}, the same backoff, the
 * same deadline.
 *
 * <pre>{@code
 * WaitState wait = client.documentSets().startWait(set.id(), options);
 * store.save(set.id(), wait.encode());
 * // ... after a restart, on any instance:
 * WaitState saved = WaitState.decode(store.load(id));
 * DocumentSet done = client.documentSets().awaitCompletion(saved, options);
 * }</pre>
 *
 * <p>Or poll one step at a time, from a scheduler of your own, saving each step's wait:
 *
 * <pre>{@code
 * PollResult result = client.documentSets().poll(WaitState.decode(saved), options);
 * store.save(id, result.waitState().encode());
 * scheduler.runAt(result.nextPollAt(), () -> pollAgain(id));
 * }</pre>
 *
 * <p>What it holds, all as wall-clock instants (a process's monotonic clock means nothing to
 * another one): the document set's id, when the wait began and its deadline, the current interval
 * between polls, the last state seen, the last accepted submission of the set's forms, the number
 * of polls, and when the last poll was made and the next one is due. Instants are kept to the
 * millisecond.
 *
 * <p>The {@code input_needed} rule: a service takes a submission up asynchronously, so a set may
 * read {@code input_needed} for a while after its forms were accepted. A wait keeps polling such a
 * set until {@link PollOptions#inputNeededGrace()} has passed since {@link #lastSubmission()} (or,
 * when no submission is known, since the wait began), then reports that the set needs input. A set
 * that reads {@code input_needed} again after it moved on since the last submission needs input at
 * once. A submission made through the same {@link FormationClient} is known to a wait started
 * afterwards; one made elsewhere is told with {@link #withSubmission(Instant)}.
 *
 * <p>The string form is versioned ({@code w1.} today): later versions of the SDK read every earlier
 * form, and this one refuses a later form with a message saying so. It is about 100 bytes for a
 * typical id and holds no secret (no token, no URL), only the id and times.
 */
public final class WaitState {
  /** The version of the string form written by {@link #encode()}. */
  static final int FORMAT = 1;

  private static final String PREFIX = "w";
  private static final char SEPARATOR = '.';
  private static final int FIELDS = 11;
  // Far more than any id the service hands out; a longer string is not a saved wait.
  private static final int LONGEST_ENCODED = 2048;

  // Times are kept as the epoch milliseconds they are saved as: thousands of waits park at once,
  // and each then holds one small object rather than five Instants and a Duration.
  private static final long NONE = Long.MIN_VALUE;
  private static final long NO_DEADLINE = Long.MAX_VALUE;

  private final String setId;
  private final long started;
  private final long deadline;
  private final long interval;
  private final DocumentSetState lastState;
  private final long lastSubmission;
  private final boolean movedOn;
  private final int polls;
  private final long lastPoll;
  private final long nextPoll;

  private WaitState(
      String setId,
      Instant started,
      Instant deadline,
      Duration interval,
      DocumentSetState lastState,
      Instant lastSubmission,
      boolean movedOn,
      int polls,
      Instant lastPoll,
      Instant nextPoll) {
    this.setId = Origins.requireId("document set id", setId);
    this.started = Objects.requireNonNull(started, "started").toEpochMilli();
    Objects.requireNonNull(deadline, "deadline");
    this.deadline = deadline.equals(Instant.MAX) ? NO_DEADLINE : deadline.toEpochMilli();
    this.interval = Math.max(1, Checks.capped(Checks.positive("interval", interval)).toMillis());
    this.lastState = lastState;
    this.lastSubmission = lastSubmission == null ? NONE : lastSubmission.toEpochMilli();
    this.movedOn = movedOn;
    if (polls < 0) {
      throw new IllegalArgumentException("polls must not be negative, was " + polls);
    }
    this.polls = polls;
    this.lastPoll = lastPoll == null ? NONE : lastPoll.toEpochMilli();
    this.nextPoll = Objects.requireNonNull(nextPoll, "nextPoll").toEpochMilli();
    if (this.deadline < this.started) {
      throw new IllegalArgumentException(
          "deadline " + deadline() + " is before the start " + started());
    }
  }

  /** A wait that begins now: nothing seen yet, its first poll due now. */
  static WaitState start(String setId, Instant now, PollOptions options, Instant lastSubmission) {
    Instant started = millis(now);
    // A timeout too long for clock arithmetic means none, as everywhere in the SDK.
    Instant deadline =
        options.timeout().compareTo(Checks.LONGEST) >= 0
            ? Instant.MAX
            : started.plus(options.timeout());
    return new WaitState(
        setId,
        started,
        deadline,
        options.initialInterval(),
        null,
        lastSubmission,
        false,
        0,
        null,
        started);
  }

  /** After a poll that read the set: its state, the grown interval and the next poll. */
  WaitState polled(DocumentSetState state, Instant at, Duration nextInterval, Instant next) {
    return new WaitState(
        setId,
        started(),
        deadline(),
        nextInterval,
        state,
        instant(lastSubmission),
        movedOn || !state.needsInput(),
        plusOne(),
        at,
        next);
  }

  /** After a poll that failed: the state seen before stays, the schedule moves on. */
  WaitState failed(Instant at, Duration nextInterval, Instant next) {
    return new WaitState(
        setId,
        started(),
        deadline(),
        nextInterval,
        lastState,
        instant(lastSubmission),
        movedOn,
        plusOne(),
        at,
        next);
  }

  private int plusOne() {
    return polls == Integer.MAX_VALUE ? polls : polls + 1;
  }

  /**
   * This wait, told of a submission of the set's forms the service accepted at that time (made by
   * another process, say): a set still reading {@code input_needed} is then polled for {@link
   * PollOptions#inputNeededGrace()} from it, even if it moved on and came back to {@code
   * input_needed} before. A time earlier than the last submission already known changes nothing.
   *
   * <pre>{@code
   * WaitState wait = WaitState.decode(saved).withSubmission(submittedAt);
   * }</pre>
   *
   * @param acceptedAt when the service accepted the submission
   * @return the wait with the submission
   */
  public WaitState withSubmission(Instant acceptedAt) {
    Objects.requireNonNull(acceptedAt, "acceptedAt");
    if (lastSubmission != NONE && acceptedAt.toEpochMilli() <= lastSubmission) {
      return this;
    }
    return new WaitState(
        setId,
        started(),
        deadline(),
        interval(),
        lastState,
        acceptedAt,
        false,
        polls,
        instant(lastPoll),
        nextPoll());
  }

  /** {@return the id of the document set waited for} */
  public String setId() {
    return setId;
  }

  /** {@return when the wait began} */
  public Instant started() {
    return Instant.ofEpochMilli(started);
  }

  /**
   * {@return when the wait gives up with {@link PollTimeoutException}; {@link Instant#MAX} for a
   * wait without a deadline (a timeout of about a hundred years or more)}
   */
  public Instant deadline() {
    return deadline == NO_DEADLINE ? Instant.MAX : Instant.ofEpochMilli(deadline);
  }

  /** {@return the wait before the next poll but one, before jitter: it grows as the options say} */
  public Duration interval() {
    return Duration.ofMillis(interval);
  }

  /** {@return the state the last successful poll read; empty before the first} */
  public Optional<DocumentSetState> lastState() {
    return Optional.ofNullable(lastState);
  }

  /**
   * {@return when the service last accepted a submission of the set's forms, as far as this wait
   * knows (made through the client that started it, or told with {@link #withSubmission}); the
   * {@code input_needed} grace counts from it}
   */
  public Optional<Instant> lastSubmission() {
    return Optional.ofNullable(instant(lastSubmission));
  }

  /** {@return how many polls the wait made, failed ones included} */
  public int polls() {
    return polls;
  }

  /** {@return when the last poll was made; empty before the first} */
  public Optional<Instant> lastPoll() {
    return Optional.ofNullable(instant(lastPoll));
  }

  /** {@return when the next poll is due; may have passed, for a wait resumed late} */
  public Instant nextPoll() {
    return Instant.ofEpochMilli(nextPoll);
  }

  /** Whether the set read a state other than {@code input_needed} since the last submission. */
  boolean movedOn() {
    return movedOn;
  }

  /** {@return how long the wait was given in all: from its start to its deadline} */
  Duration timeout() {
    return Duration.between(started(), deadline());
  }

  /**
   * The wait as a compact string (about 100 bytes for a typical id; ASCII letters, digits and
   * {@code . _ - %}, safe in a URL, a shell argument or a database column), read back by {@link
   * #decode(String)} in this or any later version of the SDK.
   *
   * @return the string form
   */
  public String encode() {
    StringBuilder out = new StringBuilder(128).append(PREFIX).append(FORMAT);
    field(out, escape(setId));
    field(out, lastState == null ? "" : escape(lastState.value()));
    field(out, Long.toString(started));
    field(out, deadline == NO_DEADLINE ? "" : Long.toString(deadline - started));
    field(out, Long.toString(interval));
    field(out, lastSubmission == NONE ? "" : Long.toString(lastSubmission - started));
    field(out, lastPoll == NONE ? "" : Long.toString(lastPoll - started));
    field(out, Long.toString(nextPoll - started));
    field(out, Integer.toString(polls));
    field(out, movedOn ? "m" : "");
    return out.toString();
  }

  private static void field(StringBuilder out, String value) {
    out.append(SEPARATOR).append(value);
  }

  /**
   * Reads a wait saved with {@link #encode()}, by this or an earlier version of the SDK.
   *
   * <pre>{@code
   * WaitState wait = WaitState.decode(row.getString("wait"));
   * }</pre>
   *
   * @param encoded the string form
   * @return the wait
   * @throws IllegalArgumentException if the string is not a saved wait, saying what is wrong with
   *     it, or was written by a later version of the SDK
   */
  public static WaitState decode(String encoded) {
    Objects.requireNonNull(encoded, "encoded");
    if (encoded.length() > LONGEST_ENCODED) {
      throw invalid(
          "it is " + encoded.length() + " characters long, more than " + LONGEST_ENCODED, null);
    }
    String[] fields = encoded.split("\\.", -1);
    String head = fields[0];
    if (!head.startsWith(PREFIX) || head.length() < 2 || !digits(head.substring(1))) {
      throw invalid(
          "it does not start with the version, such as \"" + PREFIX + FORMAT + ".\"", null);
    }
    int version = parseVersion(head.substring(1));
    if (version > FORMAT) {
      throw invalid(
          "it was written in format "
              + version
              + " by a later version of the SDK; this one reads formats up to "
              + FORMAT
              + ": upgrade the SDK",
          null);
    }
    if (version < 1) {
      throw invalid("format " + version + " does not exist", null);
    }
    // Format 1. A later format adds its fields at the end, so this reading stays as it is.
    if (fields.length != FIELDS) {
      throw invalid(
          "format 1 has " + FIELDS + " fields separated by '.', this string has " + fields.length,
          null);
    }
    try {
      String id = unescape("id", fields[1]);
      DocumentSetState state =
          fields[2].isEmpty() ? null : DocumentSetState.of(unescape("state", fields[2]));
      Instant started = Instant.ofEpochMilli(number("start", fields[3]));
      Instant deadline = fields[4].isEmpty() ? Instant.MAX : offset(started, "deadline", fields[4]);
      Duration interval = Duration.ofMillis(number("interval", fields[5]));
      Instant submission = fields[6].isEmpty() ? null : offset(started, "submission", fields[6]);
      Instant lastPoll = fields[7].isEmpty() ? null : offset(started, "last poll", fields[7]);
      Instant nextPoll = offset(started, "next poll", fields[8]);
      long polls = number("polls", fields[9]);
      if (polls > Integer.MAX_VALUE) {
        throw new IllegalArgumentException("polls is out of range: " + polls);
      }
      boolean movedOn;
      if (fields[10].equals("m")) {
        movedOn = true;
      } else if (fields[10].isEmpty()) {
        movedOn = false;
      } else {
        throw new IllegalArgumentException("the flags field is not empty or \"m\"");
      }
      return new WaitState(
          id,
          started,
          deadline,
          interval,
          state,
          submission,
          movedOn,
          (int) polls,
          lastPoll,
          nextPoll);
    } catch (IllegalArgumentException | DateTimeException | ArithmeticException e) {
      throw invalid(e.getMessage(), e);
    }
  }

  private static int parseVersion(String digits) {
    try {
      return Integer.parseInt(digits);
    } catch (NumberFormatException e) {
      return Integer.MAX_VALUE;
    }
  }

  private static IllegalArgumentException invalid(String why, Exception cause) {
    return new IllegalArgumentException("Not a saved wait (WaitState.encode()): " + why, cause);
  }

  private static boolean digits(String text) {
    if (text.isEmpty()) {
      return false;
    }
    for (int i = 0; i < text.length(); i++) {
      if (text.charAt(i) < '0' || text.charAt(i) > '9') {
        return false;
      }
    }
    return true;
  }

  private static long number(String name, String text) {
    boolean negative = text.startsWith("-");
    if (!digits(negative ? text.substring(1) : text) || text.length() > 19) {
      throw new IllegalArgumentException(
          "the " + name + " field is not a whole number of milliseconds");
    }
    return Long.parseLong(text);
  }

  private static Instant offset(Instant base, String name, String text) {
    return base.plusMillis(number(name, text));
  }

  /** Instants as they are saved: to the millisecond, so a decoded wait equals the encoded one. */
  private static Instant millis(Instant instant) {
    return Instant.ofEpochMilli(instant.toEpochMilli());
  }

  private static Instant instant(long epochMilli) {
    return epochMilli == NONE ? null : Instant.ofEpochMilli(epochMilli);
  }

  /** Percent-encodes UTF-8 bytes outside {@code A-Z a-z 0-9 _ -}: the separator never occurs. */
  private static String escape(String text) {
    StringBuilder out = new StringBuilder(text.length());
    for (byte b : text.getBytes(StandardCharsets.UTF_8)) {
      int c = b & 0xff;
      if (unreserved(c)) {
        out.append((char) c);
      } else {
        out.append('%').append(Character.toUpperCase(Character.forDigit(c >> 4, 16)));
        out.append(Character.toUpperCase(Character.forDigit(c & 0xf, 16)));
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
        int high = i + 2 < text.length() ? Character.digit(text.charAt(i + 1), 16) : -1;
        int low = i + 2 < text.length() ? Character.digit(text.charAt(i + 2), 16) : -1;
        if (high < 0 || low < 0) {
          throw new IllegalArgumentException("the " + name + " field has a bad %-escape");
        }
        bytes.write(high << 4 | low);
        i += 2;
      } else if (unreserved(c)) {
        bytes.write(c);
      } else {
        throw new IllegalArgumentException(
            "the "
                + name
                + " field has a character that must be %-escaped: U+"
                + String.format(java.util.Locale.ROOT, "%04X", (int) c));
      }
    }
    return bytes.toString(StandardCharsets.UTF_8);
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof WaitState that && encode().equals(that.encode());
  }

  @Override
  public int hashCode() {
    return encode().hashCode();
  }

  /** The wait's fields, readable; the same information as {@link #encode()}. */
  @Override
  public String toString() {
    return "WaitState{setId="
        + setId
        + ", lastState="
        + lastState
        + ", polls="
        + polls
        + ", started="
        + started()
        + ", deadline="
        + deadline()
        + ", interval="
        + interval()
        + ", lastSubmission="
        + instant(lastSubmission)
        + ", lastPoll="
        + instant(lastPoll)
        + ", nextPoll="
        + nextPoll()
        + (movedOn ? ", movedOn" : "")
        + "}";
  }
}
