package io.formation.opentelemetry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.formation.sdk.AttemptEvent;
import io.formation.sdk.FormationClient;
import io.formation.sdk.FormationListener;
import io.formation.sdk.PollOptions;
import io.formation.sdk.RateLimitException;
import io.formation.sdk.WaitState;
import io.formation.sdk.model.DocumentSet;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.context.Scope;
import io.opentelemetry.sdk.metrics.data.MetricData;
import io.opentelemetry.sdk.trace.data.SpanData;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A reviewer's attempts to break what {@code formation-opentelemetry} promises: the HTTP client
 * conventions through redirects, refusals told apart, the sets-by-state counter, and polls of a
 * saved wait joining the trace of the set's creation. Asserts on what the servers saw and what the
 * in-memory exporter and reader got.
 */
class OpenTelemetryPromisesReviewTest {
  static final String TOKEN = "secret-token-review";

  final List<AutoCloseable> closing = new ArrayList<>();

  @AfterEach
  void close() throws Exception {
    for (int i = closing.size() - 1; i >= 0; i--) {
      closing.get(i).close();
    }
  }

  /** The in-memory SDK, closed after the test. */
  final class Telemetry extends InMemoryTelemetry {
    Telemetry() {
      closing.add(this);
    }

    Map<String, Long> sums(String metric) {
      return metrics.collectAllMetrics().stream()
          .filter(data -> data.getName().equals(metric))
          .flatMap(data -> data.getLongSumData().getPoints().stream())
          .collect(
              Collectors.toMap(
                  point ->
                      point.getAttributes().asMap().values().stream()
                          .map(String::valueOf)
                          .toList()
                          .toString(),
                  point -> point.getValue()));
    }

    FormationClient client(MockWebServer server, Consumer<FormationClient.Builder> more) {
      return client(server.url("/").toString(), TOKEN, more);
    }
  }

  MockWebServer server() throws Exception {
    MockWebServer server = new MockWebServer();
    server.start();
    closing.add(server);
    return server;
  }

  static MockResponse set(String id, String state) {
    return answer(200, setBody(id, state));
  }

  static String setBody(String id, String state) {
    return "{\"data\": {\"type\": \"document_sets\", \"id\": \""
        + id
        + "\", \"attributes\": {\"state\": \""
        + state
        + "\"}}}";
  }

  static MockResponse answer(int code, String body, String... headers) {
    MockResponse.Builder response =
        new MockResponse.Builder()
            .code(code)
            .addHeader("Content-Type", "application/vnd.api+json")
            .body(body);
    for (int i = 0; i < headers.length; i += 2) {
      response.addHeader(headers[i], headers[i + 1]);
    }
    return response.build();
  }

  static String origin(MockWebServer server) {
    String url = server.url("/").toString();
    return url.substring(0, url.length() - 1);
  }

  @Test
  void aRedirectToATrustedOriginCarriesTheTraceAndTheTokenThere() throws Exception {
    MockWebServer service = server();
    MockWebServer files = server();
    service.enqueue(answer(307, "{}", "Location", files.url("/v1/document_sets/ds_1").toString()));
    files.enqueue(set("ds_1", "processing"));
    Telemetry telemetry = new Telemetry();

    telemetry.client(service, b -> b.trustOrigin(origin(files))).documentSets().get("ds_1");

    RecordedRequest first = service.takeRequest();
    RecordedRequest followed = files.takeRequest();
    assertThat(followed.getHeaders().get("traceparent"))
        .isNotNull()
        .startsWith("00-" + telemetry.named("GET").get(0).getTraceId());
    assertThat(followed.getHeaders().get("Authorization")).isEqualTo("Bearer " + TOKEN);
    assertThat(first.getHeaders().get("traceparent")).isNotNull();
  }

  @Test
  void aCallRefusedLocallyBeforeSendingHasNoClientSpanAndCountsAsTheClients() throws Exception {
    MockWebServer server = server();
    server.enqueue(answer(429, "{}", "Retry-After", "30"));
    Telemetry telemetry = new Telemetry();
    FormationClient client = telemetry.client(server, b -> b.callTimeout(Duration.ofSeconds(5)));

    assertThatThrownBy(() -> client.documentSets().get("ds_1"))
        .isInstanceOf(RateLimitException.class);
    assertThatThrownBy(() -> client.documentSets().get("ds_2"))
        .isInstanceOf(RateLimitException.class);

    assertThat(server.getRequestCount()).isEqualTo(1);
    assertThat(telemetry.named("GET")).hasSize(1);
    List<SpanData> calls = telemetry.named("DocumentSets.get");
    assertThat(calls).hasSize(2);
    assertThat(calls)
        .allSatisfy(
            call -> {
              assertThat(call.getKind()).isEqualTo(SpanKind.INTERNAL);
              assertThat(call.getStatus().getStatusCode()).isEqualTo(StatusCode.ERROR);
              assertThat(call.getAttributes().get(FormationOpenTelemetry.ERROR_TYPE))
                  .isEqualTo(RateLimitException.class.getName());
            });
    assertThat(telemetry.sums("formation.client.refusals"))
        .containsEntry("[service]", 1L)
        .containsEntry("[client]", 1L);
    assertThat(telemetry.sums("formation.client.pauses")).containsEntry("[]", 1L);
  }

