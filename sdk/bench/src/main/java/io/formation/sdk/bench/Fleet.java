package io.formation.sdk.bench;

import com.zaxxer.hikari.HikariDataSource;
import io.formation.sdk.bench.RateLimitShift.Bucket;
import io.formation.tracking.DatabaseLimit;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import javax.sql.DataSource;

/**
 * Benchmark 10, a fleet: several instances of a partner's application, each a JVM with a {@code
 * FormationClient} on its defaults but for the limit it shares with the others through one
 * PostgreSQL ({@code DatabaseLimit}, {@link FleetInstance}), share one token and so one rate limit,
 * that of a service in a JVM of its own ({@link FleetServer}: 2,000 requests/s, burst 100, {@code
 * 429} with {@code Retry-After: 1} beyond; a set completes on its 3rd answered poll).
 *
 * <ul>
 *   <li>A: one instance awaits 10,000 sets; B: three instances await 3,334, 3,333 and 3,333. Wall
 *       time (the first wait's start to the last wait's end, across instances) against the floor
 *       (30,000 answers at 2,000/s: 15 s), refusals, requests against the minimum.
 *   <li>C: as B, but one instance is killed a third of the way through the floor; its waits are
 *       lost. How long after the kill the survivors are first answered at 90% of the limit for a
 *       whole second.
 *   <li>D: waits that never end (3,000 in all, from one instance, then from three) against a limit
 *       of 2,000/s for 10 s, 500/s for 10 s and 2,000/s for 30 s, judged as {@link RateLimitShift}
 *       judges one client.
 * </ul>
 *
 * The server counts what it answers and refuses per quarter second; every JVM reads the same wall
 * clock. Each instance warms its JIT first on a client it then closes.
 *
 * <p>Arguments: {@code [sets] [waits that never end] [seconds of each of D's first two phases]
 * [seconds of its last]}.
 */
public final class Fleet {
  static final double LIMIT = RateLimitShift.HIGH;
  static final int BURST = RateLimitShift.BURST;
  static final int POLLS_TO_COMPLETE = RateLimit.POLLS_TO_COMPLETE;
  static final int WARM_UP_WAITS = 500;
  static final double WALL_TARGET = 1.15;
  static final double REFUSED_TARGET = 0.02;
  static final double ONE_INSTANCE_TARGET = 1.05;
  static final double RECOVERY_SHARE = 0.9;
  static final double RECOVERY_TARGET_SECONDS = 5;
  static final double DROP_TARGET_SECONDS = 1.5;
  static final double RISE_TARGET_SECONDS = 3;
  static final double STEADY_TARGET = 0.9;
  private static final Duration DONE_LIMIT = Duration.ofSeconds(200);
  private static final long WINDOW_MICROS = FleetServer.WINDOW_NANOS / 1_000;

  private Fleet() {}

  /** What an instance said of itself; a killed one says nothing. */
  private record Instance(
      String name,
      int waits,
      boolean killed,
      long startMicros,
      long endMicros,
      int completed,
      int failed,
      String firstFailure,
      long attempts,
      long answered,
      long refused) {}

  /** What the server counted over a run, from its start, and what its instances said. */
  private record Run(
      String name,
      long startMicros,
      long[] answered,
      long[] refused,
      long requests,
      long answers,
      long refusals,
      long connections,
      List<Instance> instances,
      long killMicros) {

    double refusedShare() {
      return requests == 0 ? 0 : (double) refusals / requests;
    }

    long firstStart() {
      return instances.stream()
          .filter(i -> !i.killed())
          .mapToLong(Instance::startMicros)
          .min()
          .orElse(0);
    }

    long lastEnd() {
      return instances.stream()
          .filter(i -> !i.killed())
          .mapToLong(Instance::endMicros)
          .max()
          .orElse(0);
    }

    long wallMicros() {
      return lastEnd() - firstStart();
    }
  }

  public static void main(String[] args) throws Exception {
    try (EmbeddedPostgres postgres = EmbeddedPostgres.builder().start();
        HikariDataSource database =
            TrackingBenchmark.pool(
                postgres.getJdbcUrl(TrackingBenchmark.DB_USER, TrackingBenchmark.DB_USER),
                1,
                "fleet")) {
      TrackingBenchmark.createTables(database, DatabaseLimit.POSTGRESQL_SQL);
      shared = database;
      jdbcUrl = postgres.getJdbcUrl(TrackingBenchmark.DB_USER, TrackingBenchmark.DB_USER);
      measure(args);
    }
  }

