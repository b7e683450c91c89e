package io.formation.sandbox;

import java.time.Clock;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.function.Consumer;

/**
 * How a {@link FormationSandbox} behaves. Immutable: start from {@link #defaults()} and change what
 * matters with the {@code with...} methods, each of which returns a copy.
 *
 * <pre>{@code
 * SandboxOptions options =
 *     SandboxOptions.defaults()
 *         .withClock(testClock)                       // states move only when the test says so
 *         .withProcessingLag(Duration.ofSeconds(2))
 *         .withStepDelay(Duration.ofSeconds(1))
 *         .withReview(true)
 *         .withFaults(Faults.none().withRateLimited(0.2).withSeed(7));
 * try (FormationSandbox sandbox = FormationSandbox.start(options)) {
 *   ...
 * }
 * }</pre>
 *
 * <p>A document set is {@code input_needed} until every form has accepted values, and for {@link
 * #processingLag()} after the last one was accepted. It then walks through {@link #progression()},
 * one state per {@link #stepDelay()}, and stays in the last one, {@code complete}. With {@link
 * #review()} on, a set goes back to {@code input_needed} once on the way: see {@link #withReview}.
 *
 * <table>
 *   <caption>Options and their defaults</caption>
 *   <tr><th>Option</th><th>Default</th></tr>
 *   <tr><td>{@link #token()}</td><td>{@value #DEFAULT_TOKEN}</td></tr>
 *   <tr><td>{@link #teamCount()}</td><td>{@value #DEFAULT_TEAM_COUNT}</td></tr>
 *   <tr><td>{@link #progression()}</td><td>{@link #DEFAULT_PROGRESSION}</td></tr>
 *   <tr><td>{@link #stepDelay()}</td><td>700 ms</td></tr>
 *   <tr><td>{@link #processingLag()}</td><td>1.5 s</td></tr>
 *   <tr><td>{@link #review()}</td><td>off</td></tr>
 *   <tr><td>{@link #faults()}</td><td>{@link Faults#none()}</td></tr>
 *   <tr><td>{@link #clock()}</td><td>the system UTC clock</td></tr>
 *   <tr><td>{@link #port()}</td><td>0, a free port</td></tr>
 * </table>
 */
public final class SandboxOptions {

  /** The token a sandbox accepts unless told otherwise. */
  public static final String DEFAULT_TOKEN = "sandbox-token";

  /** The number of teams a sandbox lists unless told otherwise: more than two default pages. */
  public static final int DEFAULT_TEAM_COUNT = 120;

  /**
   * The states after input unless told otherwise. {@code payment_processing} is not one of the
   * states the interface lists: a client must treat a state it does not know as "keep polling".
   */
  public static final List<String> DEFAULT_PROGRESSION =
      List.of(
          "signature_requests_needed",
          "awaiting_payment",
          "payment_processing",
          "filing_in_progress",
          "finalizing",
          "complete");

  /** The time spent in each state after input unless told otherwise. */
  public static final Duration DEFAULT_STEP_DELAY = Duration.ofMillis(700);

  /** The time a set stays {@code input_needed} after its last form was accepted, by default. */
  public static final Duration DEFAULT_PROCESSING_LAG = Duration.ofMillis(1500);

  static final String INPUT_NEEDED = "input_needed";
  static final String COMPLETE = "complete";
  private static final int MAX_TEAM_COUNT = 100_000;

  private static final SandboxOptions DEFAULTS = new SandboxOptions(new Draft());

  private final String token;
  private final int teamCount;
  private final List<String> progression;
  private final Duration stepDelay;
  private final Duration processingLag;
  private final boolean review;
  private final Faults faults;
  private final Clock clock;
  private final int port;

  /** The options as they are being changed by a {@code with...} method; the defaults at first. */
  private static final class Draft {
    String token = DEFAULT_TOKEN;
    int teamCount = DEFAULT_TEAM_COUNT;
    List<String> progression = DEFAULT_PROGRESSION;
    Duration stepDelay = DEFAULT_STEP_DELAY;
    Duration processingLag = DEFAULT_PROCESSING_LAG;
    boolean review;
    Faults faults = Faults.none();
    Clock clock = Clock.systemUTC();
    int port;

    Draft() {}

    Draft(SandboxOptions options) {
      token = options.token;
      teamCount = options.teamCount;
      progression = options.progression;
      stepDelay = options.stepDelay;
      processingLag = options.processingLag;
      review = options.review;
      faults = options.faults;
      clock = options.clock;
      port = options.port;
    }
  }

  /** A copy with one option changed, checked as a whole as every {@code SandboxOptions} is. */
  private SandboxOptions copy(Consumer<Draft> change) {
    Draft draft = new Draft(this);
    change.accept(draft);
    return new SandboxOptions(draft);
  }

  private SandboxOptions(Draft draft) {
    String token = Objects.requireNonNull(draft.token, "token");
    // A token with spaces could never arrive intact in an Authorization header.
    if (token.isEmpty() || token.chars().anyMatch(c -> c <= ' ' || c > '~')) {
      throw new IllegalArgumentException("token must be non-empty printable ASCII without spaces");
    }
    if (draft.teamCount < 0 || draft.teamCount > MAX_TEAM_COUNT) {
      throw new IllegalArgumentException("teamCount must be between 0 and " + MAX_TEAM_COUNT);
    }
    this.progression = checkProgression(draft.progression);
    if (draft.review && this.progression.size() < 3) {
      throw new IllegalArgumentException(
          "review needs a progression of at least three states: it happens in the second one");
    }
    this.stepDelay = nonNegative("stepDelay", draft.stepDelay);
    this.processingLag = nonNegative("processingLag", draft.processingLag);
    if (draft.port < 0 || draft.port > 65_535) {
      throw new IllegalArgumentException("port must be between 0 and 65535");
    }
    this.token = token;
    this.teamCount = draft.teamCount;
    this.review = draft.review;
    this.faults = Objects.requireNonNull(draft.faults, "faults");
    this.clock = Objects.requireNonNull(draft.clock, "clock");
    this.port = draft.port;
  }

