package io.formation.spring.autoconfigure;

import io.formation.sdk.AttemptEvent;
import io.formation.sdk.FormationListener;
import io.formation.sdk.PollOptions;
import io.formation.sdk.model.DocumentSet;
import io.formation.sdk.model.DocumentSetState;
import io.micrometer.core.instrument.Clock;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import okhttp3.HttpUrl;

/**
 * The client's Micrometer meters, built on its listener. Tags take few values only: an operation
 * named from the endpoint's shape (never a set id or a URL), a method, an outcome, a status code
 * and a state.
 *
 * <ul>
 *   <li>{@code formation.client.requests} (timer): each attempt, by operation, method, outcome and
 *       status
 *   <li>{@code formation.client.retries} (counter): retries scheduled, by operation and status
 *   <li>{@code formation.client.retry.pauses} (timer): the pauses before them, by operation
 *   <li>{@code formation.client.waits.active} (gauge): document sets being waited for
 *   <li>{@code formation.client.state.changes} (counter): states a wait saw a set enter, by state
 * </ul>
 */
final class FormationMeters implements FormationListener {
  /**
   * A set not polled for this long is no longer counted as waited for: a wait that ended without
   * completion (a timeout, input needed, a cancelled future) sends no event of its own.
   */
  static final Duration STALE_AFTER = PollOptions.defaults().maxInterval().multipliedBy(3);

  /**
   * The most sets counted as waited for; the gauge stops there rather than let the listener's
   * memory grow with every set polled (about 100 bytes a set).
   */
  static final int MAX_SETS = 100_000;

  private final MeterRegistry registry;
  private final Clock clock;
  private final Map<String, Long> lastPolledNanos = new ConcurrentHashMap<>();
  private final AtomicLong lastPrunedNanos;

  FormationMeters(MeterRegistry registry) {
    this.registry = registry;
    this.clock = registry.config().clock();
    this.lastPrunedNanos = new AtomicLong(clock.monotonicTime());
    Gauge.builder("formation.client.waits.active", this, FormationMeters::activeWaits)
        .description("Document sets a wait for completion is polling")
        .register(registry);
  }

  @Override
  public void attemptFinished(AttemptEvent attempt) {
    Timer.builder("formation.client.requests")
        .description("Attempts of calls to the Formation Service")
        .tag("operation", operation(attempt.method(), attempt.url()))
        .tag("method", attempt.method())
        .tag("outcome", outcome(attempt.statusCode()))
        .tag("status", attempt.statusCode() == 0 ? "NONE" : Integer.toString(attempt.statusCode()))
        .register(registry)
        .record(attempt.took());
  }

  @Override
  public void retryScheduled(AttemptEvent attempt, Duration wait) {
    String operation = operation(attempt.method(), attempt.url());
    Counter.builder("formation.client.retries")
        .description("Retries scheduled after a failed attempt")
        .tag("operation", operation)
        .tag("status", attempt.statusCode() == 0 ? "NONE" : Integer.toString(attempt.statusCode()))
        .register(registry)
        .increment();
    Timer.builder("formation.client.retry.pauses")
        .description("Pauses before a retry")
        .tag("operation", operation)
        .register(registry)
        .record(wait);
  }

  @Override
  public void polled(DocumentSet set) {
    if (set.state().isComplete()) {
      lastPolledNanos.remove(set.id());
      return;
    }
    long now = clock.monotonicTime();
    // Pruned as sets are polled too, not only when the gauge is read: a registry may never read it.
    long pruned = lastPrunedNanos.get();
    if (now - pruned > STALE_AFTER.toNanos() && lastPrunedNanos.compareAndSet(pruned, now)) {
      pruneStale(now);
    }
    if (lastPolledNanos.size() < MAX_SETS || lastPolledNanos.containsKey(set.id())) {
      lastPolledNanos.put(set.id(), now);
    }
  }

  @Override
  public void stateChanged(DocumentSet set) {
    DocumentSetState state = set.state();
    Counter.builder("formation.client.state.changes")
        .description("States a wait for completion saw a document set enter")
        // A state the interface does not list could be anything: one tag value for them all.
        .tag("state", state.isKnown() ? state.value() : "unknown")
        .register(registry)
        .increment();
  }

  double activeWaits() {
    pruneStale(clock.monotonicTime());
    return lastPolledNanos.size();
  }

  /** {@return how many sets this listener holds an entry for} */
  int entries() {
    return lastPolledNanos.size();
  }

  private void pruneStale(long now) {
    long stale = STALE_AFTER.toNanos();
    lastPolledNanos.values().removeIf(last -> now - last > stale);
  }

  /** The endpoint's shape, such as {@code document_sets.get}; {@code action} for the rest. */
  static String operation(String method, String url) {
    HttpUrl parsed = HttpUrl.parse(url);
    if (parsed != null) {
      List<String> segments = parsed.pathSegments();
      int v1 = segments.lastIndexOf("v1");
      if (v1 >= 0) {
        List<String> path = segments.subList(v1 + 1, segments.size());
        boolean get = method.equals("GET");
        if (get && path.equals(List.of("teams"))) {
          return "teams.list";
        }
        if (path.size() == 1 && path.get(0).equals("document_sets") && method.equals("POST")) {
          return "document_sets.create";
        }
        if (get && path.size() == 2 && path.get(0).equals("document_sets")) {
          return "document_sets.get";
        }
        if (get && path.size() == 3 && path.get(0).equals("document_sets")) {
          if (path.get(2).equals("forms")) {
            return "forms.list";
          }
        }
      }
    }
    // Action urls are opaque and may carry ids: never a tag of their own.
    return "action";
  }

  static String outcome(int status) {
    if (status == 0) {
      return "NETWORK_ERROR";
    }
    if (status < 300) {
      return "SUCCESS";
    }
    if (status < 400) {
      return "REDIRECTION";
    }
    return status < 500 ? "CLIENT_ERROR" : "SERVER_ERROR";
  }
}
