package io.formation.sdk.bench;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.formation.sdk.FormationClient;
import io.formation.tracking.FormationTracker;
import io.formation.tracking.TrackingHandler;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.stream.Stream;
import javax.sql.DataSource;

/**
 * Benchmark 7, tracking (issue 17): {@value #DEFAULT_SETS} document sets tracked by {@code
 * formation-tracking} on a real PostgreSQL server, by one tracker instance and then by three, each
 * in a JVM of its own ({@link TrackingInstance}) sharing the table, against the local server.
 *
 * <p>Each set is {@code filing_in_progress} until a time known exactly, Δ after the server answered
 * its first poll (Δ spread evenly over 2% to 98% of the poll interval by the set's number), and
 * {@code complete} from then on. All sets are tracked (through {@link FormationTracker#track}, as a
 * partner does) before the instances start, so their first polls are all due at once: the instances
 * poll as fast as the request budget (or the machine) lets them, which is the sustained rate
 * reported. Every set's second poll falls due one interval after its first and sees {@code
 * complete}: if the tracker kept its schedule exactly, the handler would hear of it (interval - Δ)
 * after the change, the delay the schedule implies; the benchmark reports it next to the delay the
 * handlers measured, and splits the difference into the completing poll's wait past its due time
 * and the time from its answer to the handler's call. Once every set has been polled, each instance
 * reports its reachable heap.
 *
 * <p>Arguments: {@code [sets] [total budget, requests/s] [poll interval, s] [threads per
 * instance]}.
 */
public final class TrackingBenchmark {
  static final int DEFAULT_SETS = 100_000;
  static final String DB_USER = "postgres";
  static final Duration POLLING_INTERVAL = Duration.ofSeconds(1);
  private static final int ENROLMENT_THREADS = 8;
  private static final int BURST = 50;
  private static final Duration PHASE_LIMIT = Duration.ofMinutes(15);
  private static final Path DIR = Paths.get("target", "tracking-bench");
  private static final String TABLE = FormationTracker.DEFAULT_TABLE;

  private TrackingBenchmark() {}

  public static void main(String[] args) throws Exception {
    int sets = args.length > 0 ? Integer.parseInt(args[0]) : DEFAULT_SETS;
    double budget = args.length > 1 ? Double.parseDouble(args[1]) : 2_000;
    Duration interval = Duration.ofSeconds(args.length > 2 ? Long.parseLong(args[2]) : 60);
    int threads = args.length > 3 ? Integer.parseInt(args[3]) : 16;
    Files.createDirectories(DIR);
    Schedule schedule = new Schedule(interval);
    LoadWatch load = new LoadWatch();
    long started = System.nanoTime();
    List<Phase> phases = new ArrayList<>();
    try (EmbeddedPostgres postgres = EmbeddedPostgres.builder().start();
        LocalServer server = LocalServer.completingAfterFirstPoll(schedule::changeMicros);
        HikariDataSource database =
            pool(postgres.getJdbcUrl(DB_USER, DB_USER), ENROLMENT_THREADS, "benchmark");
        FormationClient client =
            FormationClient.builder()
                .baseUrl(server.baseUrl())
                .accessToken(LocalServer.TOKEN)
                .build()) {
      createTables(database, FormationTracker.POSTGRESQL_SQL);
      // Tracks without polling: the instances poll.
      FormationTracker enrolment =
          FormationTracker.builder(client, database, new TrackingHandler() {})
              .pollOptions(TrackingInstance.pollOptions(interval))
              .build();
      Run run =
          new Run(postgres.getJdbcUrl(DB_USER, DB_USER), server, database, enrolment, schedule);
      for (int instances : new int[] {1, 3}) {
        phases.add(run.phase(instances, sets, budget, threads, load, started));
      }
    }
    report(phases, sets, budget, interval, threads, load, started);
  }

  /** When each set changes at the server, and what the poll schedule implies for its delay. */
  record Schedule(Duration interval) {
    /** Δ: the set's change, after its first answered poll, from its number after the last '-'. */
    long changeMicros(String id) {
      long number = Long.parseLong(id.substring(id.lastIndexOf('-') + 1));
      // The golden ratio's fraction spreads consecutive numbers evenly over the interval.
      double fraction = (number * 0.6180339887498949) % 1.0;
      return (long) (interval.toNanos() / 1_000 * (0.02 + 0.96 * fraction));
    }