  /** The database the instances share their limit in, emptied before each run, and its URL. */
  private static DataSource shared;

  private static String jdbcUrl;

  private static void measure(String[] args) throws Exception {
    int sets = args.length > 0 ? Integer.parseInt(args[0]) : 10_000;
    int endless = args.length > 1 ? Integer.parseInt(args[1]) : 3_000;
    int phaseSeconds = args.length > 2 ? Integer.parseInt(args[2]) : 10;
    int riseSeconds = args.length > 3 ? Integer.parseInt(args[3]) : 30;
    long minimum = (long) sets * POLLS_TO_COMPLETE;
    double floorSeconds = minimum / LIMIT;
    long killMillis = Math.round(floorSeconds * 1_000 / 3);
    long began = System.nanoTime();

    Run a = run("A: 1 instance", POLLS_TO_COMPLETE, split(sets, 1), "", -1, -1);
    progress(began, a.name());
    Run b = run("B: 3 instances", POLLS_TO_COMPLETE, split(sets, 3), "", -1, -1);
    progress(began, b.name());
    Run c = run("C: 3, one killed", POLLS_TO_COMPLETE, split(sets, 3), "", killMillis, -1);
    progress(began, c.name());
    String schedule =
        String.format(
            "%d=%.0f,%d=%.0f",
            phaseSeconds * 1_000, RateLimitShift.LOW, 2 * phaseSeconds * 1_000, LIMIT);
    long shiftMillis = (2L * phaseSeconds + riseSeconds) * 1_000;
    Run d1 = run("D: 1 instance", Integer.MAX_VALUE, split(endless, 1), schedule, -1, shiftMillis);
    progress(began, d1.name());
    Run d3 = run("D: 3 instances", Integer.MAX_VALUE, split(endless, 3), schedule, -1, shiftMillis);
    progress(began, d3.name());

    System.out.println();
    System.out.printf(
        "== Fleet: instances (JVMs) with the SDK's defaults sharing one limit of %,.0f requests/s,"
            + " burst %d, then 429 with Retry-After: %d ==%n",
        LIMIT, BURST, LocalServer.RETRY_AFTER_SECONDS);
    System.out.printf(
        "A, B, C: %,d waits in all (polls 50 ms x1.5, cap 200 ms, jitter 0.1), each set complete on"
            + " its answered poll %d; minimum %,d requests, floor %.1f s%n%n",
        sets, POLLS_TO_COMPLETE, minimum, floorSeconds);
    reportCompleting(List.of(a, b, c), minimum, floorSeconds);
    reportKill(c);
    System.out.println();
    System.out.printf(
        "D: %,d waits that never end; limit %,.0f/s for %d s, %,.0f/s for %d s, %,.0f/s for %d s%n",
        endless, LIMIT, phaseSeconds, RateLimitShift.LOW, phaseSeconds, LIMIT, riseSeconds);
    int phaseBuckets = (int) (phaseSeconds * 1_000_000_000L / RateLimitShift.BUCKET_NANOS);
    Shift s1 = shift(d1, phaseBuckets);
    Shift s3 = shift(d3, phaseBuckets);
    reportShift(List.of(d1, d3), List.of(s1, s3));

    System.out.println();
    double ratio = b.wallMicros() / 1e6 / floorSeconds;
    goal(
        String.format("B, 3 instances: wall time <= %.2f x floor: %.3f", WALL_TARGET, ratio),
        ratio <= WALL_TARGET);
    goal(
        String.format(
            "B, 3 instances: refused < %.0f%% of requests: %.2f%%",
            100 * REFUSED_TARGET, 100 * b.refusedShare()),
        b.refusedShare() < REFUSED_TARGET);
    double wallVsOne = (double) b.wallMicros() / a.wallMicros();
    double requestsVsOne = (double) b.requests() / a.requests();
    goal(
        String.format(
            "B within 5%% of A: wall time %.3f x A's, requests %.3f x A's (each <= %.2f)",
            wallVsOne, requestsVsOne, ONE_INSTANCE_TARGET),
        wallVsOne <= ONE_INSTANCE_TARGET && requestsVsOne <= ONE_INSTANCE_TARGET);
    double recovery = recoverySeconds(c);
    goal(
        String.format(
            "C: survivors answered at %.0f%% of the limit for a whole second within %.0f s of the"
                + " kill: %s",
            100 * RECOVERY_SHARE,
            RECOVERY_TARGET_SECONDS,
            recovery < 0 ? "never" : String.format("%.2f s", recovery)),
        recovery >= 0 && recovery <= RECOVERY_TARGET_SECONDS);
    for (int i = 0; i < 2; i++) {
      Run d = List.of(d1, d3).get(i);
      Shift s = List.of(s1, s3).get(i);
      goal(
          String.format(
              "%s: follows the drop within %.1f s: %s",
              d.name(), DROP_TARGET_SECONDS, RateLimitShift.seconds(s.drop())),
          s.drop() >= 0 && s.drop() * bucketSeconds() <= DROP_TARGET_SECONDS);
      goal(
          String.format(
              "%s: finds the rise within %.1f s: %s",
              d.name(), RISE_TARGET_SECONDS, RateLimitShift.seconds(s.rise())),
          s.rise() >= 0 && s.rise() * bucketSeconds() <= RISE_TARGET_SECONDS);
      goal(
          String.format(
              "%s: answers >= %.0f%% of the limit in steady phases: %s",
              d.name(), 100 * STEADY_TARGET, percents(s.steady())),
          Arrays.stream(s.steady()).allMatch(share -> share >= STEADY_TARGET));
    }
    progress(began, "all runs");
  }