  @Test
  void aRetryRefusedLocallyAfterTheServiceRefusedTheFirstAttemptCountsAsTheClients()
      throws Exception {
    MockWebServer server = server();
    server.enqueue(answer(429, "{}"));
    server.enqueue(answer(429, "{}", "Retry-After", "30"));
    Telemetry telemetry = new Telemetry();
    AtomicBoolean once = new AtomicBoolean();
    FormationClient[] client = new FormationClient[1];
    client[0] =
        telemetry.client(
            server,
            b ->
                b.callTimeout(Duration.ofSeconds(5))
                    .listener(
                        new FormationListener() {
                          @Override
                          public void retryScheduled(AttemptEvent attempt, Duration wait) {
                            if (once.compareAndSet(false, true)) {
                              // While this call backs off, another is told to pause the origin.
                              try {
                                client[0].documentSets().get("ds_2");
                              } catch (RateLimitException expected) {
                                // The service's refusal of the other call.
                              }
                            }
                          }
                        }));

    assertThatThrownBy(() -> client[0].documentSets().get("ds_1"))
        .isInstanceOf(RateLimitException.class);

    assertThat(server.getRequestCount()).isEqualTo(2);
    assertThat(telemetry.sums("formation.client.refusals"))
        .containsEntry("[service]", 2L)
        .containsEntry("[client]", 1L);
  }

  @Test
  void theSetsByStateCounterReturnsToZeroForEveryStateASetLeft() throws Exception {
    MockWebServer server = server();
    String longState = "reviewing_" + "x".repeat(300);
    server.enqueue(set("ds_1", longState));
    server.enqueue(set("ds_1", "complete"));
    Telemetry telemetry = new Telemetry();
    PollOptions options =
        PollOptions.builder()
            .initialInterval(Duration.ofMillis(100))
            .timeout(Duration.ofMinutes(1))
            .build();

    telemetry.client(server, b -> {}).documentSets().awaitCompletion("ds_1", options);

    Map<String, Long> byState = telemetry.sums("formation.document_sets");
    assertThat(byState).containsEntry("[complete]", 1L);
    assertThat(byState)
        .allSatisfy((state, count) -> assertThat(count).as(state).isIn(0L, 1L))
        .doesNotContainEntry("[" + longState + "]", 1L);
  }

  /** A set created through its own telemetry, its wait saved: the creating span and the string. */
  record Created(SpanData creation, String saved) {}

  Created createAndSave(MockWebServer server, PollOptions options) throws Exception {
    server.enqueue(answer(201, setBody("ds_1", "processing")));
    Telemetry creating = new Telemetry();
    FormationClient client = creating.client(server, b -> {});
    DocumentSet set = client.documentSets().create("any_template");
    String saved = client.documentSets().startWait(set.id(), options).encode();
    server.takeRequest();
    return new Created(creating.named("DocumentSets.create").get(0), saved);
  }

  static PollOptions quick() {
    return PollOptions.builder()
        .initialInterval(Duration.ofMillis(100))
        .maxInterval(Duration.ofMillis(100))
        .timeout(Duration.ofMinutes(1))
        .build();
  }

  @Test
  void everyPollOfAResumedAsyncWaitOnASchedulerThreadJoinsTheCreationsTrace() throws Exception {
    MockWebServer server = server();
    Created created = createAndSave(server, quick());
    server.enqueue(set("ds_1", "processing"));
    server.enqueue(set("ds_1", "complete"));
    Telemetry polling = new Telemetry();

    polling
        .client(server, b -> {})
        .documentSets()
        .awaitCompletionAsync(WaitState.decode(created.saved()), quick())
        .get(10, TimeUnit.SECONDS);

    List<SpanData> polls = polling.named("DocumentSets.poll");
    assertThat(polls).hasSize(2);
    assertThat(polls)
        .allSatisfy(
            poll -> {
              assertThat(poll.getTraceId()).isEqualTo(created.creation().getTraceId());
              assertThat(poll.getLinks())
                  .anySatisfy(
                      link ->
                          assertThat(link.getSpanContext().getSpanId())
                              .isEqualTo(created.creation().getSpanId()));
            });
  }

