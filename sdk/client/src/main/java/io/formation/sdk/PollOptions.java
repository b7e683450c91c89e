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
 * timeout, a 60 second grace period for {@code input_needed}, no listener. A duration too long for
 * clock arithmetic is taken as about a hundred years: a timeout that long means no timeout.
 */
public final class PollOptions {
  private static final PollOptions DEFAULTS = builder().build();

  // A private copy of the builder that made these options, never changed.
  private final Builder settings;

  private PollOptions(Builder builder) {
    this.settings = new Builder(builder);
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
    return new Builder(settings);
  }

  /** {@return the wait after the first poll} */
  public Duration initialInterval() {
    return settings.initialInterval;
  }

  /** {@return how much each wait grows over the previous one} */
  public double multiplier() {
    return settings.multiplier;
  }

  /** {@return the longest wait between two polls} */
  public Duration maxInterval() {
    return settings.maxInterval;
  }

  /** {@return the fraction each wait is shortened by at random, so many pollers spread out} */
  public double jitter() {
    return settings.jitter;
  }

  /** {@return how long to wait in all before giving up with {@link PollTimeoutException}} */
  public Duration timeout() {
    return settings.timeout;
  }

  /**
   * {@return how long a set still {@code input_needed} is polled before the wait reports that it
   * needs input, as the {@link WaitState} rule says}
   */
  public Duration inputNeededGrace() {
    return settings.inputNeededGrace;
  }

  /**
   * {@return the window a first poll that is already due falls in, at random, never after the
   * deadline} It spreads the polls of many waits resumed together; zero (the default) polls at
   * once, and a resumed wait whose next poll is still ahead polls then.
   */
  public Duration firstPollWithin() {
    return settings.firstPollWithin;
  }

  /** {@return whether to keep polling through {@code input_needed} instead of stopping} */
  public boolean waitThroughInputNeeded() {
    return settings.waitThroughInputNeeded;
  }

  /**
   * {@return the one listener a wait tells state changes to} It is called with the document set on
   * the wait's first successful poll and at each change of its state, by {@link
   * DocumentSets#awaitCompletion} and each {@link DocumentSets#poll step} alike; what it throws
   * ends the wait.
   */
  public Consumer<DocumentSet> onStateChange() {
    return settings.onStateChange;
  }

  /**
   * {@return the wall clock a wait reads its instants on; empty for the client's} Processes that
   * share saved waits set one clock they agree on, such as the database's.
   */
  public Optional<Clock> clock() {
    return Optional.ofNullable(settings.clock);
  }

  /**
   * {@return the pause after a poll that failed in a way that does not pass by itself (400, 401,
   * 403, not a document set) before the wait polls again; empty (the default) ends the wait} Such a
   * poll's result is {@link PollResult.Kind#FAILED}. Never past the deadline: a failure that lasts
   * until then is the cause of the {@link PollTimeoutException}. A set the service does not know
   * (404) always ends the wait.
   */
  public Optional<Duration> retryFailuresAfter() {
    return Optional.ofNullable(settings.retryFailuresAfter);
  }

  @Override
  public String toString() {
    return ("PollOptions{initialInterval=%s, multiplier=%s, maxInterval=%s, jitter=%s, timeout=%s,"
            + " inputNeededGrace=%s, firstPollWithin=%s, waitThroughInputNeeded=%s%s}")
        .formatted(
            initialInterval(),
            multiplier(),
            maxInterval(),
            jitter(),
            timeout(),
            inputNeededGrace(),
            firstPollWithin(),
            waitThroughInputNeeded(),
            retryFailuresAfter().map(pause -> ", retryFailuresAfter=" + pause).orElse(""));
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

    private Builder(Builder from) {
      this.initialInterval = from.initialInterval;
      this.multiplier = from.multiplier;
      this.maxInterval = from.maxInterval;
      this.jitter = from.jitter;
      this.timeout = from.timeout;
      this.inputNeededGrace = from.inputNeededGrace;
      this.firstPollWithin = from.firstPollWithin;
      this.waitThroughInputNeeded = from.waitThroughInputNeeded;
      this.onStateChange = from.onStateChange;
      this.clock = from.clock;
      this.retryFailuresAfter = from.retryFailuresAfter;
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
     * {@return the options}
     *
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
