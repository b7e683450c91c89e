package io.formation.sandbox;

import java.time.Duration;
import java.util.Objects;

/**
 * Which failures a {@link FormationSandbox} injects, on what fraction of API requests, drawn from a
 * seeded random sequence so that a test reproduces them exactly. Immutable.
 *
 * <pre>{@code
 * Faults faults =
 *     Faults.none()
 *         .withRateLimited(0.10)   // 429 with Retry-After
 *         .withUnavailable(0.05)   // 503
 *         .withDropped(0.05)       // connection closed without an answer
 *         .withSeed(42);
 * try (FormationSandbox sandbox =
 *     FormationSandbox.start(SandboxOptions.defaults().withFaults(faults))) {
 *   ...
 *   assertThat(sandbox.requests()).filteredOn(r -> r.fault().isPresent()).isNotEmpty();
 * }
 * }</pre>
 *
 * <p>For every request under {@code /v1}, in the order they arrive, the sandbox draws one number
 * from a {@link java.util.Random} seeded with {@link #seed()} and picks at most one fault:
 *
 * <ul>
 *   <li>{@link SandboxRequest.Fault#RATE_LIMITED}: {@code 429} with a {@code Retry-After} header of
 *       {@link #retryAfter()} in whole seconds, before the request is processed. Until that time
 *       has passed on the sandbox's clock every further request gets {@code 429} too, with the
 *       seconds that remain, so a client that comes back too early is rate limited again.
 *   <li>{@link SandboxRequest.Fault#UNAVAILABLE}: {@code 503} before the request is processed.
 *   <li>{@link SandboxRequest.Fault#DROPPED}: the connection is closed without a response. Half of
 *       dropped requests (again by the seeded sequence) are processed first and only the answer is
 *       lost, as when a network fails on the way back: a dropped create may or may not have created
 *       a document set. {@link SandboxRequest#processed()} says which.
 * </ul>
 *
 * <p>The app page (the document set's app link) never fails. The fractions add up to at most 1.
 */
public final class Faults {
  /** The seed unless told otherwise. */
  public static final long DEFAULT_SEED = 1L;

  /** The {@code Retry-After} of a {@code 429} unless told otherwise. */
  public static final Duration DEFAULT_RETRY_AFTER = Duration.ofSeconds(1);

  private static final Faults NONE = new Faults(0, 0, 0, DEFAULT_SEED, DEFAULT_RETRY_AFTER);

  private final double rateLimited;
  private final double unavailable;
  private final double dropped;
  private final long seed;
  private final Duration retryAfter;

  private Faults(
      double rateLimited, double unavailable, double dropped, long seed, Duration retryAfter) {
    this.rateLimited = fraction("rateLimited", rateLimited);
    this.unavailable = fraction("unavailable", unavailable);
    this.dropped = fraction("dropped", dropped);
    if (rateLimited + unavailable + dropped > 1.0) {
      throw new IllegalArgumentException("the fault fractions must add up to at most 1");
    }
    this.seed = seed;
    Objects.requireNonNull(retryAfter, "retryAfter");
    if (retryAfter.isNegative()) {
      throw new IllegalArgumentException("retryAfter must not be negative");
    }
    this.retryAfter = retryAfter;
  }

  private static double fraction(String name, double value) {
    if (!(value >= 0.0 && value <= 1.0)) {
      throw new IllegalArgumentException(name + " must be a fraction from 0 to 1, got " + value);
    }
    return value;
  }

  /** Returns no faults at all: every request is answered normally. */
  public static Faults none() {
    return NONE;
  }

  /**
   * Returns faults on this fraction of requests in all, split evenly between rate limiting,
   * unavailability and dropped connections.
   */
  public static Faults evenly(double fraction) {
    fraction("fraction", fraction);
    double each = fraction / 3;
    return new Faults(each, each, each, DEFAULT_SEED, DEFAULT_RETRY_AFTER);
  }

  /** Returns a copy answering {@code 429} to this fraction of requests. */
  public Faults withRateLimited(double fraction) {
    return new Faults(fraction, unavailable, dropped, seed, retryAfter);
  }

  /** Returns a copy answering {@code 503} to this fraction of requests. */
  public Faults withUnavailable(double fraction) {
    return new Faults(rateLimited, fraction, dropped, seed, retryAfter);
  }

  /** Returns a copy dropping the connection of this fraction of requests. */
  public Faults withDropped(double fraction) {
    return new Faults(rateLimited, unavailable, fraction, seed, retryAfter);
  }

  /** Returns a copy drawing from a sequence with this seed. */
  public Faults withSeed(long seed) {
    return new Faults(rateLimited, unavailable, dropped, seed, retryAfter);
  }

  /** Returns a copy whose {@code 429}s ask to wait this long (rounded up to whole seconds). */
  public Faults withRetryAfter(Duration retryAfter) {
    return new Faults(rateLimited, unavailable, dropped, seed, retryAfter);
  }

  /** Returns the fraction of requests answered {@code 429}. */
  public double rateLimited() {
    return rateLimited;
  }

  /** Returns the fraction of requests answered {@code 503}. */
  public double unavailable() {
    return unavailable;
  }

  /** Returns the fraction of requests whose connection is dropped. */
  public double dropped() {
    return dropped;
  }

  /** Returns the seed of the sequence that picks the requests to fail. */
  public long seed() {
    return seed;
  }

  /** Returns how long a {@code 429} asks a client to wait; default 1 second. */
  public Duration retryAfter() {
    return retryAfter;
  }

  /** Returns whether any fault can happen. */
  public boolean any() {
    return rateLimited + unavailable + dropped > 0;
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof Faults that
        && rateLimited == that.rateLimited
        && unavailable == that.unavailable
        && dropped == that.dropped
        && seed == that.seed
        && retryAfter.equals(that.retryAfter);
  }

  @Override
  public int hashCode() {
    return Objects.hash(rateLimited, unavailable, dropped, seed, retryAfter);
  }

  @Override
  public String toString() {
    return "Faults[rateLimited="
        + rateLimited
        + ", unavailable="
        + unavailable
        + ", dropped="
        + dropped
        + ", seed="
        + seed
        + ", retryAfter="
        + retryAfter
        + "]";
  }
}