    /** The second poll comes one interval after the first, so it is this long after the change. */
    long impliedDelayMicros(String id) {
      return interval.toNanos() / 1_000 - changeMicros(id);
    }
  }

  /** What one phase measured. */
  record Phase(
      int instances,
      double enrolmentSeconds,
      long tableBytes,
      long tableBytesAfter,
      double drainSeconds,
      double sustainedPerSecond,
      double peakPerSecond,
      double overallPerSecond,
      double pollsPerSet,
      long[] heapBetweenWaves,
      long[] heapAtEnd,
      long[] pollsPerInstance,
      long[] delays,
      long[] implied,
      long[] waited,
      long[] handled,
      int deliveries,
      int repeats,
      int missing,
      double seconds) {}

  /** The state the phases share. */
  private record Run(
      String jdbcUrl,
      LocalServer server,
      DataSource database,
      FormationTracker enrolment,
      Schedule schedule) {

    Phase phase(int count, int sets, double budget, int threads, LoadWatch load, long started)
        throws Exception {
      String label = count == 1 ? "one" : "three";
      List<String> ids = new ArrayList<>(sets);
      for (int i = 0; i < sets; i++) {
        ids.add(label + "-" + i);
      }
      long polledBefore = server.polledIds();
      long requestsBefore = server.requests();
      long completeBefore = server.completeAnswers();
      // Each phase weighs the table as the first did, without the dead rows the one before left
      // (autovacuum would reclaim them in its own time).
      try (Connection connection = database.getConnection();
          Statement statement = connection.createStatement()) {
        statement.execute("VACUUM FULL " + TABLE);
      }
      progress(started, load, label + ": tracking " + sets + " sets");
      long enrolStart = System.nanoTime();
      track(enrolment, ids);
      double enrolmentSeconds = (System.nanoTime() - enrolStart) / 1e9;
      long tableBytes = tableBytes(database);
      progress(
          started,
          load,
          String.format(
              Locale.ROOT,
              "%s: %,d tracked in %.1f s; table %s",
              label,
              tracked(database),
              enrolmentSeconds,
              HeapWatch.mib(tableBytes)));

      List<Instance> instances = new ArrayList<>();
      long phaseStart = System.nanoTime();
      long[] heapBetween = new long[count];
      // Not weighed (-1) if the sets were all polled before the last instance had started.
      Arrays.fill(heapBetween, -1);
      long[] heapEnd = new long[count];
      double peak;
      try (Rates rates = new Rates(server)) {
        for (int i = 0; i < count; i++) {
          instances.add(
              Instance.start(
                  jdbcUrl,
                  server.baseUrl(),
                  label + "-" + (char) ('a' + i),
                  budget / count,
                  Math.max(1, BURST / count),
                  schedule.interval(),
                  threads));
        }
        long deadline = System.nanoTime() + PHASE_LIMIT.toNanos();
        boolean betweenWaves = false;
        long lastProgress = System.nanoTime();
        while (server.completeAnswers() - completeBefore < sets || tracked(database) > 0) {
          if (System.nanoTime() > deadline) {
            throw new IllegalStateException(
                label
                    + ": not done after "
                    + PHASE_LIMIT
                    + ": "
                    + (server.completeAnswers() - completeBefore)
                    + " sets complete, "
                    + tracked(database)
                    + " tracked");
          }
          Thread.sleep(1_000);
          long now = System.nanoTime();
          load.sample();
          if (!betweenWaves && server.polledIds() - polledBefore >= sets) {
            betweenWaves = true;
            progress(started, load, label + ": every set polled once; weighing the heaps");
            for (int i = 0; i < count; i++) {
              heapBetween[i] = instances.get(i).heap();
            }
          }
          if (now - lastProgress > TimeUnit.SECONDS.toNanos(15)) {
            lastProgress = now;
            progress(
                started,
                load,
                String.format(
                    Locale.ROOT,
                    "%s: %,d first polls, %,d complete, %,.0f polls/s",
                    label,
                    server.polledIds() - polledBefore,
                    server.completeAnswers() - completeBefore,
                    rates.latest()));
          }
        }
        peak = rates.peak();
        for (int i = 0; i < count; i++) {
          heapEnd[i] = instances.get(i).heap();
        }
      } finally {
        for (Instance instance : instances) {
          instance.stop();
        }
      }
      double seconds = (System.nanoTime() - phaseStart) / 1e9;
      long tableBytesAfter = tableBytes(database);
      progress(started, load, label + ": done; reading the records");

      long[] firstPolls = new long[sets];
      long polls = 0;
      for (int i = 0; i < sets; i++) {
        firstPolls[i] = server.firstPollMicros(ids.get(i));
        polls += server.polls(ids.get(i));
      }
      Arrays.sort(firstPolls);
      double drainSeconds = (firstPolls[sets - 1] - firstPolls[0]) / 1e6;
      // The first polls between the 10th and the 90th percentile: the rate once the instances'
      // JVMs have warmed up, and before the last stragglers.
      int tenth = sets / 10;
      int ninetieth = sets - 1 - tenth;
      double sustained =
          (ninetieth - tenth) / Math.max((firstPolls[ninetieth] - firstPolls[tenth]) / 1e6, 1e-3);
      long[] pollsPerInstance = new long[count];
      List<Path> recordFiles = new ArrayList<>();
      for (int i = 0; i < count; i++) {
        pollsPerInstance[i] = instances.get(i).polls();
        recordFiles.add(instances.get(i).records);
      }
      Deliveries deliveries = Deliveries.read(recordFiles);
      long[] delays = new long[ids.size()];
      long[] implied = new long[ids.size()];
      long[] waited = new long[ids.size()];
      long[] handled = new long[ids.size()];
      int measured = 0;
      int missing = 0;
      for (String id : ids) {
        Long heard = deliveries.completed().get(id);
        long first = server.firstPollMicros(id);
        if (heard == null || first < 0) {
          missing++;
          continue;
        }
        long delay = heard - (first + schedule.changeMicros(id));
        delays[measured] = delay;
        implied[measured] = schedule.impliedDelayMicros(id);
        // The delay is implied + waited + handled: the schedule's part, the second poll's wait
        // past its due time (for a thread, a turn of the budget, the backlog), and the time from
        // the server's answer to the handler's call.
        long last = server.lastPollMicros(id);
        waited[measured] = last - (first + schedule.interval().toNanos() / 1_000);
        handled[measured] = heard - last;
        measured++;
      }
      delays = sorted(delays, measured);
      implied = sorted(implied, measured);
      waited = sorted(waited, measured);
      handled = sorted(handled, measured);
      double lastPollSeconds = (System.nanoTime() - phaseStart) / 1e9;
      return new Phase(
          count,
          enrolmentSeconds,
          tableBytes,
          tableBytesAfter,
          drainSeconds,
          sustained,
          peak,
          (server.requests() - requestsBefore) / lastPollSeconds,
          (double) polls / sets,
          heapBetween,
          heapEnd,
          pollsPerInstance,
          delays,
          implied,
          waited,
          handled,
          deliveries.count(),
          deliveries.repeats(),
          missing,
          seconds);
    }
  }

