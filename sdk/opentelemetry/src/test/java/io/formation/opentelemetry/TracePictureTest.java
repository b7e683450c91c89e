package io.formation.opentelemetry;

import static org.assertj.core.api.Assertions.assertThat;

import io.formation.sandbox.FormationSandbox;
import io.formation.sandbox.SandboxOptions;
import io.formation.sandbox.SandboxTemplates;
import io.formation.sdk.DocumentSets;
import io.formation.sdk.FormationClient;
import io.formation.sdk.PollOptions;
import io.formation.sdk.PollResult;
import io.formation.sdk.WaitState;
import io.formation.sdk.model.DocumentSet;
import io.formation.sdk.model.Form;
import io.formation.testkit.FakeTime;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.Scope;
import io.opentelemetry.context.propagation.ContextPropagators;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.common.Clock;
import io.opentelemetry.sdk.resources.Resource;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.IdGenerator;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * Draws the trace of one formation for docs/debugging.md: created, its forms listed and submitted
 * inside a request of the partner's application on one instance, then waited for through its saved
 * wait on another, until complete. Time is the sandbox's fake clock, ids count up: the same picture
 * every run, in target/; the test fails if it is not the one committed under docs/images.
 */
class TracePictureTest {
  static final Path COMMITTED = Path.of("../../docs/images/formation-trace.svg");
  static final Path DRAWN = Path.of("target/formation-trace.svg");

  final FakeTime time = new FakeTime();
  final InMemorySpanExporter exporter = InMemorySpanExporter.create();
  final AtomicLong ids = new AtomicLong();

  @Test
  void oneFormationIsOneTraceFromTheRequestThatCreatedItToItsCompletingPoll() throws IOException {
    List<SpanData> spans = runOneFormation();

    SpanData create = named(spans, "DocumentSets.create").get(0);
    List<SpanData> polls = named(spans, "DocumentSets.poll");
    assertThat(spans).extracting(SpanData::getTraceId).containsOnly(create.getTraceId());
    assertThat(polls)
        .hasSizeGreaterThan(2)
        .allSatisfy(
            poll -> {
              assertThat(poll.getParentSpanId()).isEqualTo(create.getSpanId());
              assertThat(poll.getLinks())
                  .singleElement()
                  .satisfies(
                      link ->
                          assertThat(link.getSpanContext().getSpanId())
                              .isEqualTo(create.getSpanId()));
              assertThat(poll.getAttributes().get(FormationOpenTelemetry.SET_ID))
                  .isEqualTo(create.getAttributes().get(FormationOpenTelemetry.SET_ID));
              assertThat(instance(poll)).isEqualTo("instance-b");
            });

    Files.createDirectories(DRAWN.getParent());
    Files.writeString(DRAWN, TracePicture.svg(spans));
  }

  @Test
  void theCommittedPictureIsTheOneThisTestDraws() throws IOException {
    String drawn = TracePicture.svg(runOneFormation());

    assertThat(COMMITTED)
        .as("docs/images/formation-trace.svg; after a change, copy " + DRAWN + " there")
        .exists()
        .hasContent(drawn);
  }

