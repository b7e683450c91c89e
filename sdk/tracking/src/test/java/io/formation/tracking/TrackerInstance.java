package io.formation.tracking;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.formation.opentelemetry.FormationOpenTelemetry;
import io.formation.sdk.AttemptEvent;
import io.formation.sdk.FormationClient;
import io.formation.sdk.FormationException;
import io.formation.sdk.FormationListener;
import io.formation.sdk.PollOptions;
import io.formation.sdk.model.DocumentSet;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.LinkData;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import io.opentelemetry.sdk.trace.export.SpanExporter;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.concurrent.TimeUnit;

/**
 * One tracker instance of the multi-instance test, run in its own JVM: a partner's backend in
 * miniature. It tracks whatever the shared table holds and appends what it does to its own file,
 * one unbuffered write per line, so that a SIGKILL loses at most the line being written:
 *
 * <pre>
 * S setId micros             a poll of the set was sent
 * E setId micros             its answer came (or it failed)
 * D kind setId state micros  the handler was called
 * T span setId traceId links  a span linked to the span that created its set
 * </pre>
 *
 * <p>Times are the machine's monotonic clock ({@code System.nanoTime()} in microseconds), which
 * every process on the machine shares and {@code faketime} leaves alone: an instance whose wall
 * clock is set ahead still writes times the test can compare with the others'.
 *
 * <p>It stops by itself when its standard input closes (the test ended, or died) or after its
 * lifetime, whichever comes first.
 *
 * <p>Arguments: jdbcUrl user password baseUrl token name recordFile lifetimeSeconds heartbeatMillis
 */
public final class TrackerInstance {
  private TrackerInstance() {}

  /** Poll settings the single- and multi-instance runs share. */
  static PollOptions pollOptions() {
    return PollOptions.builder()
        .initialInterval(Duration.ofSeconds(4))
        .multiplier(1.0)
        .maxInterval(Duration.ofSeconds(4))
        .jitter(0.0)
        .timeout(Duration.ofMinutes(10))
        .build();
  }

  public static void main(String[] args) throws Exception {
    String jdbcUrl = args[0];
    String user = args[1];
    String password = args[2];
    String baseUrl = args[3];
    String token = args[4];
    String name = args[5];
    Records records = new Records(args[6]);
    long lifetimeSeconds = Long.parseLong(args[7]);
    Duration heartbeat = Duration.ofMillis(Long.parseLong(args[8]));

    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(jdbcUrl);
    config.setUsername(user);
    config.setPassword(password);
    config.setMaximumPoolSize(12);
    config.setPoolName(name);
    try (HikariDataSource dataSource = new HikariDataSource(config);
        FormationClient client =
            FormationClient.builder()
                .baseUrl(baseUrl)
                .accessToken(token)
                .allowInsecureHttp(true)
                .userAgent("tracker-" + name)
                .listener(records.listener())
                .tracer(FormationOpenTelemetry.create(records.openTelemetry()))
                .build()) {
      FormationTracker tracker =
          FormationTracker.builder(client, dataSource, records)
              .pollOptions(pollOptions())
              .instanceName(name)
              .threads(8)
              .pollingInterval(Duration.ofMillis(200))
              .heartbeat(heartbeat, 4)
              .retryAfterFailure(Duration.ofMillis(500))
              .configureScheduler(scheduler -> scheduler.pollUsingLockAndFetch(0.5, 1.0))
              .build();
      tracker.start();
      // The wall clock this JVM reads: the test checks that a skewed instance is skewed.
      System.out.println("CLOCK " + name + " " + Instant.now().toEpochMilli());
      System.out.println("STARTED " + name);
      System.out.flush();
      Thread stdin =
          new Thread(
              () -> {
                try {
                  while (System.in.read() >= 0) {
                    // Anything written means nothing; only the end of input does.
                  }
                } catch (IOException e) {
                  // The parent is gone: stop as if input had ended.
                }
              },
              "stdin-watch");
      stdin.setDaemon(true);
      stdin.start();
      stdin.join(TimeUnit.SECONDS.toMillis(lifetimeSeconds));
      tracker.close();
    }
    System.out.println("STOPPED " + name);
  }

  /** The instance's record file, and the listener and handler that write it. */
  static final class Records implements TrackingHandler {
    private static final String SETS_PATH = "/v1/document_sets/";
    private final OutputStream out;

    Records(String file) {
      try {
        this.out = new FileOutputStream(file, true);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }

    /**
     * OpenTelemetry whose spans of saved waits (those linked to the span that created their set)
     * are written as {@code T name setId traceId linkedSpanIds micros}.
     */
    OpenTelemetrySdk openTelemetry() {
      SpanExporter exporter =
          new SpanExporter() {
            @Override
            public CompletableResultCode export(Collection<SpanData> spans) {
              for (SpanData span : spans) {
                String setId =
                    span.getAttributes().get(AttributeKey.stringKey("formation.document_set.id"));
                if (!span.getLinks().isEmpty() && setId != null) {
                  StringBuilder links = new StringBuilder();
                  for (LinkData link : span.getLinks()) {
                    links.append(links.length() == 0 ? "" : ",");
                    links.append(link.getSpanContext().getSpanId());
                  }
                  line("T " + span.getName() + " " + setId + " " + span.getTraceId() + " " + links);
                }
              }
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
          };
      return OpenTelemetrySdk.builder()
          .setTracerProvider(
              SdkTracerProvider.builder()
                  .addSpanProcessor(SimpleSpanProcessor.create(exporter))
                  .build())
          .build();
    }

    private synchronized void line(String line) {
      try {
        out.write((line + "\n").getBytes(StandardCharsets.UTF_8));
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }

    private static String micros() {
      return Long.toString(System.nanoTime() / 1_000);
    }

    private static String setId(AttemptEvent attempt) {
      int at = attempt.url().indexOf(SETS_PATH);
      return at < 0 ? null : attempt.url().substring(at + SETS_PATH.length());
    }

    /**
     * The client's listener: a separate object, because both interfaces have a {@code
     * stateChanged(DocumentSet)} and only the handler's is a delivery.
     */
    FormationListener listener() {
      return new FormationListener() {
        @Override
        public void attemptStarted(AttemptEvent attempt) {
          String id = setId(attempt);
          if (id != null) {
            line("S " + id + " " + micros());
          }
        }

        @Override
        public void attemptFinished(AttemptEvent attempt) {
          String id = setId(attempt);
          if (id != null) {
            line("E " + id + " " + micros());
          }
        }
      };
    }

    @Override
    public void stateChanged(DocumentSet set) {
      line("D changed " + set.id() + " " + set.state().value() + " " + micros());
    }

    @Override
    public void completed(DocumentSet set) {
      line("D completed " + set.id() + " " + set.state().value() + " " + micros());
    }

    @Override
    public void inputNeeded(DocumentSet set) {
      line("D input " + set.id() + " " + set.state().value() + " " + micros());
    }

    @Override
    public void trackingEnded(String setId, FormationException reason) {
      line("D ended " + setId + " " + reason.getClass().getSimpleName() + " " + micros());
    }

    @Override
    public void trackingPaused(String setId, FormationException reason, Instant retryAt) {
      line("D paused " + setId + " " + reason.getClass().getSimpleName() + " " + micros());
    }
  }
}
