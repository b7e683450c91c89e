package io.formation.sdk.internal;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Set;
import java.util.function.DoubleSupplier;
import okhttp3.Headers;

/**
 * Decides whether a failed attempt is tried again and after how long: the one home of the retry
 * rules, shared by the blocking and the async transport so both retry the same way. The statuses
 * the rules turn on stand side by side here.
 *
 * @param maxRetries the client's retries after the first attempt; a call's own options may differ
 * @param baseDelay the first backoff without {@code Retry-After}, doubled on each retry
 * @param maxDelay the longest backoff without {@code Retry-After}
 * @param maxRetryAfter the longest Retry-After waited out; also the longest the client pauses an
 *     origin
 * @param callTimeout the client's timeout of one attempt, for a request's deadline
 * @param clock reads the dates of {@code Retry-After}
 * @param ticker measures how long a call has been held
 * @param random the jitter's source
 */
public record RetryPolicy(
    int maxRetries,
    Duration baseDelay,
    Duration maxDelay,
    Duration maxRetryAfter,
    Duration callTimeout,
    Clock clock,
    Ticker ticker,
    DoubleSupplier random) {
  /**
   * Retried: "try again later". A POST only on 429, which says the service did not act on it; the
   * others may come after the service acted.
   */
  private static final Set<Integer> RETRIED = Set.of(408, 429, 500, 502, 503, 504);

  /**
   * Replays refused: answers OkHttp would follow up on by itself (a 503 with {@code Retry-After:
   * 0}, a 408, a 421), re-sending behind the policy's back; {@link NetworkInterceptor} keeps the
   * answer and lets the policy decide instead.
   */
  static final Set<Integer> REPLAYS_REFUSED = Set.of(408, 421, 503);

  /**
   * Pauses the origin: a refusal that speaks for the whole service, so its {@code Retry-After}
   * holds every call of the client to that origin ({@link Throttle#observe}).
   */
  private static final Set<Integer> PAUSES_ORIGIN = Set.of(429, 503);

  /**
   * The least time between an answer and the request that follows it, whatever {@code Retry-After}
   * says ({@code 0}, or a date already past): also the least between two polls of one wait.
   */
  public static final Duration MIN_GAP = Duration.ofMillis(100);

  /** The least a backoff without Retry-After is cut by its jitter, as a fraction of it. */
  private static final double JITTER_FLOOR = 0.75;

  private static final Set<String> IDEMPOTENT_METHODS =
      Set.of("GET", "HEAD", "OPTIONS", "PUT", "DELETE");

  /**
   * The wait before the next attempt, or null when the outcome is final: no retries left, not
   * retryable, or the wait would end past the request's deadline.
   *
   * @param attempt how many attempts were made so far, starting at 1
   */
  Duration delayAfter(ApiRequest request, int attempt, Outcome outcome) {
    if (attempt > request.options().maxRetries().orElse(maxRetries)
        || !isRetryable(request.method(), outcome)) {
      return null;
    }
    Duration delay = delayBefore(attempt, outcome);
    if (delay == null) {
      return null;
    }
    // However long the service asks, a wait no clock or log arithmetic overflows on.
    delay = Checks.capped(delay);
    // A wait the service asked for holds the call as a pause does: not past what its caller
    // allowed. A backoff of the SDK's own is bounded by a poll's wait only.
    boolean asked = outcome.failure() == null && retryAfter(outcome.headers()) != null;
    long latest =
        asked
            ? latestStart(request, ticker.nanoTime())
            : request.isPoll() ? request.deadline() : Ticker.NEVER;
    return ticker.until(latest).compareTo(delay) < 0 ? null : delay;
  }

  /**
   * The latest a call may still be sent, a {@link Ticker} reading: its own timeout from now (or the
   * client's {@code callTimeout}; none if that is zero), and for a poll its wait's deadline too.
   * The one bound of how long a call is held, by a retry's {@code Retry-After}, a pause or the
   * request budget's queue.
   */
  long latestStart(ApiRequest request, long now) {
    Duration timeout = request.options().timeout().orElse(callTimeout);
    long own = timeout.isZero() ? Ticker.NEVER : now + Checks.capped(timeout).toNanos();
    if (!request.isPoll()) {
      return own;
    }
    return own == Ticker.NEVER || request.deadline() - own < 0 ? request.deadline() : own;
  }

  private Duration delayBefore(int attempt, Outcome outcome) {
    Duration retryAfter = outcome.failure() == null ? retryAfter(outcome.headers()) : null;
    if (retryAfter != null) {
      // Retrying sooner than the service asked would only earn another refusal: a wait longer
      // than the cap goes back to the caller, with the Retry-After in the exception.
      return retryAfter.compareTo(maxRetryAfter) > 0 ? null : atLeastMinGap(retryAfter);
    }
    // Exponential backoff, jittered between three quarters and all of it, and never under the base
    // delay: full jitter from zero once sent two polls 19 ms apart.
    long capMillis =
        Math.min(maxDelay.toMillis(), baseDelay.toMillis() << Math.min(attempt - 1, 20));
    double share = JITTER_FLOOR + (1 - JITTER_FLOOR) * random.getAsDouble();
    long millis = Math.max(Math.min(baseDelay.toMillis(), capMillis), (long) (share * capMillis));
    return Duration.ofMillis(millis);
  }

  /**
   * The answer's Retry-After as a wait honours it: at most {@code maxRetryAfter} (the longest the
   * client pauses an origin too) and at least {@link #MIN_GAP}; null if the answer has none.
   */
  public Duration honouredRetryAfter(Headers headers) {
    Duration retryAfter = retryAfter(headers);
    return retryAfter == null
        ? null
        : atLeastMinGap(retryAfter.compareTo(maxRetryAfter) > 0 ? maxRetryAfter : retryAfter);
  }

  private static Duration atLeastMinGap(Duration delay) {
    return delay.compareTo(MIN_GAP) < 0 ? MIN_GAP : delay;
  }

  /** How many attempts a call may make in all. */
  int maxAttempts(ApiRequest request) {
    return request.options().maxRetries().orElse(maxRetries) + 1;
  }

  /** Statuses that say "try again later": 408, 429, 500, 502, 503, 504. */
  public static boolean isTransient(int status) {
    // A success is told without a lookup, which would box its status on every call.
    return status >= 400 && RETRIED.contains(status);
  }

  /** Whether a refusal with this status and a Retry-After pauses its whole origin. */
  static boolean pausesOrigin(int status) {
    return PAUSES_ORIGIN.contains(status);
  }

  /** Methods that may be sent again without changing the outcome (RFC 9110 idempotent). */
  static boolean isIdempotent(String method) {
    return IDEMPOTENT_METHODS.contains(method);
  }

  private static boolean isRetryable(String method, Outcome outcome) {
    boolean idempotent = isIdempotent(method);
    if (outcome.failure() != null) {
      // Once a request was written, the service may have acted on it: only idempotent methods
      // may go again.
      return !outcome.stopped()
          && !(outcome.failure() instanceof FinalFailure)
          && (idempotent || !outcome.requestSent());
    }
    int status = outcome.statusCode();
    // A 429 means the service refused the request without acting on it, so even POST may retry.
    return isTransient(status) && (idempotent || status == 429);
  }

  /**
   * Reads Retry-After as delay-seconds or an HTTP date; null if absent or unreadable. The wall
   * clock is read here only, to turn a date into a delay.
   */
  public Duration retryAfter(Headers headers) {
    String value = headers.get("Retry-After");
    if (value == null) {
      return null;
    }
    try {
      long seconds = Long.parseLong(value.strip());
      return seconds < 0 ? null : Duration.ofSeconds(seconds);
    } catch (NumberFormatException notSeconds) {
      Instant date = headers.getInstant("Retry-After");
      if (date == null) {
        return null;
      }
      Duration until = Duration.between(clock.instant(), date);
      return until.isNegative() ? Duration.ZERO : until;
    }
  }
}
