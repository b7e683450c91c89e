package io.formation.sdk.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.formation.opentelemetry.FormationOpenTelemetry;
import io.formation.sdk.FormationClient;
import io.formation.sdk.model.DocumentSet;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.propagation.ContextPropagators;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.metrics.InstrumentType;
import io.opentelemetry.sdk.metrics.SdkMeterProvider;
import io.opentelemetry.sdk.metrics.data.AggregationTemporality;
import io.opentelemetry.sdk.metrics.data.MetricData;
import io.opentelemetry.sdk.metrics.export.MetricExporter;
import io.opentelemetry.sdk.metrics.export.PeriodicMetricReader;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.BatchSpanProcessor;
import io.opentelemetry.sdk.trace.export.SpanExporter;
import io.opentelemetry.sdk.trace.samplers.Sampler;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.Collection;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.Response;
import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Benchmark 1, call overhead: one blocking GET of a ~1 KB document set through {@code
 * client.documentSets().get(id)} against the same GET written by hand with OkHttp and {@code
 * ObjectMapper.readTree}, on the same OkHttp settings and the same local server. Run it through
 * {@link CallOverhead}, which prints the SDK/raw ratios.
 *
 * <p>The traced side is the SDK call with {@code formation-opentelemetry} over the OpenTelemetry
 * SDK ({@link Traced}), against the same raw call.
 *
 * <p>Besides JMH's {@code -prof gc} figure (every thread of the process, the server's included),
 * each call counts the bytes allocated by the calling thread alone: a blocking OkHttp call runs
 * entirely on it, so that is the client's cost without the server's.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 4, time = 2)
@Fork(
    value = 1,
    jvmArgsAppend = {"-Xms512m", "-Xmx512m"})
@State(Scope.Benchmark)
public class CallOverheadBenchmark {
  static final String ID = "ds_4f2a9c";

  LocalServer server;
  OkHttpClient http;
  private FormationClient client;
  private ObjectMapper mapper;
  private String url;

  /**
   * What the benchmark thread itself spent: the bytes it allocated in its calls, counted per call,
   * and its CPU time over the iteration (read at the iteration's start and end: reading it costs
   * ~0.7 us, too much to do per call). Also counts the calls, warm-down ones included, so both
   * figures divide by the same count.
   */
  @State(Scope.Thread)
  @AuxCounters(AuxCounters.Type.EVENTS)
  public static class ClientThread {
    private static final com.sun.management.ThreadMXBean THREADS =
        (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

    public long clientBytes;
    public long clientCpuNanos;
    public long calls;
    private long cpuAtStart;

    @Setup(Level.Iteration)
    public void start() {
      clientBytes = 0;
      calls = 0;
      cpuAtStart = THREADS.getCurrentThreadCpuTime();
    }

    @TearDown(Level.Iteration)
    public void stop() {
      clientCpuNanos = THREADS.getCurrentThreadCpuTime() - cpuAtStart;
    }

    static long allocated() {
      return THREADS.getCurrentThreadAllocatedBytes();
    }

    void count(long allocatedBefore) {
      clientBytes += allocated() - allocatedBefore;
      calls++;
    }
  }

  @Setup(Level.Trial)
  public void start() {
    if (Boolean.getBoolean("bench.debugLog")) {
      logDebugToNowhere();
    }
    server = LocalServer.start();
    http = SharedHttp.okHttp();
    client = SharedHttp.sdk(server.baseUrl(), http);
    mapper = new ObjectMapper();
    url = server.baseUrl() + "/v1/document_sets/";
  }

  /**
   * Debug logging on, as a partner turns it on: the SDK's logger at debug (java.util.logging's
   * FINE) with a handler that takes every record and drops it, so the figure is the SDK's cost of
   * logging, not a console's.
   */
  private static void logDebugToNowhere() {
    java.util.logging.Logger sdk = java.util.logging.Logger.getLogger("io.formation.sdk");
    sdk.setUseParentHandlers(false);
    sdk.setLevel(java.util.logging.Level.FINE);
    sdk.addHandler(
        new java.util.logging.Handler() {
          @Override
          public void publish(java.util.logging.LogRecord record) {
            record.getMessage();
          }

          @Override
          public void flush() {}

          @Override
          public void close() {}
        });
    KEEP.add(sdk);
  }

  /** JUL keeps loggers weakly: this one must outlive the setup. */
  private static final java.util.List<java.util.logging.Logger> KEEP =
      new java.util.concurrent.CopyOnWriteArrayList<>();

  @TearDown(Level.Trial)
  public void stop() {
    client.close();
    SharedHttp.release(http);
    server.close();
  }

  @Benchmark
  public DocumentSet sdk(ClientThread thread) {
    long before = ClientThread.allocated();
    DocumentSet set = client.documentSets().get(ID);
    thread.count(before);
    return set;
  }

