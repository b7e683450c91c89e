package io.formation.spring.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import io.formation.opentelemetry.FormationOpenTelemetry;
import io.formation.sandbox.FormationSandbox;
import io.formation.sdk.DocumentSets;
import io.formation.sdk.FormationClient;
import io.formation.sdk.FormationListener;
import io.formation.sdk.FormationTracer;
import io.formation.sdk.Forms;
import io.formation.sdk.model.DocumentSet;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.propagation.ContextPropagators;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.opentelemetry.autoconfigure.OpenTelemetrySdkAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

class FormationOpenTelemetryAutoConfigurationTest {
  final InMemorySpanExporter spans = InMemorySpanExporter.create();
  final OpenTelemetrySdk openTelemetry =
      OpenTelemetrySdk.builder()
          .setTracerProvider(
              SdkTracerProvider.builder()
                  .addSpanProcessor(SimpleSpanProcessor.create(spans))
                  .build())
          .setPropagators(ContextPropagators.create(W3CTraceContextPropagator.getInstance()))
          .build();

  final ApplicationContextRunner runner =
      new ApplicationContextRunner()
          .withConfiguration(AutoConfigurations.of(FormationAutoConfiguration.class))
          .withPropertyValues("formation.sandbox.enabled=true");

  @AfterEach
  void shutDown() {
    openTelemetry.close();
  }

  @Test
  void withAnOpenTelemetryBeanEachCallOfTheClientIsASpanWithItsAttemptsInside() {
    runner
        .withBean(OpenTelemetry.class, () -> openTelemetry)
        .run(
            context -> {
              assertThat(context).hasSingleBean(FormationTracer.class);
              DocumentSet set =
                  context.getBean(DocumentSets.class).create(DocumentSets.DELAWARE_CORPORATION);
              context.getBean(Forms.class).list(set.id());

              List<SpanData> finished = spans.getFinishedSpanItems();
              SpanData create = named(finished, "DocumentSets.create");
              SpanData list = named(finished, "Forms.list");
              assertThat(create.getKind()).isEqualTo(SpanKind.INTERNAL);
              assertThat(create.getAttributes().get(SET_ID)).isEqualTo(set.id());
              assertThat(list.getAttributes().get(SET_ID)).isEqualTo(set.id());
              SpanData post = childOf(finished, create);
              assertThat(post.getName()).isEqualTo("POST");
              assertThat(post.getKind()).isEqualTo(SpanKind.CLIENT);
              assertThat(post.getAttributes().get(STATUS)).isEqualTo(201L);
              assertThat(childOf(finished, list).getName()).isEqualTo("GET");

              // The attempt's context reached the service.
              assertThat(context.getBean(FormationSandbox.class).requests())
                  .anySatisfy(
                      request ->
                          assertThat(request.header("traceparent"))
                              .hasValueSatisfying(
                                  value ->
                                      assertThat(value)
                                          .contains(post.getTraceId())
                                          .contains(post.getSpanId())));
            });
  }

  @Test
  void boot4sOwnOpenTelemetryBeanIsThereBeforeTheClientIsBuilt() {
    new ApplicationContextRunner()
        .withConfiguration(
            AutoConfigurations.of(
                FormationAutoConfiguration.class, OpenTelemetrySdkAutoConfiguration.class))
        .withPropertyValues("formation.sandbox.enabled=true")
        .withBean(
            SdkTracerProvider.class,
            () ->
                SdkTracerProvider.builder()
                    .addSpanProcessor(SimpleSpanProcessor.create(spans))
                    .build())
        .run(
            context -> {
              assertThat(context).hasSingleBean(OpenTelemetrySdk.class);
              context.getBean(DocumentSets.class).create(DocumentSets.DELAWARE_CORPORATION);

              assertThat(spans.getFinishedSpanItems())
                  .extracting(SpanData::getName)
                  .contains("DocumentSets.create", "POST");
            });
  }

  @Test
  void theTracerHearsTheClientOnceNotAlsoAsAListener() {
    AtomicInteger attempts = new AtomicInteger();
    FormationTracer counting =
        new FormationTracer() {
          @Override
          public CallSpan startCall(Call call) {
            return FormationOpenTelemetry.create(OpenTelemetry.noop()).startCall(call);
          }

          @Override
          public void attemptFinished(io.formation.sdk.AttemptEvent attempt) {
            attempts.incrementAndGet();
          }
        };
    runner
        .withBean(FormationTracer.class, () -> counting)
        .withBean(FormationListener.class, () -> new FormationListener() {})
        .run(
            context -> {
              context.getBean(DocumentSets.class).create(DocumentSets.DELAWARE_CORPORATION);

              assertThat(context.getBean(FormationClient.class).tracer()).containsSame(counting);
              assertThat(attempts).hasValue(1);
            });
  }

  @Test
  void withoutAnOpenTelemetryBeanTheClientIsNotTraced() {
    runner.run(
        context -> {
          assertThat(context).doesNotHaveBean(FormationTracer.class);
          assertThat(context.getBean(FormationClient.class).tracer()).isEmpty();
        });
  }

  @Test
  void withoutFormationOpenTelemetryOnTheClassPathTheClientIsNotTraced() {
    runner
        .withClassLoader(new FilteredClassLoader(FormationOpenTelemetry.class))
        .withBean(OpenTelemetry.class, () -> openTelemetry)
        .run(
            context -> {
              assertThat(context).doesNotHaveBean(FormationTracer.class);
              assertThat(context.getBean(FormationClient.class).tracer()).isEmpty();
            });
  }

  @Test
  void withoutOpenTelemetryOnTheClassPathTheClientIsNotTraced() {
    runner
        .withClassLoader(new FilteredClassLoader("io.opentelemetry"))
        .withBean(OpenTelemetry.class, () -> openTelemetry)
        .run(
            context -> {
              assertThat(context).doesNotHaveBean(FormationTracer.class);
              assertThat(context.getBean(FormationClient.class).tracer()).isEmpty();
            });
  }

  @Test
  void aPropertyTurnsItOff() {
    runner
        .withBean(OpenTelemetry.class, () -> openTelemetry)
        .withPropertyValues("formation.opentelemetry.enabled=false")
        .run(
            context -> {
              assertThat(context).doesNotHaveBean(FormationTracer.class);
              assertThat(context.getBean(FormationClient.class).tracer()).isEmpty();
            });
  }

  @Test
  void aTracerOfTheApplicationsOwnWins() {
    FormationTracer own = FormationOpenTelemetry.create(OpenTelemetry.noop());
    runner
        .withBean(OpenTelemetry.class, () -> openTelemetry)
        .withBean(FormationTracer.class, () -> own)
        .run(
            context -> {
              assertThat(context).getBean(FormationTracer.class).isSameAs(own);
              assertThat(context.getBean(FormationClient.class).tracer()).containsSame(own);
            });
  }

  private static final AttributeKey<String> SET_ID =
      AttributeKey.stringKey("formation.document_set.id");
  private static final AttributeKey<Long> STATUS =
      AttributeKey.longKey("http.response.status_code");

  private static SpanData named(List<SpanData> spans, String name) {
    return spans.stream()
        .filter(span -> span.getName().equals(name))
        .findFirst()
        .orElseThrow(() -> new AssertionError("no span " + name + " in " + spans));
  }

  private static SpanData childOf(List<SpanData> spans, SpanData parent) {
    return spans.stream()
        .filter(span -> span.getParentSpanId().equals(parent.getSpanId()))
        .findFirst()
        .orElseThrow(() -> new AssertionError("no child of " + parent.getName()));
  }
}
