package io.formation.sdk;

import static io.formation.sdk.Fixtures.documentSet;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.formation.sdk.model.DocumentSetState;
import io.formation.testkit.FakeTime;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * A reviewer's properties of tracing: random sequences of attempt outcomes against the spans and
 * the headers the server saw, any span context against the saved wait, clocks that disagree against
 * the durations a {@link StateChange} reports.
 */
class TracingPromisesReviewProperties {
  static final int MAX_RETRIES = 4;

  /** One answer of the server: its status and Retry-After, if any. */
  record Answer(int status, String retryAfter) {
    MockResponse response() {
      if (status == 200) {
        return documentSet("ds_1", "processing");
      }
      MockResponse.Builder builder = new MockResponse.Builder().code(status);
      if (retryAfter != null) {
        builder.addHeader("Retry-After", retryAfter);
      }
      return builder.build();
    }

    @Override
    public String toString() {
      return status + (retryAfter == null ? "" : "(Retry-After " + retryAfter + ")");
    }
  }

  @Property(tries = 60)
  void everyAttemptIsOneSpanInsideItsCallWithItsOwnTraceparentAndResendCount(
      @ForAll("failures") List<Answer> failures, @ForAll boolean async) throws Exception {
    FakeTime time = new FakeTime();
    TracingPromisesReviewTest.Recorder tracer = new TracingPromisesReviewTest.Recorder();
    int attempts = Math.min(failures.size() + 1, MAX_RETRIES + 1);
    boolean succeeds = failures.size() <= MAX_RETRIES;
    try (MockWebServer server = new MockWebServer()) {
      server.start();
      failures.forEach(answer -> server.enqueue(answer.response()));
      server.enqueue(documentSet("ds_1", "processing"));
      try (FormationClient client =
          TestClients.builder(server, time).tracer(tracer).maxRetries(MAX_RETRIES).build()) {
        Throwable failed =
            catchThrowable(
                () -> {
                  if (async) {
                    client.documentSets().getAsync("ds_1").get(10, TimeUnit.SECONDS);
                  } else {
                    client.documentSets().get("ds_1");
                  }
                });
        assertThat(failed == null).isEqualTo(succeeds);
      }

      assertThat(server.getRequestCount()).isEqualTo(attempts);
      for (int i = 1; i <= attempts; i++) {
        assertThat(server.takeRequest().getHeaders().get("traceparent"))
            .isEqualTo("call-1-attempt-" + i);
      }
    }
    List<String> expected = new ArrayList<>();
    expected.add("call-1 started DocumentSets.get linked -");
    for (int i = 1; i <= attempts; i++) {
      expected.add("call-1-attempt-" + i + " started");
      int status = i <= failures.size() ? failures.get(i - 1).status() : 200;
      expected.add("call-1-attempt-" + i + " ended " + status);
    }
    List<String> heard = tracer.heard;
    assertThat(heard.subList(0, heard.size() - 1)).containsExactlyElementsOf(expected);
    assertThat(heard.get(heard.size() - 1))
        .startsWith(succeeds ? "call-1 ended ds_1" : "call-1 ended - ");
  }

  @Provide
  Arbitrary<List<Answer>> failures() {
    Arbitrary<Answer> plain = Arbitraries.of(500, 502, 503, 504, 429).map(s -> new Answer(s, null));
    Arbitrary<Answer> paused =
        Combinators.combine(Arbitraries.of(429, 503), Arbitraries.of("1", "2", "30"))
            .as(Answer::new);
    return Arbitraries.oneOf(plain, paused).list().ofMaxSize(MAX_RETRIES + 1);
  }

  @Property(tries = 1000)
  void anySpanContextLeavesASavedWaitWithin2048CharactersAndReadableBack(
      @ForAll("contexts") String context,
      @ForAll("ids") String id,
      @ForAll("states") String state,
      @ForAll("offsets") long offset) {
    Instant now = Instant.parse("2026-01-01T00:00:00Z").plusMillis(offset);
    WaitState wait;
    try {
      wait = WaitState.start(id, now, PollOptions.defaults(), now.minusSeconds(5), context);
    } catch (IllegalArgumentException refused) {
      // Refused for its id alone, never for the context.
      assertThat(refused).hasMessageContaining("document set id");
      return;
    }
    WaitState polled =
        wait.polled(
            DocumentSetState.of(state),
            now.plusNanos(1),
            true,
            Duration.ofDays(36500),
            now.plus(Duration.ofDays(36500)));
    WaitState failed =
        polled.failed(599, now.plusSeconds(1), Duration.ofDays(1), now.plusSeconds(2));

    for (WaitState each : List.of(wait, polled, failed)) {
      String encoded = each.encode();
      assertThat(encoded.length()).isLessThanOrEqualTo(2048);
      assertThat(WaitState.decode(encoded).encode()).isEqualTo(encoded);
      assertThat(WaitState.decode(encoded).traceContext()).isEqualTo(each.traceContext());
      assertThat(encoded.startsWith("w3.")).isEqualTo(each.traceContext().isPresent());
    }
    boolean saveable =
        !context.isEmpty()
            && context.length() <= 128
            && context.chars().allMatch(c -> c >= 0x21 && c <= 0x7e);
    assertThat(wait.traceContext()).isEqualTo(saveable ? Optional.of(context) : Optional.empty());
  }