  private static long[] sorted(long[] values, int length) {
    long[] copy = Arrays.copyOf(values, length);
    Arrays.sort(copy);
    return copy;
  }

  /** Tracks the sets from a few threads, as a backend's requests would. */
  private static void track(FormationTracker tracker, List<String> ids) throws Exception {
    ExecutorService threads = Executors.newFixedThreadPool(ENROLMENT_THREADS);
    try {
      List<Future<?>> chunks = new ArrayList<>();
      int chunk = (ids.size() + ENROLMENT_THREADS - 1) / ENROLMENT_THREADS;
      for (int from = 0; from < ids.size(); from += chunk) {
        List<String> part = ids.subList(from, Math.min(ids.size(), from + chunk));
        chunks.add(threads.submit(() -> part.forEach(tracker::track)));
      }
      for (Future<?> one : chunks) {
        one.get();
      }
    } finally {
      threads.shutdownNow();
    }
  }

  /** A pool of connections to the benchmark's database, as a partner's application keeps one. */
  static HikariDataSource pool(String jdbcUrl, int size, String name) {
    HikariConfig pool = new HikariConfig();
    pool.setJdbcUrl(jdbcUrl);
    pool.setUsername(DB_USER);
    pool.setPassword(DB_USER);
    pool.setMaximumPoolSize(size);
    pool.setPoolName(name);
    return new HikariDataSource(pool);
  }

