package io.formation.sdk.bench;

import io.formation.sdk.PollOptions;
import io.formation.sdk.bench.Waits.Side;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;

/**
 * Benchmark 5, rate limit: 10,000 document sets awaited at once with {@code awaitCompletionAsync}
 * against a local server that answers at most 2,000 requests a second (a token bucket with a burst
 * of 100) and {@code 429} with {@code Retry-After: 1} beyond; each set completes on its 3rd
 * answered poll. Three sides in one run, one after the other against the same server: the
 * hand-written {@link RawPoller}, which puts off only the refused set by its {@code Retry-After};
 * the SDK with its defaults; and the SDK with a request budget at the server's limit. Reports the
 * 429s, the requests against the minimum, the wall time against the floor (minimum requests / the
 * server's limit), the peak live threads, the peak heap, the heap each waiting set holds, and what
 * the server answered and refused in each quarter second of each side's run.
 *
 * <p>Arguments: {@code [sets] [server requests per second] [server burst]}.
 */
public final class RateLimit {
  static final int POLLS_TO_COMPLETE = 3;
  static final double DEFAULTS_429_TARGET = 0.05;
  static final double DEFAULTS_WALL_TARGET = 1.3;
  static final double BUDGET_WALL_TARGET = 1.2;
  static final long HEAP_PER_SET_TARGET = 600;
  static final int PEAK_THREADS_TARGET = 50;

  private RateLimit() {}

  private record Named(String name, Function<PollOptions, Side> factory) {}

  private record Figures(
      String name,
      long wallNanos,
      long[] doneNanos,
      int failures,
      String firstFailure,
      long requests,
      long successes,
      long tooManyRequests,
      long connections,
      int peakThreads,
      long peakHeap,
      long bytesPerWaitingSet,
      long parked,
      long parkingSuccesses) {

    double tooManyShare() {
      return requests == 0 ? 0 : (double) tooManyRequests / requests;
    }
  }

  public static void main(String[] args) throws Exception {
    int sets = args.length > 0 ? Integer.parseInt(args[0]) : 10_000;
    double limit = args.length > 1 ? Double.parseDouble(args[1]) : 2_000;
    int burst = args.length > 2 ? Integer.parseInt(args[2]) : 100;
    PollOptions options = Waits.polls(0.1, Duration.ofMinutes(3));
    // For the memory phase: every set waits ten minutes after its first poll, so all are in flight
    // and none polls again while they are weighed.
    PollOptions slow = Waits.parked(options, Duration.ofMinutes(10), Duration.ofMinutes(15));
    long minimum = (long) sets * POLLS_TO_COMPLETE;
    long floor = (long) (minimum / limit * 1e9);

    try (LocalServer server = LocalServer.rateLimited(POLLS_TO_COMPLETE, limit, burst)) {
      List<Named> sides = new ArrayList<>();
      sides.add(new Named("raw", pollOptions -> Waits.raw(server, pollOptions)));
      sides.add(new Named("sdk defaults", pollOptions -> Waits.sdk(Waits.on(server), pollOptions)));
      sides.add(
          new Named(
              "sdk budget",
              pollOptions -> Waits.sdk(Waits.on(server).requestBudget(limit, burst), pollOptions)));

      long started = System.nanoTime();
      for (Named side : sides) {
        warmUp(side.factory().apply(options), "warm-" + side.name() + "_", sets / 10);
        progress(started, side.name() + " warmed up");
      }
      List<Figures> figures = new ArrayList<>();
      for (Named side : sides) {
        figures.add(measure(server, side, options, slow, sets, options.timeout()));
        progress(started, side.name() + " measured and weighed");
      }
      report(figures, sets, limit, burst, minimum, floor);
    }
  }