  /**
   * One run: a server JVM, then an instance JVM per share of waits; all warm up, then the server
   * starts counting (and its limit schedule) and every instance starts its waits. With {@code
   * killMillis} the last instance is killed that long after the start; with {@code measureMillis}
   * the run ends then, else when every surviving instance's waits have ended.
   */
  private static Run run(
      String name, int polls, int[] waits, String schedule, long killMillis, long measureMillis)
      throws Exception {
    String tag = name.substring(0, 1) + waits.length;
    List<Child> children = new ArrayList<>();
    try (Connection connection = shared.getConnection();
        Statement empty = connection.createStatement()) {
      empty.execute("DELETE FROM formation_limit; DELETE FROM formation_limit_instance");
    }
    try {
      Child server = Child.start(tag + "-server", FleetServer.class, polls, LIMIT, BURST);
      children.add(server);
      String baseUrl = server.await("LISTENING ", Duration.ofSeconds(60)).substring(10);
      List<Child> instances = new ArrayList<>();
      for (int i = 0; i < waits.length; i++) {
        String instance = tag + "-" + (char) ('a' + i);
        Child child =
            Child.start(
                instance, FleetInstance.class, baseUrl, instance, waits[i], WARM_UP_WAITS, jdbcUrl);
        children.add(child);
        instances.add(child);
      }
      for (Child instance : instances) {
        instance.await("READY ", Duration.ofSeconds(90));
      }
      // The warm-ups' refusals and pauses are over and the server's bucket is full again.
      Thread.sleep(1_500);
      server.send("start " + schedule);
      long start = Long.parseLong(server.await("STARTED ", Duration.ofSeconds(10)).substring(8));
      for (Child instance : instances) {
        instance.send("go");
      }
      long killMicros = -1;
      Child killed = null;
      if (killMillis >= 0) {
        sleepUntil(start + killMillis * 1_000);
        killed = instances.get(instances.size() - 1);
        killed.kill();
        killMicros = LocalServer.epochMicros();
      }
      if (measureMillis >= 0) {
        // The server's last window ends at start + measureMillis; it is cut there.
        sleepUntil(start + measureMillis * 1_000 + WINDOW_MICROS / 2);
      } else {
        for (Child instance : instances) {
          if (instance != killed) {
            instance.await("DONE ", DONE_LIMIT);
          }
        }
      }
      server.send("stop");
      String[] windows = server.await("WINDOWS", Duration.ofSeconds(10)).trim().split(" ");
      String[] totals = server.await("TOTALS ", Duration.ofSeconds(10)).split(" ");
      int count = windows.length - 1;
      if (measureMillis >= 0) {
        count = (int) Math.min(count, measureMillis * 1_000 / WINDOW_MICROS);
      }
      long[] answered = new long[count];
      long[] refused = new long[count];
      for (int i = 0; i < count; i++) {
        String[] pair = windows[i + 1].split("/");
        answered[i] = Long.parseLong(pair[0]);
        refused[i] = Long.parseLong(pair[1]);
      }
      List<Instance> said = new ArrayList<>();
      for (int i = 0; i < instances.size(); i++) {
        Child instance = instances.get(i);
        if (instance == killed) {
          said.add(new Instance(instance.name, waits[i], true, 0, 0, 0, 0, "", 0, 0, 0));
          continue;
        }
        instance.closeInput();
        String[] counts = instance.await("COUNTS ", Duration.ofSeconds(30)).split(" ");
        String done = measureMillis >= 0 ? null : instance.await("DONE ", Duration.ZERO);
        String[] d = done == null ? null : done.split(" ", 7);
        said.add(
            new Instance(
                instance.name,
                waits[i],
                false,
                d == null ? 0 : Long.parseLong(d[2]),
                d == null ? 0 : Long.parseLong(d[3]),
                d == null ? 0 : Integer.parseInt(d[4]),
                d == null ? 0 : Integer.parseInt(d[5]),
                d == null || d.length < 7 ? "" : d[6],
                Long.parseLong(counts[2]),
                Long.parseLong(counts[3]),
                Long.parseLong(counts[4])));
      }
      return new Run(
          name,
          start,
          answered,
          refused,
          Long.parseLong(totals[1]),
          Long.parseLong(totals[2]),
          Long.parseLong(totals[3]),
          Long.parseLong(totals[4]),
          said,
          killMicros);
    } finally {
      for (Child child : children) {
        child.stop();
      }
    }
  }

