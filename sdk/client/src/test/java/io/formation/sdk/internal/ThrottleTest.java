package io.formation.sdk.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.formation.sdk.RequestOptions;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import okhttp3.Headers;
import okhttp3.HttpUrl;
import org.junit.jupiter.api.Test;

/** The client's shared view of the service's limits, stepped through with a manual clock. */
class ThrottleTest {
  static final HttpUrl SET = HttpUrl.get("https://api.example.com/v1/document_sets/a");
  static final HttpUrl OTHER_ORIGIN = HttpUrl.get("https://files.example.com/v1/x");

  final ManualTime time = new ManualTime();
  final RetryPolicy policy =
      new RetryPolicy(
          2,
          Duration.ofMillis(500),
          Duration.ofSeconds(8),
          Duration.ofMinutes(1),
          time,
          time,
          () -> 1.0);

  Throttle throttle(double perSecond, int burst) {
    return new Throttle(time, time, () -> 1.0, policy, perSecond, burst);
  }

  static ApiRequest poll(HttpUrl url) {
    return ApiRequest.get(url, ApiRequest.ANY_JSON, RequestOptions.none()).asPoll(Long.MAX_VALUE);
  }

  static ApiRequest create() {
    return new ApiRequest(
        "POST",
        HttpUrl.get("https://api.example.com/v1/document_sets"),
        new byte[0],
        "*/*",
        RequestOptions.none());
  }

  static Outcome answer(int status, String retryAfter) {
    Headers headers = retryAfter == null ? Headers.of() : Headers.of("Retry-After", retryAfter);
    return new Outcome(status, headers, new byte[0], false, null, true, false, null);
  }

  @Test
  void withoutABudgetOrAPauseEveryCallGoesAtOnce() {
    Throttle throttle = throttle(0, 0);
    for (int i = 0; i < 100; i++) {
      assertThat(throttle.acquire(poll(SET))).isDone();
    }
  }

  @Test
  void a429WithRetryAfterPausesEveryCallToThatOriginUntilThenWithJitter() {
    Throttle throttle = throttle(0, 0);
    throttle.observe(poll(SET), answer(429, "10"), time.nanoTime());

    CompletableFuture<IOException> held = throttle.acquire(create());
    CompletableFuture<IOException> elsewhere = throttle.acquire(poll(OTHER_ORIGIN));

    assertThat(elsewhere).isDone();
    time.advance(Duration.ofSeconds(10));
    assertThat(held).isNotDone();
    // Each paused call adds up to the pause again (here the most: random is 1.0).
    time.advance(Duration.ofSeconds(10));
    assertThat(held).isDone();
    assertThat(throttle.acquire(create())).isDone();
  }

  @Test
  void refusalsOfCallsSentDuringAPauseOrItsResumeDoNotPauseAgain() {
    Throttle throttle = throttle(0, 0);
    long sentTogether = time.nanoTime();
    throttle.observe(poll(SET), answer(429, "10"), sentTogether);
    time.advance(Duration.ofSeconds(2));
    // Another call sent at the same moment comes back refused two seconds later: old news.
    throttle.observe(poll(SET), answer(429, "10"), sentTogether);
    CompletableFuture<IOException> held = throttle.acquire(poll(SET));
    time.advance(Duration.ofMillis(8_000 + 10_000));
    assertThat(held).isDone();
    // A call sent while the held calls resume (up to 10 s after the pause) is refused: expected.
    throttle.observe(
        poll(SET), answer(429, "10"), time.nanoTime() - Duration.ofSeconds(1).toNanos());
    assertThat(throttle.acquire(poll(SET))).isDone();

    // Once they have all resumed, a refusal pauses the origin again.
    throttle.observe(poll(SET), answer(429, "10"), time.nanoTime());
    assertThat(throttle.acquire(poll(SET))).isNotDone();
  }

  @Test
  void a503WithRetryAfterPausesTooButOneWithoutRetryAfterDoesNot() {
    Throttle throttle = throttle(0, 0);
    throttle.observe(poll(SET), answer(503, null), time.nanoTime());
    assertThat(throttle.acquire(poll(SET))).isDone();
    throttle.observe(poll(SET), answer(503, "2"), time.nanoTime());
    assertThat(throttle.acquire(poll(SET))).isNotDone();
  }

