package io.formation.sdk;

import static io.formation.sdk.Fixtures.fixture;
import static org.assertj.core.api.Assertions.assertThat;

import io.formation.sdk.model.DocumentSet;
import io.formation.testkit.FakeTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;
import mockwebserver3.junit5.StartStop;
import org.junit.jupiter.api.Test;

class TracerTest {
  @StartStop final MockWebServer server = new MockWebServer();
  final FakeTime time = new FakeTime();

  /** Records what it is told; its attempts carry the headers given. */
  static class Recording implements FormationTracer {
    final List<String> heard = new ArrayList<>();
    final Map<String, String> headers;

    Recording(Map<String, String> headers) {
      this.headers = headers;
    }

    @Override
    public CallSpan startCall(Call call) {
      heard.add("call " + call.name() + " " + call.documentSetId().orElse("-"));
      return new CallSpan() {
        @Override
        public AttemptSpan startAttempt(AttemptEvent attempt) {
          heard.add("attempt " + attempt.method() + " " + attempt.attempt());
          return new AttemptSpan() {
            @Override
            public Map<String, String> headers() {
              return headers;
            }

            @Override
            public void end(AttemptEvent finished) {
              heard.add("attempt ended " + finished.statusCode());
            }
          };
        }

        @Override
        public void end(Optional<DocumentSet> set, Optional<Throwable> failure) {
          heard.add(
              "call ended " + set.map(DocumentSet::id).orElse("-") + " " + failure.isPresent());
        }

        @Override
        public Optional<String> context() {
          return Optional.of("00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01");
        }
      };
    }
  }

  @Test
  void aCallIsOneSpanWithItsAttemptsAndTheSetItCreatedAndAWaitKeepsItsContext() throws Exception {
    server.enqueue(fixture("document_sets/created_jsonapi.json"));
    Recording tracer = new Recording(Map.of("traceparent", "00-abc"));
    try (FormationClient client = TestClients.builder(server, time).tracer(tracer).build()) {
      DocumentSet set = client.documentSets().create(DocumentSets.DELAWARE_CORPORATION);

      assertThat(tracer.heard)
          .containsExactly(
              "call DocumentSets.create -",
              "attempt POST 1",
              "attempt ended 200",
              "call ended ds_123 false");
      assertThat(server.takeRequest().getHeaders().get("traceparent")).isEqualTo("00-abc");
      WaitState wait = client.documentSets().startWait(set.id(), PollOptions.defaults());
      assertThat(WaitState.decode(wait.encode()).traceContext())
          .contains("00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01");
      assertThat(wait.encode()).startsWith("w3.");
    }
  }

  @Test
  void aWaitOfASetThisClientDidNotCreateCarriesNoTraceAndKeepsTheOldestFormat() {
    try (FormationClient client =
        TestClients.builder(server, time).tracer(new Recording(Map.of())).build()) {
      WaitState wait = client.documentSets().startWait("ds_elsewhere", PollOptions.defaults());

      assertThat(wait.traceContext()).isEmpty();
      assertThat(wait.encode()).startsWith("w1.");
    }
  }

  @Test
  void headersATracerMustNotSendAreDroppedAndTheCallGoesOn() throws Exception {
    server.enqueue(fixture("document_sets/created_jsonapi.json"));
    Recording tracer =
        new Recording(
            Map.of(
                "traceparent", "00-ok",
                "bad", "line\r\nInjected: yes",
                "Authorization", "Bearer stolen"));
    try (FormationClient client = TestClients.builder(server, time).tracer(tracer).build()) {
      client.documentSets().create(DocumentSets.DELAWARE_CORPORATION);
    }

    RecordedRequest sent = server.takeRequest();
    assertThat(sent.getHeaders().get("traceparent")).isEqualTo("00-ok");
    assertThat(sent.getHeaders().get("bad")).isNull();
    assertThat(sent.getHeaders().get("Injected")).isNull();
    assertThat(sent.getHeaders().get("Authorization")).isEqualTo("Bearer " + TestClients.TOKEN);
  }

  @Test
  void aTracerThatThrowsNeverChangesACallsOutcome() throws Exception {
    server.enqueue(fixture("document_sets/created_jsonapi.json"));
    FormationTracer throwing =
        new FormationTracer() {
          @Override
          public CallSpan startCall(Call call) {
            throw new IllegalStateException("tracing is down");
          }

          @Override
          public void attemptFinished(AttemptEvent attempt) {
            throw new NoClassDefFoundError("io/opentelemetry/Missing");
          }
        };
    try (FormationClient client = TestClients.builder(server, time).tracer(throwing).build()) {
      assertThat(client.documentSets().create(DocumentSets.DELAWARE_CORPORATION).id())
          .isEqualTo("ds_123");
    }
    assertThat(server.takeRequest().getHeaders().get("traceparent")).isNull();
  }
}
