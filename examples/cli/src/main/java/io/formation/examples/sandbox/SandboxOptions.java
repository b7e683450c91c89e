package io.formation.examples.sandbox;

import java.time.Clock;
import java.time.Duration;
import java.util.Objects;

/**
 * How a {@link Sandbox} behaves. Start from {@link #defaults()} and change what matters:
 *
 * <pre>{@code
 * SandboxOptions options =
 *     SandboxOptions.defaults()
 *         .withToken("test-token")
 *         .withTeamCount(3)
 *         .withStepDelay(Duration.ofSeconds(1))
 *         .withClock(testClock);
 * try (Sandbox sandbox = Sandbox.start(options)) {
 *   ...
 * }
 * }</pre>
 *
 * @param token the bearer token the sandbox accepts; default {@value #DEFAULT_TOKEN}
 * @param teamCount how many teams {@code GET /v1/teams} lists; default {@value
 *     #DEFAULT_TEAM_COUNT}, 0 to 100,000
 * @param stepDelay how long a document set stays in each state after its input is complete; default
 *     700 ms; zero makes it complete at once
 * @param clock the clock that drives states and timestamps; default the system UTC clock. Inject a
 *     controllable clock to step through the states without waiting.
 */
public record SandboxOptions(String token, int teamCount, Duration stepDelay, Clock clock) {

  /** The token a sandbox accepts unless told otherwise. */
  public static final String DEFAULT_TOKEN = "sandbox-token";

  /** The number of teams a sandbox lists unless told otherwise: more than two default pages. */
  public static final int DEFAULT_TEAM_COUNT = 120;

  /** The time spent in each state after input unless told otherwise. */
  public static final Duration DEFAULT_STEP_DELAY = Duration.ofMillis(700);

  private static final int MAX_TEAM_COUNT = 100_000;

  /** Checks the values. */
  public SandboxOptions {
    Objects.requireNonNull(token, "token");
    Objects.requireNonNull(stepDelay, "stepDelay");
    Objects.requireNonNull(clock, "clock");
    // A token with spaces could never arrive intact in an Authorization header.
    if (token.isEmpty() || token.chars().anyMatch(c -> c <= ' ' || c > '~')) {
      throw new IllegalArgumentException("token must be non-empty printable ASCII without spaces");
    }
    if (teamCount < 0 || teamCount > MAX_TEAM_COUNT) {
      throw new IllegalArgumentException("teamCount must be between 0 and " + MAX_TEAM_COUNT);
    }
    if (stepDelay.isNegative()) {
      throw new IllegalArgumentException("stepDelay must not be negative");
    }
  }

  /** Returns the default options. */
  public static SandboxOptions defaults() {
    return new SandboxOptions(
        DEFAULT_TOKEN, DEFAULT_TEAM_COUNT, DEFAULT_STEP_DELAY, Clock.systemUTC());
  }

  /** Returns a copy accepting this bearer token instead. */
  public SandboxOptions withToken(String token) {
    return new SandboxOptions(token, teamCount, stepDelay, clock);
  }

  /** Returns a copy listing this many teams instead. */
  public SandboxOptions withTeamCount(int teamCount) {
    return new SandboxOptions(token, teamCount, stepDelay, clock);
  }

  /** Returns a copy with this delay between the states that follow input. */
  public SandboxOptions withStepDelay(Duration stepDelay) {
    return new SandboxOptions(token, teamCount, stepDelay, clock);
  }

  /** Returns a copy reading time from this clock instead. */
  public SandboxOptions withClock(Clock clock) {
    return new SandboxOptions(token, teamCount, stepDelay, clock);
  }
}