  @Test
  void aPollIsNotHeldPastItsDeadlineButToldItCannotBeSent() {
    Throttle throttle = throttle(0, 0);
    throttle.observe(poll(SET), answer(429, "30"), time.nanoTime());
    ApiRequest poll =
        ApiRequest.get(SET, ApiRequest.ANY_JSON, RequestOptions.none())
            .asPoll(time.after(Duration.ofSeconds(5)));

    CompletableFuture<IOException> turn = throttle.acquire(poll);

    assertThat(turn).isCompleted();
    assertThat(turn.join()).hasMessageContaining("past the wait's deadline");
  }

  @Test
  void theBudgetSpacesCallsAsConfigured() {
    Throttle throttle = throttle(2, 2);
    List<CompletableFuture<IOException>> turns = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      turns.add(throttle.acquire(poll(SET)));
    }
    // The burst goes at once, then one every half second.
    assertThat(turns).filteredOn(CompletableFuture::isDone).hasSize(2);
    time.advance(Duration.ofMillis(499));
    assertThat(turns).filteredOn(CompletableFuture::isDone).hasSize(2);
    time.advance(Duration.ofMillis(1));
    assertThat(turns).filteredOn(CompletableFuture::isDone).hasSize(3);
    time.advance(Duration.ofMillis(1_000));
    assertThat(turns).allMatch(CompletableFuture::isDone);
  }

  @Test
  void waitingCallsAreServedInTheOrderTheyCameAndCreatesGoBeforePolls() {
    Throttle throttle = throttle(1, 1);
    List<String> served = new ArrayList<>();
    throttle.acquire(poll(SET));
    for (String name : List.of("poll 1", "poll 2", "poll 3")) {
      throttle.acquire(poll(SET)).thenRun(() -> served.add(name));
    }
    throttle.acquire(create()).thenRun(() -> served.add("create"));

    for (int second = 0; second < 4; second++) {
      time.advance(Duration.ofSeconds(1));
    }

    assertThat(served).containsExactly("create", "poll 1", "poll 2", "poll 3");
  }

  @Test
  void aCancelledWaitGivesItsTurnToTheNextOne() {
    Throttle throttle = throttle(1, 1);
    throttle.acquire(poll(SET));
    CompletableFuture<IOException> cancelled = throttle.acquire(poll(SET));
    CompletableFuture<IOException> next = throttle.acquire(poll(SET));
    cancelled.cancel(false);
    time.advance(Duration.ofSeconds(1));
    assertThat(next).isDone();
  }

  @Test
  void closingTheSleeperFailsTheCallsStillWaitingForTheBudget() {
    Throttle throttle = throttle(1, 1);
    throttle.acquire(poll(SET));
    CompletableFuture<IOException> waiting = throttle.acquire(poll(SET));
    time.close();
    assertThat(waiting).isCompletedExceptionally();
  }

  /** A clock and sleeper that move only when the test says: waits complete as time passes them. */
  static final class ManualTime extends Clock implements Sleeper, Ticker {
    private static final Instant START = Instant.parse("2026-01-01T00:00:00Z");
    private Instant now = START;
    private final List<Pending> pending = new ArrayList<>();

    record Pending(Instant due, CompletableFuture<Void> done) {}

    @Override
    public void sleep(Duration duration) {
      throw new UnsupportedOperationException("async only");
    }

    @Override
    public CompletableFuture<Void> delay(Duration duration) {
      CompletableFuture<Void> done = new CompletableFuture<>();
      if (duration.isZero()) {
        done.complete(null);
      } else {
        pending.add(new Pending(now.plus(duration), done));
      }
      return done;
    }

    void advance(Duration duration) {
      Instant until = now.plus(duration);
      while (true) {
        Pending next =
            pending.stream()
                .filter(p -> !p.due().isAfter(until))
                .min((a, b) -> a.due().compareTo(b.due()))
                .orElse(null);
        if (next == null) {
          break;
        }
        pending.remove(next);
        now = next.due();
        next.done().complete(null);
      }
      now = until;
    }

    void close() {
      List<Pending> all = new ArrayList<>(pending);
      pending.clear();
      all.forEach(p -> p.done().completeExceptionally(new IllegalStateException("closed")));
    }

    @Override
    public long nanoTime() {
      return Duration.between(START, now).toNanos();
    }

    @Override
    public Instant instant() {
      return now;
    }

    @Override
    public ZoneId getZone() {
      return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
      return this;
    }
  }
}
