package io.formation.sdk.internal.limits;

import io.formation.sdk.internal.time.Time;
import io.formation.sdk.internal.transport.ApiRequest;
import io.formation.sdk.internal.transport.FinalFailure;
import io.formation.sdk.internal.transport.Outcome;
import java.time.Duration;
import java.time.Instant;
import java.util.Set;
import okhttp3.Headers;

/** What an answer means: retried or not, the Retry-After honoured, a pause, a lesson. */
public final class RetryPolicy {
  /** "Try again later": a POST only on 429, the one answer that says nothing was done. */
  private static final Set<Integer> RETRIED = Set.of(408, 429, 500, 502, 503, 504);

  /** Answers OkHttp would follow up on by itself; the network interceptor keeps them instead. */
  public static final Set<Integer> REPLAYS_REFUSED = Set.of(408, 421, 503);

  /** Refusals that speak for the whole origin: their {@code Retry-After} pauses every call. */
  private static final Set<Integer> PAUSES_ORIGIN = Set.of(429, 503);

  /** The least time between two polls of a wait, and between a poll and its backoff's retry. */
  public static final Duration MIN_GAP = Duration.ofMillis(100);

  /** The AWS SDK v2's base and full jitter, for failures that are not throttling. */
  static final Backoff BACKOFF = new Backoff(Duration.ofMillis(100), 2, Duration.ofSeconds(8), 1);

  private static final Set<String> IDEMPOTENT_METHODS =
      Set.of("GET", "HEAD", "OPTIONS", "PUT", "DELETE");

  private final int maxRetries;
  private final Duration maxRetryAfter;
  private final Duration callTimeout;
  private final Time time;

  public RetryPolicy(int maxRetries, Duration maxRetryAfter, Duration callTimeout, Time time) {
    this.maxRetries = maxRetries;
    this.maxRetryAfter = maxRetryAfter;
    this.callTimeout = callTimeout;
    this.time = time;
  }

  /** The wait before the next attempt, or null when the outcome is final. */
  public Duration delayAfter(ApiRequest request, int attempt, Outcome outcome) {
    if (attempt >= maxAttempts(request) || !isRetryable(request.method(), outcome)) {
      return null;
    }
    Duration asked = outcome.failure() == null ? retryAfter(outcome.headers()) : null;
    Duration delay;
    long latest;
    if (asked != null) {
      // Sooner than asked would only earn another refusal: the caller gets the answer instead.
      Duration honoured = honoured(asked);
      if (honoured.compareTo(asked) < 0) {
        return null;
      }
      delay = Time.capped(honoured);
      latest = latestStart(request, time.now());
    } else {
      // Calls that failed together spread over the step; the top draw keeps all of it.
      delay = BACKOFF.jittered(BACKOFF.nth(attempt), 1 - time.draw());
      latest = request.isPoll() ? request.deadline() : Time.NEVER;
    }
    // A poll's retry is a poll of its wait, "go on" included: never within MIN_GAP of the last.
    delay = request.isPoll() ? atLeastMinGap(delay) : delay;
    return time.ticker().until(latest).compareTo(delay) < 0 ? null : delay;
  }

  /** The latest a call may still go: the one bound of how long a call is held. */
  public long latestStart(ApiRequest request, long now) {
    Duration timeout = request.options().timeout().orElse(callTimeout);
    long own = timeout.isZero() ? Time.NEVER : Time.after(now, timeout);
    return request.isPoll() && Time.left(own, request.deadline()) > 0 ? request.deadline() : own;
  }

  public int maxAttempts(ApiRequest request) {
    return request.options().maxRetries().orElse(maxRetries) + 1;
  }

  /** The {@code Retry-After} as honoured: at most {@code maxRetryAfter}. */
  private Duration honoured(Duration asked) {
    return asked.compareTo(maxRetryAfter) > 0 ? maxRetryAfter : asked;
  }

  /** The pause of the whole origin this answer asks for, or null. */
  Duration pauseAfter(Outcome outcome) {
    Duration asked =
        outcome.failure() == null && PAUSES_ORIGIN.contains(outcome.statusCode())
            ? retryAfter(outcome.headers())
            : null;
    return asked == null || asked.isZero() ? null : Time.capped(honoured(asked));
  }

  /** Whether the answer is a refusal the adaptive rate learns from: a 429, or a 503 with a date. */
  boolean teachesRate(Outcome outcome) {
    int status = outcome.statusCode();
    return outcome.failure() == null
        && (status == 429 || status == 503 && retryAfter(outcome.headers()) != null);
  }

  /** Whether the answer counts in the rate the service answers at: neither a refusal nor none. */
  boolean isAnswered(Outcome outcome) {
    return outcome.failure() == null && !PAUSES_ORIGIN.contains(outcome.statusCode());
  }

  /** How long a wait holds its next poll after an answer: its honoured {@code Retry-After}. */
  public Duration waitAfter(Headers headers) {
    Duration asked = retryAfter(headers);
    return asked == null ? Duration.ZERO : atLeastMinGap(honoured(asked));
  }

  private static Duration atLeastMinGap(Duration delay) {
    return delay.compareTo(MIN_GAP) < 0 ? MIN_GAP : delay;
  }

  /**
   * Statuses that say "try again later": 408, 429, 500, 502, 503, 504; a wait rides through them to
   * its next poll.
   */
  public static boolean isTransient(int status) {
    // A success needs no lookup, which would box its status on every call.
    return status >= 400 && RETRIED.contains(status);
  }

  /** Methods that may be sent again without changing the outcome (RFC 9110 idempotent). */
  public static boolean isIdempotent(String method) {
    return IDEMPOTENT_METHODS.contains(method);
  }

  private static boolean isRetryable(String method, Outcome outcome) {
    boolean idempotent = isIdempotent(method);
    if (outcome.failure() != null) {
      // Once written, a request may have been acted on: only idempotent methods go again.
      return !outcome.stopped()
          && !(outcome.failure() instanceof FinalFailure)
          && (idempotent || !outcome.requestSent());
    }
    int status = outcome.statusCode();
    return isTransient(status) && (idempotent || status == 429);
  }

  /** Reads {@code Retry-After} as seconds or an HTTP date; null if absent or unreadable. */
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
      Duration until = Duration.between(time.clock().instant(), date);
      return until.isNegative() ? Duration.ZERO : until;
    }
  }
}