  private static void report(
      List<Figures> figures, int sets, double limit, int burst, long minimum, long floor) {
    System.out.println();
    System.out.printf(
        "== Rate limit: %,d waits at once, each set complete on its answered poll %d"
            + " (polls 50 ms x1.5, cap 200 ms, jitter 0.1); server %,.0f requests/s, burst %d,"
            + " then 429 with Retry-After: %d; heap max %s ==%n",
        sets,
        POLLS_TO_COMPLETE,
        limit,
        burst,
        LocalServer.RETRY_AFTER_SECONDS,
        HeapWatch.mib(HeapWatch.maxHeap()));
    System.out.printf(
        "minimum requests %,d; floor (minimum / limit) %,.0f ms%n%n", minimum, floor / 1e6);
    String format = "%-34s" + "| %-18s".repeat(figures.size()) + "%n";
    List<String[]> rows = new ArrayList<>();
    rows.add(column(figures, Figures::name));
    rows.add(row("wall time, ms (x floor)", figures, f -> ms(f.wallNanos(), floor)));
    rows.add(
        row(
            "per set p50 / p99, ms",
            figures,
            f ->
                String.format(
                    "%,.0f / %,.0f",
                    f.doneNanos()[f.doneNanos().length / 2] / 1e6,
                    f.doneNanos()[f.doneNanos().length * 99 / 100] / 1e6)));
    rows.add(
        row(
            "requests (x minimum)",
            figures,
            f -> String.format("%,d (%.3f)", f.requests(), (double) f.requests() / minimum)));
    rows.add(row("2xx answers", figures, f -> String.format("%,d", f.successes())));
    rows.add(
        row(
            "429s received (% of requests)",
            figures,
            f -> String.format("%,d (%.2f%%)", f.tooManyRequests(), 100 * f.tooManyShare())));
    rows.add(
        row(
            "requests/s (limit " + String.format("%,.0f", limit) + ")",
            figures,
            f -> String.format("%,.0f", f.requests() / (f.wallNanos() / 1e9))));
    rows.add(row("waits failed", figures, f -> String.format("%,d", f.failures())));
    rows.add(row("connections opened", figures, f -> String.format("%,d", f.connections())));
    rows.add(row("peak live threads", figures, f -> Integer.toString(f.peakThreads())));
    rows.add(row("peak used heap", figures, f -> HeapWatch.mib(f.peakHeap())));
    rows.add(
        row(
            "heap per waiting set, bytes",
            figures,
            f -> String.format("%,d", f.bytesPerWaitingSet())));
    rows.add(
        row(
            "sets parked when weighed",
            figures,
            f -> String.format("%,d of %,d", f.parked(), sets)));
    rows.add(
        row(
            "2xx answers while parking them",
            figures,
            f -> String.format("%,d", f.parkingSuccesses())));
    for (String[] row : rows) {
      System.out.printf(format, (Object[]) row);
    }
    for (Figures f : figures) {
      if (f.firstFailure() != null) {
        System.out.printf("%s: first failure: %s%n", f.name(), f.firstFailure());
      }
    }
    System.out.println();
    Figures raw = find(figures, "raw");
    Figures defaults = find(figures, "sdk defaults");
    Figures budget = find(figures, "sdk budget");
    if (defaults != null) {
      System.out.printf(
          "goal: with defaults, 429s < %.0f%% of requests: %.2f%%, %s%n",
          100 * DEFAULTS_429_TARGET,
          100 * defaults.tooManyShare(),
          verdict(defaults.tooManyShare() < DEFAULTS_429_TARGET));
      double ratio = (double) defaults.wallNanos() / floor;
      System.out.printf(
          "goal: with defaults, wall time <= %.1f x floor: %.3f, %s%n",
          DEFAULTS_WALL_TARGET, ratio, verdict(ratio <= DEFAULTS_WALL_TARGET));
    }
    if (budget != null) {
      double ratio = (double) budget.wallNanos() / floor;
      System.out.printf(
          "goal: with the budget, wall time <= %.1f x floor: %.3f, %s%n",
          BUDGET_WALL_TARGET, ratio, verdict(ratio <= BUDGET_WALL_TARGET));
    }
    for (Figures f : figures) {
      if (f.name().startsWith("sdk") && raw != null) {
        System.out.printf(
            "goal: %s ahead of the baseline: wall %,.0f vs %,.0f ms, 429s %,d vs %,d, %s%n",
            f.name(),
            f.wallNanos() / 1e6,
            raw.wallNanos() / 1e6,
            f.tooManyRequests(),
            raw.tooManyRequests(),
            verdict(
                f.wallNanos() < raw.wallNanos() && f.tooManyRequests() < raw.tooManyRequests()));
      }
    }
    for (Figures f : figures) {
      if (f.name().startsWith("sdk")) {
        System.out.printf(
            "goal: %s, heap per waiting set <= %,d bytes: %,d, %s%n",
            f.name(),
            HEAP_PER_SET_TARGET,
            f.bytesPerWaitingSet(),
            verdict(f.bytesPerWaitingSet() <= HEAP_PER_SET_TARGET));
        System.out.printf(
            "goal: %s, peak live threads < %d: %d, %s%n",
            f.name(),
            PEAK_THREADS_TARGET,
            f.peakThreads(),
            verdict(f.peakThreads() < PEAK_THREADS_TARGET));
      }
    }
  }

