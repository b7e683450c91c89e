package io.formation.sdk.bench;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.formation.sdk.AttemptEvent;
import io.formation.sdk.FormationClient;
import io.formation.sdk.FormationException;
import io.formation.sdk.FormationListener;
import io.formation.sdk.PollOptions;
import io.formation.sdk.model.DocumentSet;
import io.formation.tracking.FormationTracker;
import io.formation.tracking.TrackingHandler;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One tracker instance of {@link TrackingBenchmark}, in a JVM of its own: a partner's backend that
 * does nothing but track, with its own connection pool and client (its share of the request
 * budget). It writes one line per handler call to its record file:
 *
 * <pre>
 * changed setId state epochMicros
 * completed setId epochMicros
 * other kind setId                     (input needed, ended, paused: none expected)
 * </pre>
 *
 * <p>On standard input, a line {@code heap} makes it collect its garbage and print {@code HEAP
 * bytes}, the heap reachable now; the end of input stops it, as does its lifetime. On stopping it
 * prints {@code POLLS n}, the polls its client sent.
 *
 * <p>Arguments: jdbcUrl baseUrl name recordFile requestsPerSecond burst intervalMillis threads
 * lifetimeSeconds
 */
public final class TrackingInstance {
  private TrackingInstance() {}

  /** The poll schedule every instance and the benchmark share: every interval, no backoff. */
  static PollOptions pollOptions(Duration interval) {
    return PollOptions.builder()
        .initialInterval(interval)
        .multiplier(1.0)
        .maxInterval(interval)
        .jitter(0.0)
        .timeout(Duration.ofHours(1))
        .build();
  }

  public static void main(String[] args) throws Exception {
    String jdbcUrl = args[0];
    String baseUrl = args[1];
    String name = args[2];
    String recordFile = args[3];
    double requestsPerSecond = Double.parseDouble(args[4]);
    int burst = Integer.parseInt(args[5]);
    Duration interval = Duration.ofMillis(Long.parseLong(args[6]));
    int threads = Integer.parseInt(args[7]);
    long lifetimeSeconds = Long.parseLong(args[8]);

    HikariConfig pool = new HikariConfig();
    pool.setJdbcUrl(jdbcUrl);
    pool.setUsername(TrackingBenchmark.DB_USER);
    pool.setPassword(TrackingBenchmark.DB_USER);
    // One per tracker thread, and two for the scheduler's own fetches and heartbeats.
    pool.setMaximumPoolSize(threads + 2);
    pool.setPoolName(name);
    AtomicLong polls = new AtomicLong();
    try (HikariDataSource dataSource = new HikariDataSource(pool);
        Records records = new Records(recordFile);
        FormationClient client =
            FormationClient.builder()
                .baseUrl(baseUrl)
                .accessToken(LocalServer.TOKEN)
                .requestBudget(requestsPerSecond, burst)
                .listener(
                    new FormationListener() {
                      @Override
                      public void attemptStarted(AttemptEvent attempt) {
                        polls.incrementAndGet();
                      }
                    })
                .build()) {
      FormationTracker tracker =
          FormationTracker.builder(client, dataSource, records)
              .pollOptions(pollOptions(interval))
              .instanceName(name)
              .threads(threads)
              .pollingInterval(TrackingBenchmark.POLLING_INTERVAL)
              // PostgreSQL's SELECT ... FOR UPDATE SKIP LOCKED: one statement picks a batch, the
              // strategy db-scheduler recommends for high throughput on PostgreSQL.
              .configureScheduler(scheduler -> scheduler.pollUsingLockAndFetch(0.5, 1.0))
              .build();
      tracker.start();
      System.out.println("STARTED " + name);
      Thread commands = new Thread(() -> answer(name), "commands");
      commands.setDaemon(true);
      commands.start();
      commands.join(TimeUnit.SECONDS.toMillis(lifetimeSeconds));
      tracker.close();
    }
    System.out.println("POLLS " + polls.get());
    System.out.println("STOPPED " + name);
  }

  /** Reads the benchmark's commands until its end of input (or its death) closes the pipe. */
  private static void answer(String name) {
    try (BufferedReader in =
        new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8))) {
      String line;
      while ((line = in.readLine()) != null) {
        if (line.equals("heap")) {
          System.out.println("HEAP " + HeapWatch.liveNow());
        }
      }
    } catch (IOException e) {
      System.out.println(name + ": standard input failed, stopping: " + e);
    }
  }

  /** The handler: one line per call, buffered, as the instance stops by itself to write it out. */
  private static final class Records implements TrackingHandler, AutoCloseable {
    private final Writer out;

    Records(String file) throws IOException {
      this.out = Files.newBufferedWriter(Paths.get(file), StandardCharsets.UTF_8);
    }

    private synchronized void line(String line) {
      try {
        out.write(line);
        out.write('\n');
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }

    @Override
    public void stateChanged(DocumentSet set) {
      line("changed " + set.id() + " " + set.state().value() + " " + LocalServer.epochMicros());
    }

    @Override
    public void completed(DocumentSet set) {
      line("completed " + set.id() + " " + LocalServer.epochMicros());
    }

    @Override
    public void inputNeeded(DocumentSet set) {
      line("other input " + set.id());
    }

    @Override
    public void trackingEnded(String setId, FormationException reason) {
      line("other ended " + setId + " " + reason.getClass().getSimpleName());
    }

    @Override
    public void trackingPaused(String setId, FormationException reason, Instant retryAt) {
      line("other paused " + setId + " " + reason.getClass().getSimpleName());
    }

    @Override
    public synchronized void close() throws IOException {
      out.close();
    }
  }
}