  /** The formation, its spans in the order they ended. */
  private List<SpanData> runOneFormation() {
    PollOptions options =
        PollOptions.builder()
            .initialInterval(Duration.ofSeconds(1))
            .multiplier(2)
            .maxInterval(Duration.ofSeconds(4))
            .jitter(0)
            .timeout(Duration.ofMinutes(10))
            .clock(time)
            .build();
    String saved;
    try (FormationSandbox sandbox =
            FormationSandbox.start(SandboxOptions.defaults().withClock(time));
        OpenTelemetrySdk first = openTelemetry("instance-a");
        OpenTelemetrySdk second = openTelemetry("instance-b")) {
      Span request =
          first
              .getTracer("partner-application")
              .spanBuilder("POST /onboarding")
              .setSpanKind(SpanKind.SERVER)
              .startSpan();
      Scope current = request.makeCurrent();
      try (FormationClient client = client(sandbox, first)) {
        DocumentSet set = client.documentSets().create(DocumentSets.DELAWARE_CORPORATION);
        for (Form form : client.forms().list(set.id())) {
          time.advance(Duration.ofMillis(400)); // the person filling it in
          client.forms().submit(form, example(form.id()));
        }
        saved = client.documentSets().startWait(set.id(), options).encode();
      } finally {
        current.close();
        request.end();
      }

      // Another instance takes the wait up from its saved string, with no span of its own current.
      try (FormationClient client = client(sandbox, second)) {
        WaitState wait = WaitState.decode(saved);
        PollResult result;
        do {
          Duration untilDue = Duration.between(time.instant(), onHalfSeconds(wait.nextPoll()));
          if (untilDue.compareTo(Duration.ZERO) > 0) {
            time.advance(untilDue); // the scheduler that runs the saved wait
          }
          result = client.documentSets().poll(wait, options);
          wait = result.waitState();
        } while (result.kind() != PollResult.Kind.COMPLETE);
      }
      // Before the SDKs close: closing shuts the exporter down, which forgets them.
      return List.copyOf(exporter.getFinishedSpanItems());
    }
  }

  /**
   * The due time on the scheduler's half-second grid: a wait measures on the client's own monotonic
   * clock from when it is taken up, so its due time is the fake one plus the real milliseconds the
   * poll took, and the picture must not move by them.
   */
  private static Instant onHalfSeconds(Instant due) {
    return Instant.ofEpochMilli(Math.round(due.toEpochMilli() / 500.0) * 500);
  }

  private FormationClient client(FormationSandbox sandbox, OpenTelemetrySdk openTelemetry) {
    return FormationClient.builder()
        .baseUrl(sandbox.baseUrl())
        .accessToken(sandbox.token())
        .tracer(FormationOpenTelemetry.create(openTelemetry))
        .build();
  }

  /** An instance's OpenTelemetry: every span kept, on the fake clock, with ids that count up. */
  private OpenTelemetrySdk openTelemetry(String instance) {
    return OpenTelemetrySdk.builder()
        .setTracerProvider(
            SdkTracerProvider.builder()
                .setResource(Resource.create(Attributes.of(TracePicture.INSTANCE, instance)))
                .setClock(new FakeClock(time))
                .setIdGenerator(new CountingIds(ids))
                .addSpanProcessor(SimpleSpanProcessor.create(exporter))
                .build())
        .setPropagators(ContextPropagators.create(W3CTraceContextPropagator.getInstance()))
        .build();
  }

  private static com.fasterxml.jackson.databind.JsonNode example(String formId) {
    return SandboxTemplates.form(SandboxTemplates.DELAWARE_CORPORATION, formId)
        .orElseThrow()
        .example();
  }

  private static List<SpanData> named(List<SpanData> spans, String name) {
    return spans.stream().filter(span -> span.getName().equals(name)).toList();
  }

  private static String instance(SpanData span) {
    return span.getResource().getAttribute(TracePicture.INSTANCE);
  }

  /** OpenTelemetry's clock on the fake time, so a span's times are the sandbox's. */
  private record FakeClock(FakeTime time) implements Clock {
    @Override
    public long now() {
      Instant now = time.instant();
      return now.getEpochSecond() * 1_000_000_000L + now.getNano();
    }

    @Override
    public long nanoTime() {
      return time.nanoTime();
    }
  }

  /** Trace and span ids from one counter, so that the picture is the same every run. */
  private record CountingIds(AtomicLong next) implements IdGenerator {
    @Override
    public String generateSpanId() {
      return String.format("%016x", next.incrementAndGet());
    }

    @Override
    public String generateTraceId() {
      return String.format("%032x", next.incrementAndGet());
    }
  }
}