  /** What a careful hand-written call does: build the request, check the status, parse. */
  @Benchmark
  public JsonNode raw(ClientThread thread) throws IOException {
    long before = ClientThread.allocated();
    Request request =
        new Request.Builder()
            .url(url + ID)
            .header("Authorization", "Bearer " + LocalServer.TOKEN)
            .header("Accept", "application/vnd.api+json")
            .build();
    JsonNode tree;
    try (Response response = http.newCall(request).execute()) {
      if (!response.isSuccessful()) {
        throw new IOException("GET " + request.url() + " returned " + response.code());
      }
      tree = mapper.readTree(response.body().byteStream());
    }
    thread.count(before);
    return tree;
  }

  /** The SDK call, traced: its INTERNAL span and its attempt's CLIENT span, and the metrics. */
  @Benchmark
  public DocumentSet traced(Traced traced, ClientThread thread) {
    long before = ClientThread.allocated();
    DocumentSet set = traced.client.documentSets().get(ID);
    thread.count(before);
    traced.calls++;
    return set;
  }

  /**
   * The SDK with {@code formation-opentelemetry} over the OpenTelemetry SDK as a partner runs it in
   * production, but for where the data goes: every trace sampled, so each call's two spans are
   * built in full and its attempt sends a {@code traceparent}; a {@link BatchSpanProcessor} hands
   * them to an exporter that counts and drops them; the metrics are collected every second by a
   * {@link PeriodicMetricReader} into an exporter that drops them. At the end every span must have
   * reached the exporter, two per call, or the fork fails: a span dropped from a full queue costs
   * less.
   */
  @State(Scope.Benchmark)
  public static class Traced {
    private final AtomicLong exported = new AtomicLong();
    private OpenTelemetrySdk openTelemetry;
    FormationClient client;
    long calls;

    @Setup(Level.Trial)
    public void start(CallOverheadBenchmark bench) {
      openTelemetry =
          OpenTelemetrySdk.builder()
              .setTracerProvider(
                  SdkTracerProvider.builder()
                      .setSampler(Sampler.alwaysOn())
                      .addSpanProcessor(
                          BatchSpanProcessor.builder(new DroppedSpans(exported))
                              // Room for seconds of spans, so none is dropped while the exporting
                              // thread waits for one of the two cores.
                              .setMaxQueueSize(1 << 17)
                              .build())
                      .build())
              .setMeterProvider(
                  SdkMeterProvider.builder()
                      .registerMetricReader(
                          PeriodicMetricReader.builder(new DroppedMetrics())
                              .setInterval(Duration.ofSeconds(1))
                              .build())
                      .build())
              .setPropagators(ContextPropagators.create(W3CTraceContextPropagator.getInstance()))
              .build();
      client =
          FormationClient.builder()
              .baseUrl(bench.server.baseUrl())
              .accessToken(LocalServer.TOKEN)
              .httpClient(bench.http)
              .connectTimeout(SharedHttp.CONNECT_TIMEOUT)
              .readTimeout(SharedHttp.READ_TIMEOUT)
              .writeTimeout(SharedHttp.WRITE_TIMEOUT)
              .callTimeout(SharedHttp.CALL_TIMEOUT)
              .tracer(FormationOpenTelemetry.create(openTelemetry))
              .build();
    }

    @TearDown(Level.Trial)
    public void stop() {
      client.close();
      openTelemetry.shutdown().join(30, TimeUnit.SECONDS);
      if (exported.get() != 2 * calls) {
        throw new IllegalStateException(
            exported.get() + " spans reached the exporter for " + calls + " calls, not two each");
      }
    }
  }

  /** Counts the spans it is given and drops them. */
  private static final class DroppedSpans implements SpanExporter {
    private final AtomicLong exported;

    DroppedSpans(AtomicLong exported) {
      this.exported = exported;
    }

    @Override
    public CompletableResultCode export(Collection<SpanData> spans) {
      exported.addAndGet(spans.size());
      return CompletableResultCode.ofSuccess();
    }

    @Override
    public CompletableResultCode flush() {
      return CompletableResultCode.ofSuccess();
    }

    @Override
    public CompletableResultCode shutdown() {
      return CompletableResultCode.ofSuccess();
    }
  }

  /** Drops the metrics it is given. */
  private static final class DroppedMetrics implements MetricExporter {
    @Override
    public AggregationTemporality getAggregationTemporality(InstrumentType instrumentType) {
      return AggregationTemporality.CUMULATIVE;
    }

    @Override
    public CompletableResultCode export(Collection<MetricData> metrics) {
      return CompletableResultCode.ofSuccess();
    }

    @Override
    public CompletableResultCode flush() {
      return CompletableResultCode.ofSuccess();
    }

    @Override
    public CompletableResultCode shutdown() {
      return CompletableResultCode.ofSuccess();
    }
  }
}