  /** Creates tables from SQL files formation-tracking ships, as a partner's migration does. */
  static void createTables(DataSource database, String... files) throws IOException, SQLException {
    for (String file : files) {
      String sql;
      try (InputStream in = FormationTracker.class.getClassLoader().getResourceAsStream(file)) {
        if (in == null) {
          throw new IllegalStateException("formation-tracking does not ship " + file);
        }
        sql = new String(in.readAllBytes(), StandardCharsets.UTF_8);
      }
      // The files' comments hold no ';', their statements no "--": drop the comment lines, split.
      String statements = sql.replaceAll("(?m)^\\s*--.*$", "");
      try (Connection connection = database.getConnection();
          Statement statement = connection.createStatement()) {
        for (String one : statements.split(";")) {
          if (!one.isBlank()) {
            statement.execute(one);
          }
        }
      }
    }
  }

  private static long tableBytes(DataSource database) throws SQLException {
    return queryLong(database, "SELECT pg_total_relation_size('" + TABLE + "')");
  }

  private static long tracked(DataSource database) throws SQLException {
    return queryLong(database, "SELECT count(*) FROM " + TABLE);
  }

  private static long queryLong(DataSource database, String sql) throws SQLException {
    try (Connection connection = database.getConnection();
        Statement statement = connection.createStatement();
        ResultSet rows = statement.executeQuery(sql)) {
      rows.next();
      return rows.getLong(1);
    }
  }

  /**
   * The handler calls of a phase, from the instances' record files: when each set's completion was
   * first heard, all calls, and the calls that repeated one before.
   */
  private record Deliveries(Map<String, Long> completed, int count, int repeats) {
    static Deliveries read(List<Path> files) throws IOException {
      Map<String, Long> completed = new HashMap<>();
      Set<String> heard = new HashSet<>();
      int count = 0;
      int repeats = 0;
      for (Path file : files) {
        for (String line : Files.readAllLines(file)) {
          String[] parts = line.split(" ");
          count++;
          boolean completion = parts[0].equals("completed");
          repeats += heard.add(parts[1] + " " + (completion ? "complete" : parts[2])) ? 0 : 1;
          if (completion) {
            // A repeat is heard later; the first call is the one the partner acted on.
            completed.merge(parts[1], Long.parseLong(parts[2]), Math::min);
          }
        }
      }
      return new Deliveries(completed, count, repeats);
    }
  }

  /** A tracker instance's JVM, its output kept in a log file and read for its answers. */
  private static final class Instance {
    final String name;
    final Process process;
    final Path records;
    final List<String> lines = new CopyOnWriteArrayList<>();

    private Instance(String name, Process process, Path records, Path log) {
      this.name = name;
      this.process = process;
      this.records = records;
      Thread reader =
          new Thread(
              () -> {
                try (BufferedReader in =
                        new BufferedReader(
                            new InputStreamReader(
                                process.getInputStream(), StandardCharsets.UTF_8));
                    PrintStream out = new PrintStream(Files.newOutputStream(log), true, "UTF-8")) {
                  String line;
                  while ((line = in.readLine()) != null) {
                    lines.add(line);
                    out.println(line);
                  }
                } catch (IOException e) {
                  lines.add("log failed: " + e);
                }
              },
              name + "-output");
      reader.setDaemon(true);
      reader.start();
    }

    static Instance start(
        String jdbcUrl,
        String baseUrl,
        String name,
        double requestsPerSecond,
        int burst,
        Duration interval,
        int threads)
        throws Exception {
      Path log = DIR.resolve(name + ".log");
      TrackingInstance.Settings settings =
          new TrackingInstance.Settings(
              jdbcUrl,
              baseUrl,
              name,
              DIR.resolve(name + ".records"),
              requestsPerSecond,
              burst,
              interval,
              threads,
              // Stops by itself after the longest a phase may take, should this JVM die without
              // closing its input.
              PHASE_LIMIT.plusMinutes(2));
      List<String> command =
          new ArrayList<>(
              List.of(
                  Paths.get(System.getProperty("java.home"), "bin", "java").toString(),
                  "-Xmx256m",
                  "-XX:+UseSerialGC",
                  "-cp",
                  System.getProperty("java.class.path"),
                  TrackingInstance.class.getName()));
      command.addAll(settings.arguments());
      Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
      Instance instance = new Instance(name, process, settings.records(), log);
      instance.await("STARTED " + name, Duration.ofSeconds(60));
      return instance;
    }

    /** The heap reachable in the instance now, after a full collection there. */
    long heap() throws Exception {
      int before = lines.size();
      OutputStream in = process.getOutputStream();
      in.write("heap\n".getBytes(StandardCharsets.UTF_8));
      in.flush();
      String line = await("HEAP ", Duration.ofSeconds(30), before);
      return Long.parseLong(line.substring("HEAP ".length()));
    }