  private static void reportCompleting(List<Run> runs, long minimum, double floorSeconds) {
    String format = "%-38s" + "| %-24s".repeat(runs.size()) + "%n";
    row(format, "", runs, Run::name);
    row(
        format,
        "wall time, s (x floor)",
        runs,
        r ->
            String.format(
                "%.2f (%.3f)", r.wallMicros() / 1e6, r.wallMicros() / 1e6 / floorSeconds));
    row(
        format,
        "requests (x minimum)",
        runs,
        r -> String.format("%,d (%.3f)", r.requests(), (double) r.requests() / minimum));
    row(format, "answered", runs, r -> String.format("%,d", r.answers()));
    row(
        format,
        "refused, 429 (% of requests)",
        runs,
        r -> String.format("%,d (%.2f%%)", r.refusals(), 100 * r.refusedShare()));
    row(
        format,
        "answered/s over the wall time",
        runs,
        r -> String.format("%,.0f", r.answers() / (r.wallMicros() / 1e6)));
    row(
        format,
        "waits completed / failed / lost",
        runs,
        r ->
            String.format(
                "%,d / %,d / %,d",
                r.instances().stream().mapToInt(Instance::completed).sum(),
                r.instances().stream().mapToInt(Instance::failed).sum(),
                r.instances().stream().filter(Instance::killed).mapToInt(Instance::waits).sum()));
    row(format, "connections opened", runs, r -> String.format("%,d", r.connections()));
    System.out.println();
    System.out.println(
        "per instance: waits, last wait ended (s after the first start), requests sent, 429s");
    for (Run run : runs) {
      for (Instance i : run.instances()) {
        if (i.killed()) {
          System.out.printf(
              "  %-18s %-5s %,6d waits, killed at %.2f s%n",
              run.name().substring(0, 1),
              i.name(),
              i.waits(),
              (run.killMicros() - run.firstStart()) / 1e6);
        } else {
          System.out.printf(
              "  %-18s %-5s %,6d waits, ended %6.2f s, %,7d requests, %,6d 429s (%.2f%%)%s%n",
              run.name().substring(0, 1),
              i.name(),
              i.waits(),
              (i.endMicros() - run.firstStart()) / 1e6,
              i.attempts(),
              i.refused(),
              100.0 * i.refused() / Math.max(1, i.attempts()),
              i.failed() > 0 ? ", first failure: " + i.firstFailure() : "");
        }
      }
    }
    System.out.println();
    System.out.println("answered per second (server, from the start):");
    for (Run run : runs) {
      StringBuilder line = new StringBuilder(String.format("  %-18s", run.name()));
      for (int i = 0; i + 4 <= run.answered().length; i += 4) {
        line.append(' ').append(sum(run.answered(), i, 4));
      }
      System.out.println(line);
    }
    System.out.println("answered/refused per quarter second (server, from the start):");
    for (Run run : runs) {
      StringBuilder line = new StringBuilder(String.format("  %-18s", run.name()));
      for (int i = 0; i < run.answered().length; i++) {
        line.append(' ').append(run.answered()[i]).append('/').append(run.refused()[i]);
      }
      System.out.println(line);
    }
  }

