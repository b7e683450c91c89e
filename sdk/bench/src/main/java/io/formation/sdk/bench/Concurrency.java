package io.formation.sdk.bench;

import io.formation.sdk.PollOptions;
import io.formation.sdk.bench.Waits.Side;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.time.Duration;
import java.util.Arrays;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * Benchmark 3, concurrency: 10,000 document sets awaited at once with {@code awaitCompletionAsync}
 * on a client built the way a partner builds one (builder defaults: the SDK's own OkHttp client and
 * dispatcher), against a local server on which each set completes on its 3rd poll; and the same
 * with a hand-written OkHttp poller ({@link RawPoller}). Compares the wall time with the polling
 * schedule alone and the requests with the minimum, and reports the peak live thread count, the
 * peak heap, and the heap each waiting set holds.
 *
 * <p>Arguments: {@code [sets] [polls to complete]}.
 */
public final class Concurrency {
  static final int THREAD_TARGET = 50;
  static final long HEAP_PER_SET_TARGET = 600;
  static final double BUDGET_PER_SECOND = 2_000;
  static final int BUDGET_BURST = 100;

  private Concurrency() {}

  private record Figures(
      long wallNanos,
      long[] doneNanos,
      long requests,
      long connections,
      int peakThreads,
      Map<String, Integer> threadsAtEnd,
      long peakHeap,
      long bytesPerWaitingSet) {}

  public static void main(String[] args) throws Exception {
    int sets = args.length > 0 ? Integer.parseInt(args[0]) : 10_000;
    int pollsToComplete = args.length > 1 ? Integer.parseInt(args[1]) : 3;
    PollOptions options = Waits.polls(0, Duration.ofMinutes(5));
    // For the memory phase: every set waits a minute after its first poll, so all are in flight.
    PollOptions slow = Waits.parked(options, Duration.ofMinutes(1), options.timeout());
    long ideal = idealNanos(options, pollsToComplete);

    try (LocalServer server = LocalServer.completingAfter(pollsToComplete)) {
      Function<PollOptions, Side> sdk = pollOptions -> Waits.sdk(Waits.on(server), pollOptions);
      Function<PollOptions, Side> sdkBudget =
          pollOptions ->
              Waits.sdk(
                  Waits.on(server).requestBudget(BUDGET_PER_SECOND, BUDGET_BURST), pollOptions);
      Function<PollOptions, Side> raw = pollOptions -> Waits.raw(server, pollOptions);

      for (int round = 0; round < 2; round++) {
        warmUp(sdk.apply(options), "warm-sdk" + round + "_", sets / 4);
        warmUp(raw.apply(options), "warm-raw" + round + "_", sets / 4);
      }
      Figures rawFigures = measure(server, raw, options, slow, "raw_", sets);
      Figures sdkFigures = measure(server, sdk, options, slow, "sdk_", sets);
      Figures budgetFigures = measure(server, sdkBudget, options, slow, "sdk-budget_", sets);

      long minimum = (long) sets * pollsToComplete;
      System.out.println();
      System.out.printf(
          "== Concurrency: %,d waits at once, each set complete on its poll %d"
              + " (polls 50 ms x1.5, cap 200 ms, no jitter), heap max %s ==%n",
          sets, pollsToComplete, HeapWatch.mib(HeapWatch.maxHeap()));
      System.out.printf("ideal wall time (the polling schedule alone): %,.0f ms%n", ideal / 1e6);
      for (String name : new String[] {"raw", "sdk", "sdk budget"}) {
        Figures f =
            name.equals("sdk") ? sdkFigures : name.equals("raw") ? rawFigures : budgetFigures;
        long[] done = f.doneNanos;
        System.out.printf(
            "%s: wall %,.0f ms (%.1f x ideal); per set p50 %,.0f / p99 %,.0f ms;"
                + " %,d requests (%.3f x minimum %,d), %,.0f requests/s, %d connections%n",
            name,
            f.wallNanos / 1e6,
            (double) f.wallNanos / ideal,
            done[done.length / 2] / 1e6,
            done[done.length * 99 / 100] / 1e6,
            f.requests,
            (double) f.requests / minimum,
            minimum,
            f.requests / (f.wallNanos / 1e9),
            f.connections);
        System.out.printf(
            "     peak live threads %d (%s); live at the end: %s%n",
            f.peakThreads,
            name.startsWith("sdk")
                ? "target < "
                    + THREAD_TARGET
                    + ": "
                    + (f.peakThreads < THREAD_TARGET ? "met" : "MISSED")
                : "for comparison",
            f.threadsAtEnd);
        System.out.printf(
            "     peak used heap %s; reachable heap per waiting set %,d bytes (%s for %,d)%n",
            HeapWatch.mib(f.peakHeap),
            f.bytesPerWaitingSet,
            HeapWatch.mib(f.bytesPerWaitingSet * sets),
            sets);
      }
      for (Figures f : new Figures[] {sdkFigures, budgetFigures}) {
        System.out.printf(
            "goal: %s, heap per waiting set <= %,d bytes: %,d, %s%n",
            f == sdkFigures ? "sdk defaults" : "sdk budget",
            HEAP_PER_SET_TARGET,
            f.bytesPerWaitingSet,
            f.bytesPerWaitingSet <= HEAP_PER_SET_TARGET ? "met" : "MISSED");
      }
      System.out.printf(
          "SDK/raw wall time: %.3f; SDK/raw heap per waiting set: %.2f%n",
          (double) sdkFigures.wallNanos / rawFigures.wallNanos,
          (double) sdkFigures.bytesPerWaitingSet / rawFigures.bytesPerWaitingSet);
    }
  }