    long polls() {
      for (String line : lines) {
        if (line.startsWith("POLLS ")) {
          return Long.parseLong(line.substring("POLLS ".length()));
        }
      }
      return -1;
    }

    /** As on a deploy: its input closed, it finishes its polls in flight and exits. */
    void stop() throws Exception {
      try {
        process.getOutputStream().close();
      } catch (IOException e) {
        // Already gone.
      }
      if (!process.waitFor(60, TimeUnit.SECONDS)) {
        process.destroyForcibly().waitFor();
        throw new IllegalStateException("instance " + name + " did not stop: " + lines);
      }
      // Its output may still be on its way to the reader.
      await("STOPPED " + name, Duration.ofSeconds(10));
    }

    private String await(String prefix, Duration limit) throws Exception {
      return await(prefix, limit, 0);
    }

    private String await(String prefix, Duration limit, int from) throws Exception {
      long deadline = System.nanoTime() + limit.toNanos();
      while (true) {
        for (int i = from; i < lines.size(); i++) {
          if (lines.get(i).startsWith(prefix)) {
            return lines.get(i);
          }
        }
        if (System.nanoTime() > deadline) {
          throw new IllegalStateException(
              "instance " + name + " did not say '" + prefix + "': " + lines);
        }
        if (!process.isAlive() && prefix.startsWith("HEAP")) {
          throw new IllegalStateException("instance " + name + " died: " + lines);
        }
        Thread.sleep(50);
      }
    }
  }

  /** The machine's 1-minute load average, sampled while the benchmark runs. */
  private static final class LoadWatch {
    private double min = Double.MAX_VALUE;
    private double max;
    private double sum;
    private int samples;

    void sample() {
      double now = ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
      if (now >= 0) {
        min = Math.min(min, now);
        max = Math.max(max, now);
        sum += now;
        samples++;
      }
    }

    double now() {
      return ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
    }

    String summary() {
      return samples == 0
          ? "not sampled"
          : String.format(Locale.ROOT, "%.1f to %.1f (mean %.1f)", min, max, sum / samples);
    }
  }

  private static void progress(long started, LoadWatch load, String what) {
    load.sample();
    System.out.printf(
        Locale.ROOT,
        "[%,.0f s, load %.1f] %s%n",
        (System.nanoTime() - started) / 1e9,
        load.now(),
        what);
  }

