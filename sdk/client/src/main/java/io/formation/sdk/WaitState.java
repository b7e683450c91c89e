package io.formation.sdk;

import io.formation.sdk.internal.Port;
import io.formation.sdk.internal.guards.Origins;
import io.formation.sdk.internal.time.Time;
import io.formation.sdk.model.DocumentSetState;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * How far a wait for completion has got, as a small immutable value that outlives the process: save
 * {@link #encode()} where you keep the document set, restore it with {@link #decode(String)} after
 * a restart or on another instance, and the wait goes on as if it had never stopped: the same grace
 * for {@code input_needed}, the same backoff, the same deadline. Its instants are wall-clock, to
 * the millisecond (a process's monotonic clock means nothing to another one).
 *
 * <pre>{@code
 * WaitState wait = client.documentSets().startWait(set.id(), options);
 * store.save(set.id(), wait.encode());
 * // ... after a restart, on any instance:
 * WaitState saved = WaitState.decode(store.load(id));
 * DocumentSet done = client.documentSets().awaitCompletion(saved, options);
 * }</pre>
 *
 * <p>The {@code input_needed} rule: a service takes a submission up asynchronously, so a set may
 * read {@code input_needed} for a while after its forms were accepted. A wait keeps polling such a
 * set until {@link PollOptions#inputNeededGrace()} has passed since {@link #lastSubmission()} (or,
 * when none is known, since the wait began), then reports that the set needs input; a set that
 * reads {@code input_needed} again after it moved on needs input at once. A wait started after a
 * submission through the same {@link FormationClient} knows of it; one made elsewhere is told with
 * {@link #withSubmission(Instant)}. A wait tells that a set needs input once per episode ({@link
 * PollResult.Kind#INPUT_NEEDED}), and again only after the set moved on or a submission was told.
 *
 * <p>The string form is versioned ({@code w1.} to {@code w3.}; {@code w3.} only for a wait that
 * carries a trace context): later versions of the SDK read every earlier form, and this one refuses
 * a later form with a message saying so. It is about 100 bytes for a typical id (about 170 with a
 * trace context), at most 2,048 characters (an id longer than 1,024 characters once escaped is
 * refused), and holds no secret, only the id, times and the trace context.
 */
public final class WaitState {
  // Epoch milliseconds, as saved: each of thousands of parked waits is one small object.
  static final long NONE = Long.MIN_VALUE;
  static final long NO_DEADLINE = Long.MAX_VALUE;
  // Escaped lengths that keep every encoded wait within WaitCodec.LONGEST_ENCODED.
  static final int LONGEST_ID = 1024;
  static final int LONGEST_STATE = 256;
  static final int LONGEST_TRACE = 128;
  static final int NETWORK = -1;
  static final int INVALID = -2;
  static final int OTHER = -3;

  final String setId;
  final long started;
  final long deadline;
  final long interval;
  final DocumentSetState lastState;
  final long lastSubmission;
  final boolean movedOn;
  final boolean inputNeededTold;
  // How the last poll failed, if it did: its status, or NETWORK, INVALID or OTHER; else 0.
  final int lastFailure;
  final int polls;
  final long lastPoll;
  final long nextPoll;
  // When a poll first read the last state; NONE when not known (a wait saved without a trace).
  final long stateSince;
  // The saved context of the span that created the set; null when untraced.
  final String trace;

  WaitState(
      String setId,
      long started,
      long deadline,
      long interval,
      DocumentSetState lastState,
      long lastSubmission,
      boolean movedOn,
      boolean inputNeededTold,
      int lastFailure,
      int polls,
      long lastPoll,
      long nextPoll,
      long stateSince,
      String trace) {
    this.setId = Origins.requireId("document set id", setId);
    this.started = WaitCodec.inRange("start", started);
    this.deadline = deadline == NO_DEADLINE ? deadline : WaitCodec.inRange("deadline", deadline);
    if (interval < 1 || interval > Time.FOREVER.toMillis()) {
      throw Port.invalid("interval must be 1 ms to 100 years, was " + interval);
    }
    this.interval = interval;
    this.lastState = lastState == null ? null : WaitCodec.stored(lastState);
    this.lastSubmission = optional("last submission", lastSubmission);
    this.movedOn = movedOn;
    this.inputNeededTold = inputNeededTold;
    if (lastFailure < OTHER || lastFailure > 599) {
      throw Port.invalid("the last failure is not a status: " + lastFailure);
    }
    this.lastFailure = lastFailure;
    if (polls < 0) {
      throw Port.invalid("polls must not be negative, was " + polls);
    }
    this.polls = polls;
    this.lastPoll = optional("last poll", lastPoll);
    this.nextPoll = WaitCodec.inRange("next poll", nextPoll);
    this.stateSince = optional("state since", stateSince);
    if (trace != null && !WaitCodec.saveableTrace(trace)) {
      throw Port.invalid("the trace context is not " + LONGEST_TRACE + " printable ASCII or fewer");
    }
    this.trace = trace;
    if (this.deadline < this.started) {
      throw Port.invalid("deadline " + deadline() + " is before the start " + started());
    }
  }

  private static long optional(String name, long milli) {
    return milli == NONE ? NONE : WaitCodec.inRange(name, milli);
  }

  /** A wait that begins now; a {@code trace} (or null) that cannot be saved is left out. */
  static WaitState start(
      String setId, Instant now, PollOptions options, Instant lastSubmission, String trace) {
    WaitCodec.saveableId(setId);
    long started = now.toEpochMilli();
    long deadline =
        Time.isForever(options.timeout())
            ? NO_DEADLINE
            : Math.min(started + options.timeout().toMillis(), WaitCodec.LATEST_MILLI);
    return new WaitState(
        setId,
        started,
        deadline,
        WaitCodec.millis(options.initialInterval()),
        null,
        lastSubmission == null ? NONE : lastSubmission.toEpochMilli(),
        false,
        false,
        0,
        0,
        NONE,
        started,
        NONE,
        trace != null && WaitCodec.saveableTrace(trace) ? trace : null);
  }

  /** After a poll that read the set: its state, whether input_needed was told, the schedule. */
  WaitState polled(
      DocumentSetState state, Instant at, boolean told, Duration nextInterval, Instant next) {
    long since = sameState(state) ? stateSince : WaitCodec.ceilMillis(at);
    return afterPoll(state, movedOn || !state.needsInput(), told, 0, at, nextInterval, next, since);
  }

  /** After a poll that failed, and how: the state seen before stays, the schedule moves on. */
  WaitState failed(int failure, Instant at, Duration nextInterval, Instant next) {
    return afterPoll(
        lastState, movedOn, inputNeededTold, failure, at, nextInterval, next, stateSince);
  }

  private WaitState afterPoll(
      DocumentSetState state,
      boolean movedOn,
      boolean told,
      int failure,
      Instant at,
      Duration nextInterval,
      Instant next,
      long since) {
    return new WaitState(
        setId,
        started,
        deadline,
        WaitCodec.millis(nextInterval),
        state,
        lastSubmission,
        movedOn,
        told,
        failure,
        polls == Integer.MAX_VALUE ? polls : polls + 1,
        WaitCodec.ceilMillis(at),
        next.toEpochMilli(),
        since,
        trace);
  }

  WaitState rescheduled(Instant next) {
    return with(lastSubmission, movedOn, inputNeededTold, next.toEpochMilli());
  }

  /** This wait with its schedule and what it saw kept, the submission and next poll as given. */
  private WaitState with(long submission, boolean movedOn, boolean told, long nextPoll) {
    return new WaitState(
        setId,
        started,
        deadline,
        interval,
        lastState,
        submission,
        movedOn,
        told,
        lastFailure,
        polls,
        lastPoll,
        nextPoll,
        stateSince,
        trace);
  }

  /**
   * {@return this wait, told of a submission of the set's forms the service accepted then (by
   * another process, say)} The {@code input_needed} grace counts from it, and a set still needing
   * input after it is reported again; a time before the last known submission changes nothing.
   *
   * @param acceptedAt when the service accepted the submission
   */
  public WaitState withSubmission(Instant acceptedAt) {
    Objects.requireNonNull(acceptedAt, "acceptedAt");
    long at = acceptedAt.toEpochMilli();
    if (lastSubmission != NONE && at <= lastSubmission) {
      return this;
    }
    return with(at, false, false, nextPoll);
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
   * {@return when the wait gives up with {@link PollTimeoutException}, or {@link Instant#MAX} for a
   * wait that never does}
   */
  public Instant deadline() {
    return deadline == NO_DEADLINE ? Instant.MAX : Instant.ofEpochMilli(deadline);
  }

  /** {@return the wait before the next poll but one, before jitter: it grows as the options say} */
  public Duration interval() {
    return Duration.ofMillis(interval);
  }

  /**
   * {@return the state the last successful poll read; empty before the first} A state longer than
   * any the service uses (over 256 characters once escaped), or not well-formed Unicode, is kept as
   * the SHA-256 digest of its characters.
   */
  public Optional<DocumentSetState> lastState() {
    return Optional.ofNullable(lastState);
  }

  /** Whether the set's state is the one the wait saw last. */
  boolean sameState(DocumentSetState state) {
    return lastState != null && lastState.equals(WaitCodec.stored(state));
  }

  /**
   * {@return the last accepted submission of the set's forms this wait knows of (made through the
   * client that started it, or told with {@link #withSubmission}); the grace counts from it}
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

  /**
   * {@return the W3C {@code traceparent} of the span that created the set through a client with a
   * {@link FormationTracer}, which each later poll and the completion link to}
   */
  public Optional<String> traceContext() {
    return Optional.ofNullable(trace);
  }

  /** {@return when the next poll is due; may have passed, for a wait resumed late} */
  public Instant nextPoll() {
    return Instant.ofEpochMilli(nextPoll);
  }

  /** {@return how long the wait was given in all: from its start to its deadline} */
  Duration timeout() {
    return Duration.between(started(), deadline());
  }

  /**
   * {@return the wait as a compact string of ASCII letters, digits and {@code . _ - %} (safe in a
   * URL, a shell argument or a database column), which {@link #decode(String)} reads back in this
   * or any later version of the SDK}
   */
  public String encode() {
    return WaitCodec.encode(this);
  }

  /**
   * {@return the wait saved with {@link #encode()}, by this or an earlier version of the SDK}
   *
   * @param encoded the string form
   * @throws IllegalArgumentException if the string is not a saved wait, saying what is wrong with
   *     it, or was written by a later version of the SDK
   */
  public static WaitState decode(String encoded) {
    return WaitCodec.decode(encoded);
  }

  static Instant instant(long epochMilli) {
    return epochMilli == NONE ? null : Instant.ofEpochMilli(epochMilli);
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
    return ("WaitState{setId=%s, lastState=%s, polls=%s, started=%s, deadline=%s, interval=%s,"
                + " lastSubmission=%s, lastPoll=%s, nextPoll=%s")
            .formatted(
                setId,
                lastState,
                polls,
                started(),
                deadline(),
                interval(),
                instant(lastSubmission),
                instant(lastPoll),
                nextPoll())
        + (movedOn ? ", movedOn" : "")
        + (inputNeededTold ? ", inputNeededTold" : "")
        + (lastFailure != 0 ? ", lastFailure=" + lastFailure : "")
        + (stateSince != NONE ? ", stateSince=" + instant(stateSince) : "")
        + (trace != null ? ", traceContext=" + trace : "")
        + "}";
  }
}