  /** A line on how far the run is, as the slowest side may take minutes. */
  private static void progress(long started, String what) {
    System.out.printf("[%,.0f s] %s%n", (System.nanoTime() - started) / 1e9, what);
  }

  private static String verdict(boolean met) {
    return met ? "met" : "MISSED";
  }

  private static Figures find(List<Figures> figures, String name) {
    return figures.stream().filter(f -> f.name().equals(name)).findFirst().orElse(null);
  }

  private static String[] column(List<Figures> figures, Function<Figures, String> cell) {
    return row("", figures, cell);
  }

  private static String[] row(String label, List<Figures> figures, Function<Figures, String> cell) {
    String[] row = new String[figures.size() + 1];
    row[0] = label;
    for (int i = 0; i < figures.size(); i++) {
      row[i + 1] = cell.apply(figures.get(i));
    }
    return row;
  }

  private static String ms(long nanos, long floor) {
    return String.format("%,.0f (%.3f)", nanos / 1e6, (double) nanos / floor);
  }

  private static void warmUp(Side side, String prefix, int sets) throws Exception {
    try (side) {
      awaitAll(side, prefix, sets, Duration.ofMinutes(1), new AtomicInteger(), null);
    }
  }

  private static Figures measure(
      LocalServer server,
      Named named,
      PollOptions options,
      PollOptions slow,
      int sets,
      Duration timeout)
      throws Exception {
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    String prefix = named.name().replace(' ', '-') + "_";
    settle();
    long requestsBefore = server.requests();
    long successesBefore = server.successes();
    long tooManyBefore = server.tooManyRequests();
    long connectionsBefore = server.connections();
    long wall;
    long[] done;
    long peakHeap;
    int peakThreads;
    AtomicInteger failures = new AtomicInteger();
    AtomicReference<String> firstFailure = new AtomicReference<>();
    try (Side side = named.factory().apply(options);
        HeapWatch heap = new HeapWatch()) {
      threads.resetPeakThreadCount();
      Timeline timeline = Timeline.start(server);
      long start = System.nanoTime();
      done = awaitAll(side, prefix, sets, timeout.plusSeconds(10), failures, firstFailure);
      wall = System.nanoTime() - start;
      timeline.stop(named.name());
      peakHeap = heap.peakUsedBytes();
      peakThreads = threads.getPeakThreadCount();
      for (int i = 0; i < done.length; i++) {
        done[i] = done[i] == 0 ? wall : done[i] - start;
      }
      Arrays.sort(done);
    }
    long requests = server.requests() - requestsBefore;
    long successes = server.successes() - successesBefore;
    long tooMany = server.tooManyRequests() - tooManyBefore;
    long connections = server.connections() - connectionsBefore;

    // Memory: start every wait with ten minutes between polls, let each make its first answered
    // poll (or, if a side gives up on a refused poll until its next interval, until no request
    // came for two seconds), and weigh what is reachable while they all wait. Every side's figure
    // includes the same ~150 bytes per set of the harness and the server (the id, its poll count,
    // the future's slot).
    settle();
    Map<String, long[]> classes = HeapWatch.histogram();
    long baseline = HeapWatch.liveNow();
    long bytesPerSet;
    long parked;
    long parkingSuccesses;
    try (Side side = named.factory().apply(slow)) {
      long parkingBefore = server.successes();
      long before = server.polledIds();
      CompletableFuture<?>[] waits = new CompletableFuture<?>[sets];
      for (int i = 0; i < sets; i++) {
        waits[i] = side.await("mem-" + prefix + i);
      }
      long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(1);
      long lastRequests = -1;
      long quietSince = System.nanoTime();
      while (server.polledIds() - before < sets && System.nanoTime() < deadline) {
        Thread.sleep(20);
        long seen = server.requests();
        if (seen != lastRequests) {
          lastRequests = seen;
          quietSince = System.nanoTime();
        } else if (System.nanoTime() - quietSince > TimeUnit.SECONDS.toNanos(2)) {
          break;
        }
      }
      Thread.sleep(200);
      parked = server.polledIds() - before;
      parkingSuccesses = server.successes() - parkingBefore;
      long waiting = HeapWatch.liveNow();
      bytesPerSet = (waiting - baseline) / sets;
      HeapWatch.printGrowth(prefix, classes, sets);
      for (CompletableFuture<?> wait : waits) {
        wait.cancel(true);
      }
    }
    return new Figures(
        named.name(),
        wall,
        done,
        failures.get(),
        firstFailure.get(),
        requests,
        successes,
        tooMany,
        connections,
        peakThreads,
        peakHeap,
        bytesPerSet,
        parked,
        parkingSuccesses);
  }