  private static void reportKill(Run c) {
    double kill = (c.killMicros() - c.startMicros()) / 1e6;
    int after = firstWindowAfterKill(c);
    long before = after >= 5 ? sum(c.answered(), after - 5, 4) : -1;
    long refusedAfter = 0;
    long answeredAfter = 0;
    for (int i = after; i < c.answered().length; i++) {
      refusedAfter += c.refused()[i];
      answeredAfter += c.answered()[i];
    }
    double recovery = recoverySeconds(c);
    System.out.println();
    System.out.printf(
        "C: killed %s at %.2f s (its %,d waits lost); answered in the last whole second before:"
            + " %,d; survivors' waits all ended %.2f s after the kill%n",
        c.instances().get(c.instances().size() - 1).name(),
        kill,
        c.instances().get(c.instances().size() - 1).waits(),
        before,
        (c.lastEnd() - c.killMicros()) / 1e6);
    System.out.printf(
        "C: first whole second (of quarter-second windows) answered at >= %.0f%% of the limit"
            + " starts %s after the kill; after the kill %,d answered, %,d refused (%.2f%%)%n",
        100 * RECOVERY_SHARE,
        recovery < 0 ? "never" : String.format("%.2f s", recovery),
        answeredAfter,
        refusedAfter,
        100.0 * refusedAfter / Math.max(1, answeredAfter + refusedAfter));
  }

  private static int firstWindowAfterKill(Run c) {
    long offset = c.killMicros() - c.startMicros();
    return (int) ((offset + WINDOW_MICROS - 1) / WINDOW_MICROS);
  }

  /**
   * From the kill to the start of the first four quarter seconds after it in which the server
   * answered 90% of a second's limit; -1 if none.
   */
  private static double recoverySeconds(Run c) {
    int from = firstWindowAfterKill(c);
    for (int i = from; i + 4 <= c.answered().length; i++) {
      if (sum(c.answered(), i, 4) >= RECOVERY_SHARE * LIMIT) {
        return (c.startMicros() + i * WINDOW_MICROS - c.killMicros()) / 1e6;
      }
    }
    return -1;
  }

  /**
   * A moving limit judged by {@link RateLimitShift}'s rules, in its half seconds: when the drop was
   * followed and the rise found (half seconds from the phase's start, -1 never), and per phase the
   * answered share of its limit over its second half, where it should be steady.
   */
  private record Shift(
      List<Bucket> buckets, int phaseBuckets, int drop, int rise, double[] steady) {
    List<Bucket> phase(int phase) {
      int from = phase * phaseBuckets;
      return buckets.subList(
          Math.min(from, buckets.size()),
          phase == 2 ? buckets.size() : Math.min(from + phaseBuckets, buckets.size()));
    }
  }

