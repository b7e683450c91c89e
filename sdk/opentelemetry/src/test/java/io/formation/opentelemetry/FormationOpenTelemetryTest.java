package io.formation.opentelemetry;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.formation.sandbox.FormationSandbox;
import io.formation.sandbox.SandboxOptions;
import io.formation.sdk.DocumentSets;
import io.formation.sdk.FormationClient;
import io.formation.sdk.PollOptions;
import io.formation.sdk.WaitState;
import io.formation.sdk.model.DocumentSet;
import io.formation.sdk.model.Form;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.sdk.metrics.data.MetricData;
import io.opentelemetry.sdk.trace.data.SpanData;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class FormationOpenTelemetryTest {
  static final String TOKEN = "secret-token-abc";
  static final String SET =
      "{\"data\": {\"type\": \"document_sets\", \"id\": \"ds_1\","
          + " \"attributes\": {\"state\": \"input_needed\"}}}";

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

    FormationClient client(String baseUrl) {
      return client(baseUrl, TOKEN);
    }

    FormationClient client(String baseUrl, String token) {
      return client(baseUrl, token, builder -> {});
    }
  }

  MockWebServer server() throws Exception {
    MockWebServer server = new MockWebServer();
    server.start();
    closing.add(server);
    return server;
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

  @Test
  void aCreateIsACallSpanWithAClientSpanPerAttemptOnTheStableHttpConventions() throws Exception {
    MockWebServer server = server();
    server.enqueue(answer(201, SET));
    Telemetry telemetry = new Telemetry();

    telemetry.client(server.url("/").toString()).documentSets().create("any_template");

    SpanData call = telemetry.named("DocumentSets.create").get(0);
    SpanData attempt = telemetry.named("POST").get(0);
    assertThat(call.getKind()).isEqualTo(SpanKind.INTERNAL);
    assertThat(call.getAttributes().get(FormationOpenTelemetry.SET_ID)).isEqualTo("ds_1");
    assertThat(attempt.getKind()).isEqualTo(SpanKind.CLIENT);
    assertThat(attempt.getParentSpanId()).isEqualTo(call.getSpanId());
    assertThat(attempt.getTraceId()).isEqualTo(call.getTraceId());
    Attributes attributes = attempt.getAttributes();
    assertThat(attributes.get(FormationOpenTelemetry.METHOD)).isEqualTo("POST");
    assertThat(attributes.get(FormationOpenTelemetry.SERVER_ADDRESS))
        .isEqualTo(server.getHostName());
    assertThat(attributes.get(FormationOpenTelemetry.SERVER_PORT)).isEqualTo(server.getPort());
    assertThat(attributes.get(FormationOpenTelemetry.URL_FULL))
        .isEqualTo(server.url("/v1/document_sets").toString());
    assertThat(attributes.get(FormationOpenTelemetry.STATUS)).isEqualTo(201L);
    assertThat(attributes.get(FormationOpenTelemetry.RESEND_COUNT)).isNull();
    assertThat(attributes.get(FormationOpenTelemetry.ERROR_TYPE)).isNull();
    RecordedRequest sent = server.takeRequest();
    assertThat(sent.getHeaders().get("traceparent"))
        .isEqualTo(FormationOpenTelemetry.traceparent(attempt.getSpanContext()));
  }

  @Test
  void everyResendIsCountedThroughRetriesAndThePause() throws Exception {
    MockWebServer server = server();
    server.enqueue(answer(503, "{}"));
    server.enqueue(answer(429, "{}", "Retry-After", "1"));
    server.enqueue(answer(200, SET));
    Telemetry telemetry = new Telemetry();

    telemetry.client(server.url("/").toString()).documentSets().get("ds_1");

    List<SpanData> attempts = telemetry.named("GET");
    assertThat(attempts).hasSize(3);
    assertThat(attempts)
        .extracting(span -> span.getAttributes().get(FormationOpenTelemetry.RESEND_COUNT))
        .containsExactly(null, 1L, 2L);
    assertThat(attempts)
        .extracting(span -> span.getAttributes().get(FormationOpenTelemetry.ERROR_TYPE))
        .containsExactly("503", "429", null);
    SpanData call = telemetry.named("DocumentSets.get").get(0);
    assertThat(attempts).allMatch(span -> span.getParentSpanId().equals(call.getSpanId()));
    assertThat(call.getAttributes().get(FormationOpenTelemetry.SET_ID)).isEqualTo("ds_1");
    assertThat(sum(telemetry.metric("formation.client.pauses"))).isEqualTo(1);
    assertThat(sum(telemetry.metric("formation.client.refusals"))).isEqualTo(1);
    List<String> sentTraces = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      sentTraces.add(server.takeRequest().getHeaders().get("traceparent"));
    }
    assertThat(sentTraces)
        .containsExactlyElementsOf(
            attempts.stream()
                .map(span -> FormationOpenTelemetry.traceparent(span.getSpanContext()))
                .toList());
  }

  @Test
  void theTraceGoesToTheServicesOriginsAndNeverToAnother() throws Exception {
    MockWebServer service = server();
    MockWebServer elsewhere = server();
    service.enqueue(
        answer(302, "{}", "Location", elsewhere.url("/v1/document_sets/ds_1").toString()));
    elsewhere.enqueue(answer(200, SET));
    Telemetry telemetry = new Telemetry();

    telemetry.client(service.url("/").toString()).documentSets().get("ds_1");

    assertThat(service.takeRequest().getHeaders().get("traceparent")).isNotNull();
    RecordedRequest followed = elsewhere.takeRequest();
    assertThat(followed.getHeaders().get("traceparent")).isNull();
    assertThat(followed.getHeaders().get("Authorization")).isNull();
  }

  @Test
  void noTokenCredentialOrCursorReachesASpanOrAMetric() throws Exception {
    MockWebServer server = server();
    String page =
        "{\"data\": [{\"type\": \"teams\", \"id\": \"t1\"}],"
            + " \"links\": {\"next\": \"/v1/teams?page%5Bafter%5D=secret-cursor\"}}";
    server.enqueue(answer(200, page));
    server.enqueue(answer(401, "{\"errors\": [{\"detail\": \"token " + TOKEN + " refused\"}]}"));
    Telemetry telemetry = new Telemetry();

    try {
      telemetry.client(server.url("/").toString()).teams().list().stream().count();
    } catch (RuntimeException refused) {
      // The second page is refused: its span is what this test reads.
    }

    List<String> shown = new ArrayList<>();
    for (SpanData span : telemetry.spans()) {
      shown.add(span.getName());
      span.getAttributes().forEach((key, value) -> shown.add(String.valueOf(value)));
      span.getEvents().forEach(event -> shown.add(event.getAttributes().toString()));
      shown.add(span.getStatus().getDescription());
    }
    for (MetricData metric : telemetry.metrics.collectAllMetrics()) {
      shown.add(metric.getData().getPoints().toString());
    }
    assertThat(telemetry.named("GET")).hasSize(2);
    assertThat(String.join("\n", shown))
        .doesNotContain(TOKEN)
        .doesNotContain("secret-cursor")
        .doesNotContain("Bearer");
  }

  @Test
  void theDurationOfEveryAttemptIsMeasuredOnTheStableHistogram() throws Exception {
    MockWebServer server = server();
    server.enqueue(answer(503, "{}"));
    server.enqueue(answer(200, SET));
    Telemetry telemetry = new Telemetry();

    telemetry.client(server.url("/").toString()).documentSets().get("ds_1");

    MetricData duration = telemetry.metric("http.client.request.duration");
    assertThat(duration.getUnit()).isEqualTo("s");
    List<Attributes> points =
        duration.getHistogramData().getPoints().stream()
            .map(point -> point.getAttributes())
            .toList();
    assertThat(points)
        .extracting(attributes -> attributes.get(FormationOpenTelemetry.STATUS))
        .containsExactlyInAnyOrder(503L, 200L);
    assertThat(points)
        .allSatisfy(
            attributes -> {
              assertThat(attributes.get(FormationOpenTelemetry.METHOD)).isEqualTo("GET");
              assertThat(attributes.get(FormationOpenTelemetry.SERVER_PORT))
                  .isEqualTo(server.getPort());
              // Low cardinality: no URL, no id.
              assertThat(attributes.get(FormationOpenTelemetry.URL_FULL)).isNull();
            });
  }

  @Test
  void aSetCreatedByOneInstanceAndPolledByAnotherIsOneTraceLinkedToItsCreation() throws Exception {
    FormationSandbox sandbox =
        FormationSandbox.start(
            SandboxOptions.defaults()
                .withStepDelay(Duration.ofMillis(20))
                .withProcessingLag(Duration.ofMillis(20))
                .withReview(false));
    closing.add(sandbox);
    Telemetry creating = new Telemetry();
    Telemetry polling = new Telemetry();
    JsonNode answers =
        new ObjectMapper()
            .readTree(Path.of("..", "..", "examples", "recipes", "answers.json").toFile());
    FormationClient first = creating.client(sandbox.baseUrl(), sandbox.token());
    DocumentSet set = first.documentSets().create(DocumentSets.DELAWARE_CORPORATION);
    for (Form form : first.forms().list(set.id())) {
      first.forms().submit(form, answers.get(form.id()));
    }
    PollOptions options =
        PollOptions.builder()
            .initialInterval(Duration.ofMillis(50))
            .maxInterval(Duration.ofMillis(200))
            .timeout(Duration.ofMinutes(2))
            .build();
    String saved = first.documentSets().startWait(set.id(), options).encode();

    FormationClient second = polling.client(sandbox.baseUrl(), sandbox.token());
    second.documentSets().awaitCompletion(WaitState.decode(saved), options);

    SpanData creation = creating.named("DocumentSets.create").get(0);
    assertThat(WaitState.decode(saved).traceContext())
        .contains(FormationOpenTelemetry.traceparent(creation.getSpanContext()));
    List<SpanData> polls = polling.named("DocumentSets.poll");
    assertThat(polls).isNotEmpty();
    assertThat(polls)
        .allSatisfy(
            poll -> {
              assertThat(poll.getTraceId()).isEqualTo(creation.getTraceId());
              assertThat(poll.getLinks())
                  .anySatisfy(
                      link ->
                          assertThat(link.getSpanContext().getSpanId())
                              .isEqualTo(creation.getSpanId()));
              assertThat(poll.getAttributes().get(FormationOpenTelemetry.SET_ID))
                  .isEqualTo(set.id());
            });
    Map<String, Long> byState =
        polling.metric("formation.document_sets").getLongSumData().getPoints().stream()
            .collect(
                Collectors.toMap(
                    point -> point.getAttributes().get(FormationOpenTelemetry.STATE),
                    point -> point.getValue()));
    assertThat(byState).containsEntry("complete", 1L);
    assertThat(
            polling.metric("formation.document_set.state.duration").getHistogramData().getPoints())
        .isNotEmpty();
  }

  private static long sum(MetricData metric) {
    return metric.getLongSumData().getPoints().stream().mapToLong(point -> point.getValue()).sum();
  }
}