  @Provide
  Arbitrary<String> contexts() {
    return Arbitraries.oneOf(
        Arbitraries.strings().all().ofMaxLength(300),
        Arbitraries.strings().withCharRange('!', '~').ofMaxLength(140),
        Arbitraries.strings().withChars('.', '%', '~', '!').ofMinLength(100).ofMaxLength(130));
  }

  @Provide
  Arbitrary<String> ids() {
    return Arbitraries.oneOf(
        Arbitraries.strings().withCharRange('a', 'z').ofMinLength(1).ofMaxLength(1024),
        Arbitraries.strings().withChars('é', '.', '~').ofMinLength(1).ofMaxLength(200),
        Arbitraries.strings().withChars('\uD83D', '\uDE00').ofMinLength(1).ofMaxLength(60));
  }

  @Provide
  Arbitrary<String> states() {
    return Arbitraries.oneOf(
        Arbitraries.strings().withCharRange('a', 'z').ofMinLength(1).ofMaxLength(300),
        Arbitraries.strings().withChars('é', '%', '.').ofMinLength(1).ofMaxLength(200));
  }

  @Provide
  Arbitrary<Long> offsets() {
    long year = Duration.ofDays(366).toMillis();
    return Arbitraries.longs().between(-3000 * year, 5000 * year);
  }

  @Property(tries = 40)
  void aStateChangeNeverReportsANegativeDurationWhateverTheInstancesClocksRead(
      @ForAll("skews") Duration skew, @ForAll("steps") List<Duration> between) throws Exception {
    FakeTime ahead = new FakeTime();
    FakeTime behind = new FakeTime();
    behind.stepWallClock(skew.negated());
    List<StateChange> changes = new CopyOnWriteArrayList<>();
    FormationListener listener =
        new FormationListener() {
          @Override
          public void stateChanged(StateChange change) {
            changes.add(change);
          }
        };
    PollOptions options = PollOptions.builder().timeout(Duration.ofDays(30)).build();
    try (MockWebServer server = new MockWebServer()) {
      server.start();
      for (int i = 0; i < between.size(); i++) {
        server.enqueue(documentSet("ds_1", "state_" + i));
      }
      WaitState wait =
          WaitState.start(
              "ds_1", ahead.instant(), options, null, TracingPromisesReviewTest.CONTEXT);
      try (FormationClient first = TestClients.builder(server, ahead).listener(listener).build();
          FormationClient second = TestClients.builder(server, behind).listener(listener).build()) {
        for (int i = 0; i < between.size(); i++) {
          ahead.advance(between.get(i));
          behind.advance(between.get(i));
          FormationClient instance = i % 2 == 0 ? first : second;
          wait = WaitState.decode(instance.documentSets().poll(wait, options).waitState().encode());
        }
      }
    }

    assertThat(changes).hasSize(between.size());
    for (StateChange change : changes) {
      change.timeInPrevious().ifPresent(d -> assertThat(d).isGreaterThanOrEqualTo(Duration.ZERO));
      change.seenWithin().ifPresent(d -> assertThat(d).isGreaterThanOrEqualTo(Duration.ZERO));
    }
    assertThat(changes.subList(1, changes.size()))
        .allSatisfy(change -> assertThat(change.timeInPrevious()).isPresent());
  }

  @Provide
  Arbitrary<Duration> skews() {
    return Arbitraries.longs().between(0, Duration.ofDays(3).toSeconds()).map(Duration::ofSeconds);
  }

  @Provide
  Arbitrary<List<Duration>> steps() {
    return Arbitraries.longs()
        .between(0, Duration.ofHours(30).toSeconds())
        .map(Duration::ofSeconds)
        .list()
        .ofMinSize(2)
        .ofMaxSize(6);
  }
}
