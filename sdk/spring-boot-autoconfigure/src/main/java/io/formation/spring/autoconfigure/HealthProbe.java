package io.formation.spring.autoconfigure;

import io.formation.sdk.ApiException;
import io.formation.sdk.FormationClient;
import io.formation.sdk.FormationException;
import io.formation.sdk.RequestOptions;
import java.time.Duration;
import java.util.function.LongSupplier;

/**
 * Whether the service answers with this token, asked at most once a minute whatever polls the
 * health endpoint: the service is rate-limited, and a load balancer may check health every second.
 * The answer in between is the last one. The request is the cheapest the interface has: the first
 * team, without retries.
 */
final class HealthProbe {
  static final Duration AT_MOST_EVERY = Duration.ofMinutes(1);

  /** The last answer: up or not, and what the service or the network said. */
  record Result(boolean up, String detail) {}

  private final FormationClient client;
  private final LongSupplier nanoTime;
  private Result last;
  private long lastAskedNanos;

  HealthProbe(FormationClient client, LongSupplier nanoTime) {
    this.client = client;
    this.nanoTime = nanoTime;
  }

  synchronized Result check() {
    long now = nanoTime.getAsLong();
    if (last != null && now - lastAskedNanos < AT_MOST_EVERY.toNanos()) {
      return last;
    }
    lastAskedNanos = now;
    last = ask();
    return last;
  }

  private Result ask() {
    try {
      client
          .teams()
          .withOptions(RequestOptions.builder().maxRetries(0).build())
          .list()
          .pageSize(1)
          .pages()
          .iterator()
          .next();
      return new Result(true, "the service answered");
    } catch (ApiException e) {
      // The status says enough; the body and the url stay out of a health report.
      return new Result(false, "the service answered " + e.statusCode());
    } catch (FormationException e) {
      return new Result(false, e.getClass().getSimpleName());
    }
  }
}