  @Test
  void theBlockingPollsOfAResumedWaitJoinTheCreationsTraceEvenInsideACallersSpan()
      throws Exception {
    MockWebServer server = server();
    Created created = createAndSave(server, quick());
    server.enqueue(set("ds_1", "processing"));
    server.enqueue(set("ds_1", "complete"));
    Telemetry polling = new Telemetry();
    FormationClient client = polling.client(server, b -> {});

    Span request = polling.sdk.getTracer("app").spanBuilder("GET /status").startSpan();
    Scope scope = request.makeCurrent();
    try {
      client.documentSets().awaitCompletion(WaitState.decode(created.saved()), quick());
    } finally {
      scope.close();
      request.end();
    }

    assertThat(polling.named("DocumentSets.poll"))
        .hasSize(2)
        .allSatisfy(
            poll -> assertThat(poll.getTraceId()).isEqualTo(created.creation().getTraceId()));
  }

  @Test
  void thePollsOfOneResumedAsyncWaitAllLandInOneTrace() throws Exception {
    MockWebServer server = server();
    Created created = createAndSave(server, quick());
    server.enqueue(set("ds_1", "processing"));
    server.enqueue(set("ds_1", "complete"));
    Telemetry polling = new Telemetry();
    FormationClient client = polling.client(server, b -> {});

    Span request = polling.sdk.getTracer("app").spanBuilder("GET /status").startSpan();
    Scope scope = request.makeCurrent();
    try {
      client
          .documentSets()
          .awaitCompletionAsync(WaitState.decode(created.saved()), quick())
          .get(10, TimeUnit.SECONDS);
    } finally {
      scope.close();
      request.end();
    }

    List<SpanData> polls = polling.named("DocumentSets.poll");
    assertThat(polls).hasSize(2);
    assertThat(polls.get(1).getTraceId()).isEqualTo(created.creation().getTraceId());
    assertThat(polls.get(0).getTraceId()).isEqualTo(polls.get(1).getTraceId());
  }

  @Test
  void aResumedPollAsyncJoinsTheCreationsTraceAndLinksToIt() throws Exception {
    MockWebServer server = server();
    Created created = createAndSave(server, quick());
    server.enqueue(set("ds_1", "processing"));
    Telemetry polling = new Telemetry();

    polling
        .client(server, b -> {})
        .documentSets()
        .pollAsync(WaitState.decode(created.saved()), quick())
        .get(10, TimeUnit.SECONDS);

    SpanData poll = polling.named("DocumentSets.poll").get(0);
    assertThat(poll.getTraceId()).isEqualTo(created.creation().getTraceId());
    assertThat(poll.getLinks()).hasSize(1);
    assertThat(polling.named("GET").get(0).getParentSpanId()).isEqualTo(poll.getSpanId());
    assertThat(server.takeRequest().getHeaders().get("traceparent"))
        .startsWith("00-" + created.creation().getTraceId());
  }

  @Test
  void noTokenOrSignatureReachesASpanEventStatusOrMetricWhenAnAttemptFailsOnTheNetwork()
      throws Exception {
    MockWebServer server = server();
    String cursor = "cursor-secret-xyz";
    server.enqueue(
        answer(
            200,
            "{\"data\": [{\"type\": \"teams\", \"id\": \"t1\"}], \"links\": {\"next\":"
                + " \"/v1/teams?page%5Bafter%5D="
                + cursor
                + "&signature="
                + TOKEN
                + "\"}}"));
    server.enqueue(answer(500, "{\"errors\": [{\"detail\": \"Bearer " + TOKEN + "\"}]}"));
    server.enqueue(answer(503, "{\"errors\": [{\"detail\": \"" + cursor + "\"}]}"));
    server.enqueue(answer(502, TOKEN));
    Telemetry telemetry = new Telemetry();
    FormationClient client = telemetry.client(server, b -> {});

    assertThatThrownBy(() -> client.teams().list().stream().count())
        .isInstanceOf(RuntimeException.class);

    List<String> shown = new ArrayList<>();
    for (SpanData span : telemetry.spans.getFinishedSpanItems()) {
      shown.add(span.getName());
      span.getAttributes().forEach((key, value) -> shown.add(String.valueOf(value)));
      span.getEvents().forEach(event -> shown.add(event.getName() + event.getAttributes()));
      span.getLinks().forEach(link -> shown.add(link.getAttributes().toString()));
      shown.add(span.getStatus().getDescription());
    }
    for (MetricData metric : telemetry.metrics.collectAllMetrics()) {
      shown.add(metric.getData().getPoints().toString());
    }
    assertThat(telemetry.named("GET")).hasSize(4);
    assertThat(String.join("\n", shown))
        .doesNotContain(TOKEN)
        .doesNotContain(cursor)
        .doesNotContain("signature");
    assertThat(
            telemetry.named("GET").stream()
                .map(span -> span.getAttributes().get(FormationOpenTelemetry.URL_FULL))
                .toList())
        .allSatisfy(url -> assertThat(url).doesNotContain("?"));
    assertThat(telemetry.named("GET").get(3).getAttributes())
        .satisfies(a -> assertThat(a.get(FormationOpenTelemetry.RESEND_COUNT)).isEqualTo(2L));
  }
}