  private static Shift shift(Run d, int phaseBuckets) {
    List<Bucket> buckets = new ArrayList<>();
    for (int i = 0; i + 2 <= d.answered().length; i += 2) {
      buckets.add(new Bucket(sum(d.answered(), i, 2), sum(d.refused(), i, 2)));
    }
    Shift partial = new Shift(buckets, phaseBuckets, -1, -1, new double[0]);
    double[] limits = {LIMIT, RateLimitShift.LOW, LIMIT};
    double[] steady = new double[3];
    for (int p = 0; p < 3; p++) {
      List<Bucket> phase = partial.phase(p);
      List<Bucket> secondHalf = phase.subList(phase.size() / 2, phase.size());
      long answered = secondHalf.stream().mapToLong(Bucket::answered).sum();
      double seconds = secondHalf.size() * RateLimitShift.BUCKET_NANOS / 1e9;
      steady[p] = seconds == 0 ? 0 : answered / seconds / limits[p];
    }
    return new Shift(
        buckets,
        phaseBuckets,
        RateLimitShift.followedFrom(partial.phase(1), RateLimitShift::calm),
        RateLimitShift.reachedAt(partial.phase(2), b -> RateLimitShift.atLimit(b, LIMIT)),
        steady);
  }

  private static void reportShift(List<Run> runs, List<Shift> shifts) {
    String format = "%-44s" + "| %-22s".repeat(runs.size()) + "%n";
    row(format, "", runs, Run::name);
    String[] phases = {"first 2,000/s", "500/s", "2,000/s again"};
    for (int p = 0; p < 3; p++) {
      int phase = p;
      row(
          format,
          phases[p] + ": answered/s, refused %",
          runs,
          r -> {
            List<Bucket> buckets = shifts.get(runs.indexOf(r)).phase(phase);
            long answered = buckets.stream().mapToLong(Bucket::answered).sum();
            long refused = buckets.stream().mapToLong(Bucket::refused).sum();
            return String.format(
                "%,.0f, %.1f%%",
                answered / Math.max(1e-9, buckets.size() * bucketSeconds()),
                100.0 * refused / Math.max(1, answered + refused));
          });
    }
    row(
        format,
        "follows the drop (refused < 5%) after",
        runs,
        r -> RateLimitShift.seconds(shifts.get(runs.indexOf(r)).drop()));
    row(
        format,
        "finds the rise (answered >= 90%) after",
        runs,
        r -> RateLimitShift.seconds(shifts.get(runs.indexOf(r)).rise()));
    row(
        format,
        "steady share of the limit (2nd half of each)",
        runs,
        r -> percents(shifts.get(runs.indexOf(r)).steady()));
    row(
        format,
        "requests, refused (% of requests)",
        runs,
        r -> String.format("%,d, %.2f%%", r.requests(), 100 * r.refusedShare()));
    System.out.println();
    System.out.println(
        "per instance, as its listener counted from its start to its end: requests sent, answered"
            + " (share of the instances' answers), 429s");
    for (Run run : runs) {
      long all = run.instances().stream().mapToLong(Instance::answered).sum();
      for (Instance i : run.instances()) {
        System.out.printf(
            "  %-18s %-5s %,6d waits, %,7d requests, %,7d answered (%.1f%%), %,6d 429s%n",
            run.name(),
            i.name(),
            i.waits(),
            i.attempts(),
            i.answered(),
            100.0 * i.answered() / Math.max(1, all),
            i.refused());
      }
    }
    System.out.println("answered/refused per half second (server):");
    for (Shift shift : shifts) {
      StringBuilder line =
          new StringBuilder(String.format("  %-18s", runs.get(shifts.indexOf(shift)).name()));
      for (Bucket b : shift.buckets()) {
        line.append(' ').append(b.answered()).append('/').append(b.refused());
      }
      System.out.println(line);
    }
  }

  private static double bucketSeconds() {
    return RateLimitShift.BUCKET_NANOS / 1e9;
  }

  private static String percents(double[] shares) {
    StringBuilder text = new StringBuilder();
    for (double share : shares) {
      text.append(text.length() == 0 ? "" : " / ").append(String.format("%.0f%%", 100 * share));
    }
    return text.toString();
  }

  private static void row(String format, String label, List<Run> runs, Function<Run, String> cell) {
    Object[] row = new Object[runs.size() + 1];
    row[0] = label;
    for (int i = 0; i < runs.size(); i++) {
      row[i + 1] = cell.apply(runs.get(i));
    }
    System.out.printf(format, row);
  }

  private static void goal(String what, boolean met) {
    System.out.printf("goal: %s, %s%n", what, met ? "met" : "MISSED");
  }

