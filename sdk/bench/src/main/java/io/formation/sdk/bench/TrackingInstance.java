package io.formation.sdk.bench;

import com.zaxxer.hikari.HikariDataSource;
import io.formation.sdk.AttemptEvent;
import io.formation.sdk.FormationClient;
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
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One tracker instance of {@link TrackingBenchmark}, in a JVM of its own: a partner's backend that
 * does nothing but track, with its own connection pool and client (its share of the request
 * budget). It writes one line per handler call to its record file:
 *
 * <pre>
 * changed setId state epochMicros
 * completed setId epochMicros
 * </pre>
 *
 * (No set needs input, is unknown or refused here: a set that ended otherwise shows as never
 * completed.)
 *
 * <p>On standard input, a line {@code heap} makes it collect its garbage and print {@code HEAP
 * bytes}, the heap reachable now; the end of input stops it, as does its lifetime. On stopping it
 * prints {@code POLLS n}, the polls its client sent.
 *
 * <p>Its arguments are {@link Settings#arguments()}.
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

  /** What an instance is told on its command line, written and read here only. */
  record Settings(
      String jdbcUrl,
      String baseUrl,
      String name,
      Path records,
      double requestsPerSecond,
      int burst,
      Duration interval,
      int threads,
      Duration lifetime) {

    List<String> arguments() {
      return List.of(
          jdbcUrl,
          baseUrl,
          name,
          records.toString(),
          Double.toString(requestsPerSecond),
          Integer.toString(burst),
          interval.toString(),
          Integer.toString(threads),
          lifetime.toString());
    }

    static Settings parse(String[] args) {
      // Arguments are evaluated left to right, so each next() reads the next argument.
      Iterator<String> in = List.of(args).iterator();
      return new Settings(
          in.next(),
          in.next(),
          in.next(),
          Paths.get(in.next()),
          Double.parseDouble(in.next()),
          Integer.parseInt(in.next()),
          Duration.parse(in.next()),
          Integer.parseInt(in.next()),
          Duration.parse(in.next()));
    }
  }

  public static void main(String[] args) throws Exception {
    Settings settings = Settings.parse(args);
    String name = settings.name();
    AtomicLong polls = new AtomicLong();
    // A connection per tracker thread, and two for the scheduler's own fetches and heartbeats.
    try (HikariDataSource dataSource =
            TrackingBenchmark.pool(settings.jdbcUrl(), settings.threads() + 2, name);
        Records records = new Records(settings.records());
        FormationClient client =
            FormationClient.builder()
                .baseUrl(settings.baseUrl())
                .accessToken(LocalServer.TOKEN)
                .requestBudget(settings.requestsPerSecond(), settings.burst())
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
              .pollOptions(pollOptions(settings.interval()))
              .instanceName(name)
              .threads(settings.threads())
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
      commands.join(settings.lifetime().toMillis());
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

    Records(Path file) throws IOException {
      this.out = Files.newBufferedWriter(file, StandardCharsets.UTF_8);
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
    public synchronized void close() throws IOException {
      out.close();
    }
  }
}