  /**
   * What the server answered and refused in each quarter second of a side's measured run, printed
   * when the run ends: where the time beyond the floor went (a pause, a climb, a tail).
   */
  private static final class Timeline extends Thread {
    private static final long QUARTER_SECOND_NANOS = 250_000_000L;

    private final LocalServer server;
    private final StringBuilder line = new StringBuilder();
    private volatile boolean running = true;

    private Timeline(LocalServer server) {
      super("bench-timeline");
      this.server = server;
      setDaemon(true);
    }

    static Timeline start(LocalServer server) {
      Timeline timeline = new Timeline(server);
      timeline.start();
      return timeline;
    }

    @Override
    public void run() {
      long answered = server.successes();
      long refused = server.tooManyRequests();
      long due = System.nanoTime();
      while (running) {
        due += QUARTER_SECOND_NANOS;
        try {
          Thread.sleep(Math.max(1, (due - System.nanoTime()) / 1_000_000));
        } catch (InterruptedException e) {
          return;
        }
        long answeredNow = server.successes();
        long refusedNow = server.tooManyRequests();
        line.append(' ').append(answeredNow - answered).append('/').append(refusedNow - refused);
        answered = answeredNow;
        refused = refusedNow;
      }
    }

    void stop(String side) throws InterruptedException {
      running = false;
      join();
      System.out.printf("%s, answered/refused per quarter second:%s%n", side, line);
    }
  }

  /** Lets the threads of a closed side end and the server's bucket refill. */
  private static void settle() throws InterruptedException {
    Thread.sleep(1_500);
    System.gc();
  }

  /**
   * Starts every wait at once and returns when each ended (System.nanoTime; 0 if it did not end in
   * time), counting the ones that failed or did not end.
   */
  private static long[] awaitAll(
      Side side,
      String prefix,
      int sets,
      Duration limit,
      AtomicInteger failures,
      AtomicReference<String> firstFailure)
      throws InterruptedException {
    long[] done = new long[sets];
    CompletableFuture<?>[] waits = new CompletableFuture<?>[sets];
    for (int i = 0; i < sets; i++) {
      int index = i;
      waits[i] =
          side.await(prefix + i)
              .handle(
                  (result, error) -> {
                    done[index] = System.nanoTime();
                    if (error != null) {
                      failures.incrementAndGet();
                      if (firstFailure != null) {
                        firstFailure.compareAndSet(null, String.valueOf(error));
                      }
                    }
                    return null;
                  });
    }
    try {
      CompletableFuture.allOf(waits).get(limit.toNanos(), TimeUnit.NANOSECONDS);
    } catch (TimeoutException e) {
      for (CompletableFuture<?> wait : waits) {
        if (!wait.isDone()) {
          failures.incrementAndGet();
        }
      }
      if (firstFailure != null) {
        firstFailure.compareAndSet(null, "not done after " + limit);
      }
    } catch (ExecutionException e) {
      throw new IllegalStateException(e);
    }
    return done;
  }
}