  private static long sum(long[] values, int from, int count) {
    long total = 0;
    for (int i = from; i < Math.min(values.length, from + count); i++) {
      total += values[i];
    }
    return total;
  }

  /** {@code total} waits in {@code instances} shares, the first ones one larger. */
  private static int[] split(int total, int instances) {
    int[] shares = new int[instances];
    for (int i = 0; i < instances; i++) {
      shares[i] = total / instances + (i < total % instances ? 1 : 0);
    }
    return shares;
  }

  private static void sleepUntil(long epochMicros) throws InterruptedException {
    long left;
    while ((left = epochMicros - LocalServer.epochMicros()) > 0) {
      Thread.sleep(Math.max(1, left / 1_000));
    }
  }

  private static void progress(long began, String what) {
    System.out.printf("[%,.0f s] %s done%n", (System.nanoTime() - began) / 1e9, what);
  }

  /**
   * A child JVM (small heap, serial collector) and the lines it prints. Children stop at the end of
   * their input, so they die with this JVM however it dies; a shutdown hook and {@link #stop} also
   * kill them.
   */
  private static final class Child {
    private static final List<Child> LIVE = new CopyOnWriteArrayList<>();

    static {
      Runtime.getRuntime()
          .addShutdownHook(
              new Thread(
                  () -> LIVE.forEach(child -> child.process.destroyForcibly()), "fleet-children"));
    }

    private static final List<String> PROTOCOL =
        List.of("LISTENING", "STARTED", "WINDOWS", "TOTALS", "READY", "DONE", "COUNTS");

    final String name;
    final Process process;
    private final List<String> lines = new CopyOnWriteArrayList<>();
    private final Thread reader;

    private Child(String name, Process process) {
      this.name = name;
      this.process = process;
      reader =
          new Thread(
              () -> {
                try (BufferedReader in =
                    new BufferedReader(
                        new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                  String line;
                  while ((line = in.readLine()) != null) {
                    lines.add(line);
                    String said = line;
                    if (PROTOCOL.stream().noneMatch(said::startsWith)) {
                      System.out.printf("[%s] %s%n", name, line);
                    }
                  }
                } catch (IOException e) {
                  lines.add("output failed: " + e);
                }
              },
              name + "-output");
      reader.setDaemon(true);
      reader.start();
    }

    static Child start(String name, Class<?> main, Object... args) throws IOException {
      List<String> command =
          new ArrayList<>(
              List.of(
                  Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                  "-Xmx256m",
                  "-XX:+UseSerialGC",
                  "-cp",
                  System.getProperty("java.class.path"),
                  main.getName()));
      for (Object arg : args) {
        command.add(String.valueOf(arg));
      }
      Child child = new Child(name, new ProcessBuilder(command).redirectErrorStream(true).start());
      LIVE.add(child);
      return child;
    }

    void send(String command) throws IOException {
      OutputStream in = process.getOutputStream();
      in.write((command + "\n").getBytes(StandardCharsets.UTF_8));
      in.flush();
    }

    void closeInput() {
      try {
        process.getOutputStream().close();
      } catch (IOException e) {
        // Already gone.
      }
    }

    /** The first line that starts with {@code prefix}, waiting for it as long as {@code limit}. */
    String await(String prefix, Duration limit) throws InterruptedException {
      long deadline = System.nanoTime() + limit.toNanos();
      while (true) {
        boolean alive = process.isAlive();
        if (!alive) {
          // Its last lines may still be on their way.
          reader.join(1_000);
        }
        for (String line : lines) {
          if (line.startsWith(prefix)) {
            return line;
          }
        }
        if (!alive || System.nanoTime() - deadline >= 0) {
          throw new IllegalStateException(
              String.format(
                  "%s did not say '%s'%s: %s",
                  name, prefix.trim(), alive ? "" : " (it ended)", lines));
        }
        Thread.sleep(5);
      }
    }

    void kill() throws InterruptedException {
      process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
    }

    /** Lets it end by itself on the end of its input, else kills it. */
    void stop() throws InterruptedException {
      closeInput();
      if (!process.waitFor(10, TimeUnit.SECONDS)) {
        process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
      }
      LIVE.remove(this);
    }
  }
}