  private static List<String> checkProgression(List<String> progression) {
    List<String> copy = List.copyOf(Objects.requireNonNull(progression, "progression"));
    if (copy.isEmpty() || !copy.get(copy.size() - 1).equals(COMPLETE)) {
      throw new IllegalArgumentException("progression must end with " + COMPLETE);
    }
    Set<String> seen = new HashSet<>();
    for (String state : copy) {
      if (state.isBlank() || state.equals(INPUT_NEEDED) || !seen.add(state)) {
        throw new IllegalArgumentException(
            "progression states must be distinct, non-blank and not " + INPUT_NEEDED);
      }
    }
    return copy;
  }

  private static Duration nonNegative(String name, Duration duration) {
    Objects.requireNonNull(duration, name);
    if (duration.isNegative()) {
      throw new IllegalArgumentException(name + " must not be negative");
    }
    return duration;
  }

  /** Returns the default options. */
  public static SandboxOptions defaults() {
    return DEFAULTS;
  }

  /** Returns a copy accepting this bearer token instead. */
  public SandboxOptions withToken(String token) {
    return copy(draft -> draft.token = token);
  }

  /** Returns a copy listing this many teams (0 to 100,000) instead. */
  public SandboxOptions withTeamCount(int teamCount) {
    return copy(draft -> draft.teamCount = teamCount);
  }

  /**
   * Returns a copy with these states after input, in order. The last one must be {@code complete};
   * none may be {@code input_needed}.
   */
  public SandboxOptions withProgression(List<String> progression) {
    return copy(draft -> draft.progression = progression);
  }

  /** Returns a copy spending this long in each state of the progression; zero skips to the end. */
  public SandboxOptions withStepDelay(Duration stepDelay) {
    return copy(draft -> draft.stepDelay = stepDelay);
  }

  /**
   * Returns a copy staying {@code input_needed} this long after the last form was accepted, as the
   * service does while it processes the values. Zero starts the progression at once.
   */
  public SandboxOptions withProcessingLag(Duration processingLag) {
    return copy(draft -> draft.processingLag = processingLag);
  }

  /**
   * Returns a copy with review on or off. With review on, every document set goes back once to
   * {@code input_needed} when it would leave the second state of its progression (by default {@code
   * awaiting_payment}), as when the service's reviewers find a problem: one form (for the Delaware
   * template, {@code people}) is reopened with a field cleared so that its values no longer satisfy
   * its JSON Schema, and gets a new action url. The old url then answers {@code 409 stale_action}.
   * Once that form is submitted with valid values, the processing lag runs again and the
   * progression resumes at the state it was interrupted in.
   *
   * <p>A client finds the form that needs values by checking each form's current values against its
   * schema with {@link FormValidator}.
   */
  public SandboxOptions withReview(boolean review) {
    return copy(draft -> draft.review = review);
  }

  /** Returns a copy injecting these faults. */
  public SandboxOptions withFaults(Faults faults) {
    return copy(draft -> draft.faults = faults);
  }

  /**
   * Returns a copy reading time from this clock: states, lag, review, {@code Retry-After} and
   * recorded times all follow it, so a test steps through them without sleeping.
   */
  public SandboxOptions withClock(Clock clock) {
    return copy(draft -> draft.clock = clock);
  }

  /** Returns a copy listening on this port of 127.0.0.1; 0 picks a free one. */
  public SandboxOptions withPort(int port) {
    return copy(draft -> draft.port = port);
  }

  /** Returns the bearer token the sandbox accepts; default {@value #DEFAULT_TOKEN}. */
  public String token() {
    return token;
  }

  /** Returns how many teams {@code GET /v1/teams} lists; default {@value #DEFAULT_TEAM_COUNT}. */
  public int teamCount() {
    return teamCount;
  }

  /** Returns the states after input, ending with {@code complete}. */
  public List<String> progression() {
    return progression;
  }

  /** Returns the time spent in each state of the progression; default 700 ms. */
  public Duration stepDelay() {
    return stepDelay;
  }

  /** Returns the time a set stays {@code input_needed} after its input is complete; 1.5 s. */
  public Duration processingLag() {
    return processingLag;
  }

  /** Returns whether every document set goes back to {@code input_needed} once; default off. */
  public boolean review() {
    return review;
  }

  /** Returns the faults injected; default none. */
  public Faults faults() {
    return faults;
  }

  /** Returns the clock that drives states and timestamps; default the system UTC clock. */
  public Clock clock() {
    return clock;
  }

  /** Returns the port to listen on, 0 for a free one; default 0. */
  public int port() {
    return port;
  }

  @Override
  public String toString() {
    // Never the token: options end up in test logs.
    return "SandboxOptions[teamCount="
        + teamCount
        + ", progression="
        + progression
        + ", stepDelay="
        + stepDelay
        + ", processingLag="
        + processingLag
        + ", review="
        + review
        + ", faults="
        + faults
        + ", clock="
        + clock
        + ", port="
        + port
        + "]";
  }
}
