package io.formation.sdk;

import static io.formation.sdk.Fixtures.documentSet;
import static io.formation.sdk.Fixtures.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.formation.sdk.model.DocumentSet;
import io.formation.testkit.FakeTime;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.junit5.StartStop;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** What the SDK logs and tells a listener, captured through java.util.logging's bridge. */
class LoggingAndListenerTest {
  static final String JWT = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJwYXJ0bmVyIn0.c2lnbmF0dXJl";

  @StartStop final MockWebServer server = new MockWebServer();
  final FakeTime time = new FakeTime();
  final List<String> lines = new CopyOnWriteArrayList<>();
  final Logger jul = Logger.getLogger("io.formation.sdk");
  final Handler capture =
      new Handler() {
        @Override
        public void publish(LogRecord record) {
          lines.add(record.getLevel() + " " + record.getMessage());
        }

        @Override
        public void flush() {}

        @Override
        public void close() {}
      };
  Level levelBefore;

  @BeforeEach
  void captureTheLog() {
    levelBefore = jul.getLevel();
    capture.setLevel(Level.ALL);
    jul.addHandler(capture);
  }

  @AfterEach
  void releaseTheLog() {
    jul.removeHandler(capture);
    jul.setLevel(levelBefore);
  }

  @Test
  void atDebugEachAttemptIsOneLineWithItsStatusTimeAttemptRequestIdAndRetryDecision() {
    jul.setLevel(Level.FINE);
    server.enqueue(new MockResponse.Builder().code(503).build());
    server.enqueue(
        documentSet("ds_1", "finalizing").newBuilder().addHeader("Request-Id", "req_42").build());
    try (FormationClient client = TestClients.client(server, time)) {
      client.documentSets().get("ds_1");
    }
    String url = server.url("/v1/document_sets/ds_1").toString();
    assertThat(lines)
        .hasSize(2)
        .satisfiesExactly(
            first ->
                assertThat(first)
                    .startsWith("FINE GET " + url + " -> 503 in ")
                    .contains("(attempt 1 of 3); retrying in "),
            second ->
                assertThat(second)
                    .startsWith("FINE GET " + url + " -> 200 in ")
                    .endsWith("(attempt 2 of 3, request id req_42)"));
  }

  @Test
  void atTraceBodiesAreLoggedButNeverTheTokenAnythingShapedLikeOneOrAnActionsQuery() {
    jul.setLevel(Level.FINEST);
    server.enqueue(
        json(
            "[{\"id\":\"company\",\"values\":{\"note\":\"token "
                + TestClients.TOKEN
                + " or Bearer abc.def or "
                + JWT
                + "\"},\"actions\":[{\"method\":\"PUT\",\"url\":\"/v1/actions/a1?signature=s3cr3t\"}]}]"));
    server.enqueue(json("{\"echo\":\"" + TestClients.TOKEN + "\"}"));
    try (FormationClient client = TestClients.client(server, time)) {
      var form = client.forms().list("ds_1").get(0);
      client.forms().submit(form, form.values());
    }
    assertThat(lines).anyMatch(line -> line.contains("response body: "));
    assertThat(lines).anyMatch(line -> line.contains("request body: "));
    assertThat(lines)
        .anyMatch(line -> line.contains("PUT ") && line.contains("/v1/actions/a1 -> 200"));
    assertThat(String.join("\n", lines))
        .doesNotContain(TestClients.TOKEN)
        .doesNotContain("abc.def")
        .doesNotContain(JWT)
        .doesNotContain("s3cr3t");
  }

  @Test
  void aWaitLogsEachStateChangeAndHowItEnded() {
    jul.setLevel(Level.FINE);
    server.enqueue(documentSet("ds_1", "filing_in_progress"));
    server.enqueue(documentSet("ds_1", "filing_in_progress"));
    server.enqueue(documentSet("ds_1", "complete"));
    try (FormationClient client = TestClients.client(server, time)) {
      client.documentSets().awaitCompletion("ds_1");
    }
    assertThat(lines)
        .filteredOn(line -> !line.contains(" -> "))
        .containsExactly(
            "FINE document set ds_1 is filing_in_progress (poll 1, 0.0 s into the wait)",
            "FINE document set ds_1 is complete (poll 3, 2.3 s into the wait)",
            "FINE wait for document set ds_1 ended: complete after 3 polls in 2.3 s");
  }

  @Test
  void withTheLoggerAtItsDefaultNothingIsLogged() {
    jul.setLevel(Level.INFO);
    server.enqueue(documentSet("ds_1", "complete"));
    try (FormationClient client = TestClients.client(server, time)) {
      client.documentSets().awaitCompletion("ds_1");
    }
    assertThat(lines).isEmpty();
  }

  @Test
  void theListenerHearsEveryAttemptRetryPollAndStateChange() {
    List<String> heard = new CopyOnWriteArrayList<>();
    FormationListener listener =
        new FormationListener() {
          @Override
          public void attemptStarted(AttemptEvent attempt) {
            heard.add("started " + attempt.attempt() + "/" + attempt.maxAttempts());
          }

          @Override
          public void attemptFinished(AttemptEvent attempt) {
            heard.add(
                "finished "
                    + attempt.attempt()
                    + " "
                    + attempt.statusCode()
                    + attempt.requestId().map(id -> " " + id).orElse(""));
          }

          @Override
          public void retryScheduled(AttemptEvent attempt, java.time.Duration wait) {
            heard.add("retry after " + attempt.attempt());
          }

          @Override
          public void polled(DocumentSet set) {
            heard.add("polled " + set.state());
          }

          @Override
          public void stateChanged(DocumentSet set) {
            heard.add("state " + set.state());
          }
        };
    server.enqueue(new MockResponse.Builder().code(503).build());
    server.enqueue(
        documentSet("ds_1", "complete").newBuilder().addHeader("X-Request-Id", "r1").build());
    try (FormationClient client = TestClients.builder(server, time).listener(listener).build()) {
      client.documentSets().awaitCompletion("ds_1");
    }
    assertThat(heard)
        .containsExactly(
            "started 1/3",
            "finished 1 503",
            "retry after 1",
            "started 2/3",
            "finished 2 200 r1",
            "polled complete",
            "state complete");
  }

  @Test
  void aListenerThatThrowsDoesNotBreakTheCall() {
    server.enqueue(documentSet("ds_1", "complete"));
    FormationListener broken =
        new FormationListener() {
          @Override
          public void attemptFinished(AttemptEvent attempt) {
            throw new IllegalStateException("metrics backend down");
          }
        };
    try (FormationClient client = TestClients.builder(server, time).listener(broken).build()) {
      assertThat(client.documentSets().get("ds_1").state().isComplete()).isTrue();
    }
  }

  @Test
  void anErrorsMessageCarriesTheServicesRequestId() {
    server.enqueue(
        json(404, "{\"errors\":[{\"detail\":\"no such set\"}]}")
            .newBuilder()
            .addHeader("Request-Id", "req_404")
            .build());
    try (FormationClient client = TestClients.client(server, time)) {
      assertThatThrownBy(() -> client.documentSets().get("nope"))
          .isInstanceOfSatisfying(
              NotFoundException.class,
              e -> {
                assertThat(e.requestId()).contains("req_404");
                assertThat(e).hasMessageEndingWith("no such set [request id req_404]");
              });
    }
  }
}
