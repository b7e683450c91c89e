package io.formation.opentelemetry;

import io.formation.sdk.FormationClient;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.propagation.ContextPropagators;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.metrics.SdkMeterProvider;
import io.opentelemetry.sdk.metrics.data.MetricData;
import io.opentelemetry.sdk.testing.exporter.InMemoryMetricReader;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.Consumer;

/** An OpenTelemetry SDK that keeps every span and metric in memory, and clients traced by it. */
class InMemoryTelemetry implements AutoCloseable {
  final InMemorySpanExporter spans = InMemorySpanExporter.create();
  final InMemoryMetricReader metrics = InMemoryMetricReader.create();
  final OpenTelemetrySdk sdk =
      OpenTelemetrySdk.builder()
          .setTracerProvider(
              SdkTracerProvider.builder()
                  .addSpanProcessor(SimpleSpanProcessor.create(spans))
                  .build())
          .setMeterProvider(SdkMeterProvider.builder().registerMetricReader(metrics).build())
          .setPropagators(ContextPropagators.create(W3CTraceContextPropagator.getInstance()))
          .build();
  private final List<FormationClient> clients = new ArrayList<>();

  /** {@return every span finished, in the order they started} */
  List<SpanData> spans() {
    return spans.getFinishedSpanItems().stream()
        .sorted(Comparator.comparingLong(SpanData::getStartEpochNanos))
        .toList();
  }

  List<SpanData> named(String name) {
    return spans().stream().filter(span -> span.getName().equals(name)).toList();
  }

  MetricData metric(String name) {
    return metrics.collectAllMetrics().stream()
        .filter(metric -> metric.getName().equals(name))
        .findFirst()
        .orElseThrow(() -> new AssertionError("no metric " + name));
  }

  /** A client traced by this SDK, closed with it. */
  FormationClient client(String baseUrl, String token, Consumer<FormationClient.Builder> more) {
    FormationClient.Builder builder =
        FormationClient.builder()
            .baseUrl(baseUrl)
            .accessToken(token)
            .tracer(FormationOpenTelemetry.create(sdk));
    more.accept(builder);
    FormationClient client = builder.build();
    clients.add(client);
    return client;
  }

  @Override
  public void close() {
    clients.forEach(FormationClient::close);
    sdk.close();
  }
}
