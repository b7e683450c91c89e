package io.formation.spring.autoconfigure;

import io.formation.sdk.ApiException;
import io.formation.sdk.FormationClient;
import io.formation.sdk.FormationException;
import io.formation.sdk.RateLimitException;
import io.formation.sdk.RequestOptions;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.LongSupplier;

/**
 * Whether the service answers with this token, asked at most once a minute whatever polls the
 * health endpoint: the service is rate-limited, and a load balancer may check health every second.
 * The answer in between is the last one, and so is the answer to every check that comes while one
 * caller asks: none waits behind a slow service. The request is the cheapest the interface has: the
 * first team, without retries, within {@link #TIMEOUT}.
 */
final class HealthProbe {
  static final Duration AT_MOST_EVERY = Duration.ofMinutes(1);

  /**
   * The longest a check may take: a call the client's own {@code Retry-After} pause would hold
   * longer fails at once, rather than holding the health endpoint for up to two minutes.
   */
  static final Duration TIMEOUT = Duration.ofSeconds(10);

  private static final RequestOptions OPTIONS =
      RequestOptions.builder().maxRetries(0).timeout(TIMEOUT).build();

  /** What a check reports. */
  enum Status {
    UP,
    DOWN,
    UNKNOWN
  }

  /** The last answer: the status, and what the service or the network said. */
  record Result(Status status, String detail) {}

  private static final Result FIRST_CHECK_UNDER_WAY =
      new Result(Status.UNKNOWN, "the first check is under way");

  private record Asked(Result result, long atNanos) {}

  private final FormationClient client;
  private final LongSupplier nanoTime;
  private final AtomicBoolean asking = new AtomicBoolean();
  private volatile Asked last;

  HealthProbe(FormationClient client, LongSupplier nanoTime) {
    this.client = client;
    this.nanoTime = nanoTime;
  }

  Result check() {
    long now = nanoTime.getAsLong();
    Asked seen = last;
    if (fresh(seen, now)) {
      return seen.result();
    }
    if (!asking.compareAndSet(false, true)) {
      return seen == null ? FIRST_CHECK_UNDER_WAY : seen.result();
    }
    try {
      // Another caller may have asked between the look above and taking the turn.
      seen = last;
      if (fresh(seen, now)) {
        return seen.result();
      }
      Result result = ask();
      last = new Asked(result, now);
      return result;
    } finally {
      asking.set(false);
    }
  }

  private static boolean fresh(Asked asked, long now) {
    return asked != null && now - asked.atNanos() < AT_MOST_EVERY.toNanos();
  }

  private Result ask() {
    try {
      client.teams().withOptions(OPTIONS).list().pageSize(1).pages().iterator().next();
      return new Result(Status.UP, "the service answered");
    } catch (RateLimitException e) {
      // A limit on the token is no fault of this instance: as DOWN it would take every instance
      // sharing the token out of rotation at once.
      return new Result(Status.UP, "the service is rate-limiting this token");
    } catch (ApiException e) {
      // The status says enough; the body and the url stay out of a health report.
      return new Result(Status.DOWN, "the service answered " + e.statusCode());
    } catch (FormationException e) {
      return new Result(Status.DOWN, e.getClass().getSimpleName());
    }
  }
}