  private static void warmUp(Side side, String prefix, int sets) throws Exception {
    try (side) {
      awaitAll(side, prefix, sets);
    }
  }

  private static Figures measure(
      LocalServer server,
      Function<PollOptions, Side> factory,
      PollOptions options,
      PollOptions slow,
      String prefix,
      int sets)
      throws Exception {
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    settle();
    long requestsBefore = server.requests();
    long connectionsBefore = server.connections();
    long wall;
    long[] done;
    long peakHeap;
    Map<String, Integer> threadsAtEnd;
    int peakThreads;
    try (Side side = factory.apply(options);
        HeapWatch heap = new HeapWatch()) {
      threads.resetPeakThreadCount();
      long start = System.nanoTime();
      done = awaitAll(side, prefix, sets);
      wall = System.nanoTime() - start;
      peakHeap = heap.peakUsedBytes();
      peakThreads = threads.getPeakThreadCount();
      threadsAtEnd = threadsByKind(threads);
      for (int i = 0; i < done.length; i++) {
        done[i] -= start;
      }
      Arrays.sort(done);
    }
    long requests = server.requests() - requestsBefore;
    long connections = server.connections() - connectionsBefore;

    // Memory: start every wait with a minute between polls, let each make its first poll, and
    // weigh what is reachable while they all wait. Both sides' figure includes the same ~150
    // bytes per set of the harness and the server (the id, its poll count, the future's slot).
    settle();
    Map<String, long[]> classes = HeapWatch.histogram();
    long baseline = HeapWatch.liveNow();
    long bytesPerSet;
    try (Side side = factory.apply(slow)) {
      long before = server.requests();
      CompletableFuture<?>[] waits = new CompletableFuture<?>[sets];
      for (int i = 0; i < sets; i++) {
        waits[i] = side.await("mem-" + prefix + i);
      }
      long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(1);
      while (server.requests() - before < sets && System.nanoTime() < deadline) {
        Thread.sleep(20);
      }
      Thread.sleep(200);
      long waiting = HeapWatch.liveNow();
      bytesPerSet = (waiting - baseline) / sets;
      HeapWatch.printGrowth(prefix, classes, sets);
      for (CompletableFuture<?> wait : waits) {
        wait.cancel(true);
      }
    }
    return new Figures(
        wall, done, requests, connections, peakThreads, threadsAtEnd, peakHeap, bytesPerSet);
  }

  /** Lets the threads of a closed side end, so they do not count in the next one's peak. */
  private static void settle() throws InterruptedException {
    Thread.sleep(500);
    System.gc();
  }

  /** Starts every wait at once and returns when each completed (System.nanoTime). */
  private static long[] awaitAll(Side side, String prefix, int sets) throws Exception {
    long[] done = new long[sets];
    CompletableFuture<?>[] waits = new CompletableFuture<?>[sets];
    for (int i = 0; i < sets; i++) {
      int index = i;
      waits[i] = side.await(prefix + i).thenRun(() -> done[index] = System.nanoTime());
    }
    CompletableFuture.allOf(waits).get(5, TimeUnit.MINUTES);
    return done;
  }

  /** The waits between the first poll and the completing one: the least time a set can take. */
  static long idealNanos(PollOptions options, int pollsToComplete) {
    double interval = options.initialInterval().toNanos();
    long total = 0;
    for (int i = 1; i < pollsToComplete; i++) {
      total += (long) interval;
      interval = Math.min(interval * options.multiplier(), options.maxInterval().toNanos());
    }
    return total;
  }

  /** Live threads by name, numbers stripped: formation-http, bench-server, JVM threads... */
  private static Map<String, Integer> threadsByKind(ThreadMXBean threads) {
    Map<String, Integer> kinds = new TreeMap<>();
    for (ThreadInfo info : threads.getThreadInfo(threads.getAllThreadIds())) {
      if (info != null) {
        String name = info.getThreadName().replaceAll("[-\\s]*\\d+$", "");
        kinds.merge(name.startsWith("OkHttp http") ? "OkHttp call" : name, 1, Integer::sum);
      }
    }
    return kinds;
  }
}