  private static void report(
      List<Phase> phases,
      int sets,
      double budget,
      Duration interval,
      int threads,
      LoadWatch load,
      long started) {
    System.out.println();
    System.out.printf(
        Locale.ROOT,
        "== Tracking: %,d sets on PostgreSQL, one poll every %d s each (no backoff, no jitter),"
            + " complete at a known time in the first interval; request budget %,.0f/s in all"
            + " (split evenly over the instances), %d tracker threads and a %d ms look in the"
            + " table per instance; %d cores, load average %s ==%n%n",
        sets,
        interval.toSeconds(),
        budget,
        threads,
        POLLING_INTERVAL.toMillis(),
        Runtime.getRuntime().availableProcessors(),
        load.summary());
    String format = "%-54s" + "| %-30s".repeat(phases.size()) + "%n";
    List<String[]> rows = new ArrayList<>();
    rows.add(row("instances", phases, p -> Integer.toString(p.instances())));
    rows.add(
        row(
            String.format(Locale.ROOT, "tracking %,d (track(), 8 threads)", sets),
            phases,
            p ->
                String.format(
                    Locale.ROOT,
                    "%.1f s (%,.0f/s)",
                    p.enrolmentSeconds(),
                    sets / p.enrolmentSeconds())));
    rows.add(
        row(
            "table at " + String.format(Locale.ROOT, "%,d", sets) + " tracked",
            phases,
            p ->
                String.format(
                    Locale.ROOT,
                    "%s (%,d B/set)",
                    HeapWatch.mib(p.tableBytes()),
                    p.tableBytes() / sets)));
    rows.add(
        row(
            "table when empty again (before vacuum)",
            phases,
            p -> HeapWatch.mib(p.tableBytesAfter())));
    rows.add(
        row(
            "first polls: all due at once, drained in",
            phases,
            p ->
                String.format(
                    Locale.ROOT,
                    "%.1f s (%,.0f/s)",
                    p.drainSeconds(),
                    sets / Math.max(p.drainSeconds(), 1e-3))));
    rows.add(
        row(
            "polls/s sustained, first polls 10%-90% (budget "
                + String.format(Locale.ROOT, "%,.0f", budget)
                + ")",
            phases,
            p ->
                String.format(
                    Locale.ROOT,
                    "%,.0f (%.2f x budget)",
                    p.sustainedPerSecond(),
                    p.sustainedPerSecond() / budget)));
    rows.add(
        row(
            "polls/s, busiest second",
            phases,
            p -> String.format(Locale.ROOT, "%,.0f", p.peakPerSecond())));
    rows.add(
        row(
            "polls per set (2 if on schedule)",
            phases,
            p -> String.format(Locale.ROOT, "%.3f", p.pollsPerSet())));
    rows.add(row("polls per instance", phases, p -> joined(p.pollsPerInstance(), "%,d")));
    rows.add(
        row(
            "heap per instance, every set polled once",
            phases,
            p -> joinedMib(p.heapBetweenWaves())));
    rows.add(row("heap per instance at the end", phases, p -> joinedMib(p.heapAtEnd())));
    rows.add(
        row("change -> handler p50 / p99, s (measured)", phases, p -> percentiles(p.delays())));
    rows.add(
        row("change -> handler p50 / p99, s (schedule)", phases, p -> percentiles(p.implied())));
    rows.add(
        row(
            "  completing poll past its due time p50 / p99, s",
            phases,
            p -> percentiles(p.waited())));
    rows.add(
        row(
            "  completing poll answered -> handler p50 / p99, s",
            phases,
            p -> percentiles(p.handled())));
    rows.add(
        row(
            "handler calls (repeats, sets never completed)",
            phases,
            p ->
                String.format(
                    Locale.ROOT, "%,d (%d, %d)", p.deliveries(), p.repeats(), p.missing())));
    rows.add(
        row(
            "phase: instances started to table empty",
            phases,
            p -> String.format(Locale.ROOT, "%.0f s", p.seconds())));
    for (String[] row : rows) {
      System.out.printf(format, (Object[]) row);
    }
    System.out.printf(
        Locale.ROOT,
        "%nwhole run %.0f s; load average %s%n",
        (System.nanoTime() - started) / 1e9,
        load.summary());
  }

  private static String percentiles(long[] micros) {
    if (micros.length == 0) {
      return "none";
    }
    return String.format(
        Locale.ROOT,
        "%.2f / %.2f",
        micros[micros.length / 2] / 1e6,
        micros[(int) (micros.length * 0.99)] / 1e6);
  }

  private static String joined(long[] values, String format) {
    List<String> parts = new ArrayList<>();
    for (long value : values) {
      parts.add(String.format(Locale.ROOT, format, value));
    }
    return String.join(", ", parts);
  }

  private static String joinedMib(long[] bytes) {
    if (bytes.length > 0 && bytes[0] < 0) {
      return "not weighed: done before all started";
    }
    List<String> parts = new ArrayList<>();
    for (long value : bytes) {
      parts.add(String.format(Locale.ROOT, "%.1f", value / (1024.0 * 1024.0)));
    }
    return String.join(", ", parts) + " MiB";
  }

  /** The server's answers per second, sampled by a thread of its own from before any instance. */
  private static final class Rates implements AutoCloseable {
    private final List<Double> perSecond = new CopyOnWriteArrayList<>();
    private final Thread thread;

    Rates(LocalServer server) {
      thread =
          new Thread(
              () -> {
                long requests = server.requests();
                long at = System.nanoTime();
                try {
                  while (true) {
                    Thread.sleep(1_000);
                    long nowRequests = server.requests();
                    long now = System.nanoTime();
                    perSecond.add((nowRequests - requests) / ((now - at) / 1e9));
                    requests = nowRequests;
                    at = now;
                  }
                } catch (InterruptedException e) {
                  // Closed.
                }
              },
              "rates");
      thread.setDaemon(true);
      thread.start();
    }

    double latest() {
      return perSecond.isEmpty() ? 0 : perSecond.get(perSecond.size() - 1);
    }

    double peak() {
      return perSecond.stream().mapToDouble(Double::doubleValue).max().orElse(0);
    }

    @Override
    public void close() {
      thread.interrupt();
    }
  }

  /** A row of the report: its label, then one cell per phase. */
  private static String[] row(String label, List<Phase> phases, Function<Phase, String> cell) {
    return Stream.concat(Stream.of(label), phases.stream().map(cell)).toArray(String[]::new);
  }
}
