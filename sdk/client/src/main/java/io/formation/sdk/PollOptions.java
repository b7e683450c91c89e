package io.formation.sdk;

import io.formation.sdk.internal.Port;
import io.formation.sdk.internal.guards.Checks;
import io.formation.sdk.internal.guards.Timeout;
import io.formation.sdk.model.DocumentSet;
import java.time.Clock;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * How a wait polls ({@link DocumentSets#awaitCompletion}, {@link DocumentSets#poll}): the first
 * interval, how it grows, its cap, a jitter, the overall timeout, whether to keep waiting through
 * {@code input_needed}, and a listener for state changes. Immutable; change a copy with {@link
 * #newBuilder()}. A saved {@link WaitState} does not hold the options: pass the same ones to every
 * poll of a wait. Whatever they say, no two polls of one wait come closer than 100 ms.
 *
 * <pre>{@code
 * PollOptions options = PollOptions.builder()
 *     .initialInterval(Duration.ofSeconds(2))
 *     .timeout(Duration.ofMinutes(10))
 *     .onStateChange(set -> progress.show(set.state()))
 *     .build();
 * DocumentSet done = client.documentSets().awaitCompletion(id, options);
 * }</pre>
 *
 * <p>Defaults: 1 s, growing ×1.5 up to 30 s, up to 10% jitter taken off each wait, a 30 minute
 * timeout, a 60 second grace period for {@code input_needed}, no listener.
 *
 * <p>Durations too long for clock arithmetic (say {@code ChronoUnit.FOREVER.getDuration()}) are
 * taken as about a hundred years: a timeout that long means no timeout.
 */
public final class PollOptions {
  private static final PollOptions DEFAULTS = builder().build();

  private final Duration initialInterval;
  private final double multiplier;
  private final Duration maxInterval;
  private final double jitter;
  private final Duration timeout;
  private final Duration inputNeededGrace;
  private final Duration firstPollWithin;
  private final boolean waitThroughInputNeeded;
  private final Consumer<DocumentSet> onStateChange;
  private final Clock clock;
  private final Duration retryFailuresAfter;

  private PollOptions(Builder builder) {
    this.initialInterval = builder.initialInterval;
    this.multiplier = builder.multiplier;
    this.maxInterval = builder.maxInterval;
    this.jitter = builder.jitter;
    this.timeout = builder.timeout;
    this.inputNeededGrace = builder.inputNeededGrace;
    this.firstPollWithin = builder.firstPollWithin;
    this.waitThroughInputNeeded = builder.waitThroughInputNeeded;
    this.onStateChange = builder.onStateChange;
    this.clock = builder.clock;
    this.retryFailuresAfter = builder.retryFailuresAfter;
  }

  /** {@return the defaults} */
  public static PollOptions defaults() {
    return DEFAULTS;
  }

  /** {@return a builder starting from the defaults} */
  public static Builder builder() {
    return new Builder();
  }

  /** {@return a builder starting from these options} */
  public Builder newBuilder() {
    return new Builder(this);
  }

  /** {@return the wait after the first poll} */
  public Duration initialInterval() {
    return initialInterval;
  }

  /** {@return how much each wait grows over the previous one} */
  public double multiplier() {
    return multiplier;
  }

  /** {@return the longest wait between two polls} */
  public Duration maxInterval() {
    return maxInterval;
  }

  /**
   * {@return the fraction by which each wait is shortened at random, so many pollers spread out}
   */
  public double jitter() {
    return jitter;
  }

  /** {@return how long to wait in all before giving up with {@link PollTimeoutException}} */
  public Duration timeout() {
    return timeout;
  }

  /**
   * How long a set still {@code input_needed} is polled before the wait reports that it needs
   * input, counted from the last accepted submission or else the start of the wait; see {@link
   * WaitState} for the rule.
   *
   * @return the grace period for {@code input_needed}
   */
  public Duration inputNeededGrace() {
    return inputNeededGrace;
  }

  /**
   * The window a first poll that is already due falls in, at random, never after the deadline; zero
   * (the default) polls at once. It spreads the polls of many waits resumed together (after a
   * restart, say); a resumed wait whose next poll is still ahead polls then.
   *
   * @return the window the first poll falls in
   */
  public Duration firstPollWithin() {
    return firstPollWithin;
  }

  /**
   * {@return whether to keep polling when the state is {@code input_needed} instead of stopping}
   */
  public boolean waitThroughInputNeeded() {
    return waitThroughInputNeeded;
  }

  /**
   * The one channel by which a wait tells the partner of a state change: called with the document
   * set on the wait's first successful poll and at each change of its state, by {@link
   * DocumentSets#awaitCompletion} and each {@link DocumentSets#poll step} (whose {@link PollResult}
   * says the same) alike. What it throws ends the wait.
   *
   * @return the listener
   */
  public Consumer<DocumentSet> onStateChange() {
    return onStateChange;
  }

  /**
   * The wall clock a wait reads its instants on (its start, deadline, grace and next poll); empty
   * for the client's. Processes that share saved waits set one clock they agree on, such as the
   * database's (formation-tracking does).
   *
   * @return the clock, or empty for the client's
   */
  public Optional<Clock> clock() {
    return Optional.ofNullable(clock);
  }

  /**
   * How long a wait pauses after a poll that failed in a way that does not pass by itself (400,
   * 401, 403, an answer that is not a document set) before it polls again, instead of ending with
   * the failure; empty (the default) ends the wait. Such a poll's result is {@link
   * PollResult.Kind#FAILED}. Never past the deadline: a failure that lasts until then ends the wait
   * with a {@link PollTimeoutException} whose cause it is. A set the service does not know (404)
   * always ends the wait.
   *
   * @return the pause, or empty to end the wait at such a failure
   */
  public Optional<Duration> retryFailuresAfter() {
    return Optional.ofNullable(retryFailuresAfter);
  }

  @Override
  public String toString() {
    return "PollOptions{initialInterval="
        + initialInterval
        + ", multiplier="
        + multiplier
        + ", maxInterval="
        + maxInterval
        + ", jitter="
        + jitter
        + ", timeout="
        + timeout
        + ", inputNeededGrace="
        + inputNeededGrace
        + ", firstPollWithin="
        + firstPollWithin
        + ", waitThroughInputNeeded="
        + waitThroughInputNeeded
        + (retryFailuresAfter == null ? "" : ", retryFailuresAfter=" + retryFailuresAfter)
        + "}";
  }

  /** Builds {@link PollOptions}; every setter checks its value. */
  public static final class Builder {
    private Duration initialInterval = Duration.ofSeconds(1);
    private double multiplier = 1.5;
    private Duration maxInterval = Duration.ofSeconds(30);
    private double jitter = 0.1;
    private Duration timeout = Duration.ofMinutes(30);
    private Duration inputNeededGrace = Duration.ofSeconds(60);
    private Duration firstPollWithin = Duration.ZERO;
    private boolean waitThroughInputNeeded;
    private Consumer<DocumentSet> onStateChange = set -> {};
    private Clock clock;
    private Duration retryFailuresAfter;

    private Builder() {}

    private Builder(PollOptions options) {
      this.initialInterval = options.initialInterval;
      this.multiplier = options.multiplier;
      this.maxInterval = options.maxInterval;
      this.jitter = options.jitter;
      this.timeout = options.timeout;
      this.inputNeededGrace = options.inputNeededGrace;
      this.firstPollWithin = options.firstPollWithin;
      this.waitThroughInputNeeded = options.waitThroughInputNeeded;
      this.onStateChange = options.onStateChange;
      this.clock = options.clock;
      this.retryFailuresAfter = options.retryFailuresAfter;
    }

    /**
     * The wait after the first poll; positive.
     *
     * @param interval the first wait
     * @return this builder
     */
    public Builder initialInterval(Duration interval) {
      this.initialInterval = Checks.positive("initialInterval", interval);
      return this;
    }

    /**
     * How much each wait grows; at least 1.
     *
     * @param multiplier the growth factor
     * @return this builder
     */
    public Builder multiplier(double multiplier) {
      if (!(multiplier >= 1.0) || Double.isInfinite(multiplier)) {
        throw Port.invalid("multiplier must be at least 1, was " + multiplier);
      }
      this.multiplier = multiplier;
      return this;
    }

    /**
     * The longest wait between polls; positive.
     *
     * @param interval the longest wait
     * @return this builder
     */
    public Builder maxInterval(Duration interval) {
      this.maxInterval = Checks.positive("maxInterval", interval);
      return this;
    }

    /**
     * The random fraction taken off each wait, between 0 (none) and 1.
     *
     * @param jitter the fraction, from 0 to 1
     * @return this builder
     */
    public Builder jitter(double jitter) {
      if (!(jitter >= 0.0 && jitter <= 1.0)) {
        throw Port.invalid("jitter must be between 0 and 1, was " + jitter);
      }
      this.jitter = jitter;
      return this;
    }

    /**
     * The overall timeout; positive.
     *
     * @param timeout the timeout
     * @return this builder
     */
    public Builder timeout(Duration timeout) {
      this.timeout = Timeout.wait("timeout", timeout).value();
      return this;
    }

    /**
     * The {@link PollOptions#inputNeededGrace() grace for input_needed}; default 60 s; zero stops
     * at the first {@code input_needed}.
     *
     * @param grace the grace period; zero or more
     * @return this builder
     */
    public Builder inputNeededGrace(Duration grace) {
      this.inputNeededGrace = Checks.nonNegative("inputNeededGrace", grace);
      return this;
    }

    /**
     * The {@link PollOptions#firstPollWithin() window of the first poll}; default zero, at once.
     *
     * @param window the window; zero or more
     * @return this builder
     */
    public Builder firstPollWithin(Duration window) {
      this.firstPollWithin = Checks.nonNegative("firstPollWithin", window);
      return this;
    }

    /**
     * Keep polling through {@code input_needed} instead of stopping there.
     *
     * @param wait true to keep polling
     * @return this builder
     */
    public Builder waitThroughInputNeeded(boolean wait) {
      this.waitThroughInputNeeded = wait;
      return this;
    }

    /**
     * The {@link PollOptions#onStateChange() listener of state changes}; must not block for long.
     *
     * @param listener the listener
     * @return this builder
     */
    public Builder onStateChange(Consumer<DocumentSet> listener) {
      this.onStateChange = Objects.requireNonNull(listener, "listener");
      return this;
    }

    /**
     * The {@link PollOptions#clock() wall clock} of waits; default the client's.
     *
     * @param clock the clock
     * @return this builder
     */
    public Builder clock(Clock clock) {
      this.clock = Objects.requireNonNull(clock, "clock");
      return this;
    }

    /**
     * The {@link PollOptions#retryFailuresAfter() pause after a failure that does not pass}.
     *
     * @param pause positive
     * @return this builder
     */
    public Builder retryFailuresAfter(Duration pause) {
      this.retryFailuresAfter = Checks.positive("retryFailuresAfter", pause);
      return this;
    }

    /**
     * The options.
     *
     * @return the options
     * @throws IllegalArgumentException if the initial interval exceeds the max interval
     */
    public PollOptions build() {
      if (initialInterval.compareTo(maxInterval) > 0) {
        throw Port.invalid(
            "initialInterval " + initialInterval + " exceeds maxInterval " + maxInterval);
      }
      return new PollOptions(this);
    }
  }
}
