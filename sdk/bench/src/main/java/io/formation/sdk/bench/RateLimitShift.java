package io.formation.sdk.bench;

import io.formation.sdk.PollOptions;
import io.formation.sdk.bench.Waits.Side;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Predicate;

/**
 * Benchmark 6, a limit that moves: waits that never end poll a local server whose limit is 2,000
 * requests a second for ten seconds, then 500 for ten, then 2,000 again for thirty ({@code 429}
 * with {@code Retry-After: 1} beyond, burst 100). The waits ask for far more than the limit (3,000
 * of them, one poll every 200 ms at most), so each side runs as fast as it believes the service
 * lets it. Reports, per half second, what the server answered and refused, and how long each side
 * took to follow each change: after the drop, until less than 5% of its requests were refused in
 * every later half second; after the rise, until it was first answered at 90% of the new limit in a
 * half second.
 *
 * <p>Arguments: {@code [waits] [seconds of each of the first two phases] [seconds of the last]}.
 */
public final class RateLimitShift {
  static final double HIGH = 2_000;
  static final double LOW = 500;
  static final int BURST = 100;
  static final long BUCKET_NANOS = 500_000_000L;

  private RateLimitShift() {}

  /** What the server answered and refused in one half second. */
  record Bucket(long answered, long refused) {}

  private record Run(String name, List<Bucket> buckets, int phaseBuckets) {}

  public static void main(String[] args) throws Exception {
    int waits = args.length > 0 ? Integer.parseInt(args[0]) : 3_000;
    int phaseSeconds = args.length > 1 ? Integer.parseInt(args[1]) : 10;
    int riseSeconds = args.length > 2 ? Integer.parseInt(args[2]) : 30;
    PollOptions options = Waits.polls(0.1, Duration.ofMinutes(10));
    List<Run> runs = new ArrayList<>();
    try (LocalServer server = LocalServer.rateLimited(Integer.MAX_VALUE, HIGH, BURST)) {
      runs.add(run("raw", server, waits, phaseSeconds, riseSeconds, Waits.raw(server, options)));
      runs.add(
          run(
              "sdk defaults",
              server,
              waits,
              phaseSeconds,
              riseSeconds,
              Waits.sdk(Waits.on(server), options)));
      runs.add(
          run(
              "sdk budget",
              server,
              waits,
              phaseSeconds,
              riseSeconds,
              Waits.sdk(Waits.on(server).requestBudget(HIGH, BURST), options)));
    }
    report(runs, waits, phaseSeconds, riseSeconds);
  }

  private static Run run(
      String name, LocalServer server, int waits, int phaseSeconds, int riseSeconds, Side side)
      throws InterruptedException {
    server.limit(HIGH);
    Thread.sleep(1_500);
    int phaseBuckets = (int) (phaseSeconds * 1_000_000_000L / BUCKET_NANOS);
    List<Bucket> buckets = new ArrayList<>();
    List<CompletableFuture<?>> started = new ArrayList<>();
    try (side) {
      String prefix = name.replace(' ', '-') + "-shift_";
      for (int i = 0; i < waits; i++) {
        started.add(side.await(prefix + i));
      }
      long start = System.nanoTime();
      long answered = server.successes();
      long refused = server.tooManyRequests();
      int riseBuckets = (int) (riseSeconds * 1_000_000_000L / BUCKET_NANOS);
      for (int i = 1; i <= 2 * phaseBuckets + riseBuckets; i++) {
        if (i == phaseBuckets + 1) {
          server.limit(LOW);
        } else if (i == 2 * phaseBuckets + 1) {
          server.limit(HIGH);
        }
        long due = start + i * BUCKET_NANOS;
        long left;
        while ((left = due - System.nanoTime()) > 0) {
          Thread.sleep(Math.max(1, left / 1_000_000));
        }
        long answeredNow = server.successes();
        long refusedNow = server.tooManyRequests();
        buckets.add(new Bucket(answeredNow - answered, refusedNow - refused));
        answered = answeredNow;
        refused = refusedNow;
      }
      started.forEach(wait -> wait.cancel(true));
    }
    server.limit(HIGH);
    System.out.printf("[shift] %s done%n", name);
    return new Run(name, buckets, phaseBuckets);
  }

  private static void report(List<Run> runs, int waits, int phaseSeconds, int riseSeconds) {
    System.out.println();
    System.out.printf(
        "== Rate limit that moves: %,d waits that never end (polls 50 ms x1.5, cap 200 ms); server"
            + " %,.0f/s for %d s, %,.0f/s for %d s, %,.0f/s for %d s, burst %d, then 429 with"
            + " Retry-After: %d ==%n",
        waits,
        HIGH,
        phaseSeconds,
        LOW,
        phaseSeconds,
        HIGH,
        riseSeconds,
        BURST,
        LocalServer.RETRY_AFTER_SECONDS);
    String format = "%-44s" + "| %-22s".repeat(runs.size()) + "%n";
    System.out.printf(format, prefixed("", runs.stream().map(Run::name).toArray(String[]::new)));
    String[] phases = {"first 2,000/s", "500/s", "2,000/s again"};
    for (int phase = 0; phase < 3; phase++) {
      int p = phase;
      System.out.printf(
          format,
          prefixed(
              phases[p] + ": answered/s, refused %",
              runs.stream()
                  .map(
                      run -> {
                        long answered = 0;
                        long refused = 0;
                        for (Bucket b : phase(run, p)) {
                          answered += b.answered();
                          refused += b.refused();
                        }
                        return String.format(
                            "%,.0f, %.1f%%",
                            answered / (phase(run, p).size() * BUCKET_NANOS / 1e9),
                            100.0 * refused / Math.max(1, answered + refused));
                      })
                  .toArray(String[]::new)));
    }
    System.out.printf(
        format,
        prefixed(
            "follows the drop (refused < 5%) after",
            runs.stream()
                .map(run -> seconds(followedFrom(phase(run, 1), RateLimitShift::calm)))
                .toArray(String[]::new)));
    System.out.printf(
        format,
        prefixed(
            "finds the rise (answered >= 90%) after",
            runs.stream()
                .map(run -> seconds(reachedAt(phase(run, 2), b -> atLimit(b, HIGH))))
                .toArray(String[]::new)));
    System.out.println();
    System.out.println("answered / refused per half second:");
    for (Run run : runs) {
      StringBuilder line = new StringBuilder(String.format("%-14s", run.name()));
      for (Bucket b : run.buckets()) {
        line.append(' ').append(b.answered()).append('/').append(b.refused());
      }
      System.out.println(line);
    }
  }

  /** Following a drop: at most 5% of this half second's requests were refused. */
  static boolean calm(Bucket b) {
    return b.refused() <= 0.05 * (b.answered() + b.refused());
  }

  /** Finding a rise: this half second was answered at 90% of the limit or more. */
  static boolean atLimit(Bucket b, double limit) {
    return b.answered() >= 0.9 * limit * BUCKET_NANOS / 1e9;
  }

  private static List<Bucket> phase(Run run, int phase) {
    int from = phase * run.phaseBuckets();
    return run.buckets()
        .subList(from, phase == 2 ? run.buckets().size() : from + run.phaseBuckets());
  }

  /**
   * The first half second from which the test holds on, counted from the phase's start; -1 if none.
   * A half second of a pause, nothing sent and nothing refused, holds for the drop.
   */
  static int followedFrom(List<Bucket> buckets, Predicate<Bucket> ok) {
    for (int i = 0; i < buckets.size(); i++) {
      if (buckets.subList(i, buckets.size()).stream().allMatch(ok)) {
        return i;
      }
    }
    return -1;
  }

  /** The first half second for which the test holds, counted from the phase's start; -1 if none. */
  static int reachedAt(List<Bucket> buckets, Predicate<Bucket> ok) {
    for (int i = 0; i < buckets.size(); i++) {
      if (ok.test(buckets.get(i))) {
        return i;
      }
    }
    return -1;
  }

  /** A half-second count as the time it stands for, or "never". */
  static String seconds(int buckets) {
    return buckets < 0 ? "never" : String.format("%.1f s", buckets * BUCKET_NANOS / 1e9);
  }

  private static Object[] prefixed(String label, String[] cells) {
    Object[] row = new Object[cells.length + 1];
    row[0] = label;
    System.arraycopy(cells, 0, row, 1, cells.length);
    return row;
  }
}
