package io.formation.sdk.bench;

import io.formation.sdk.FormationClient;
import io.formation.sdk.FormationException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Sporadic refusals (issue 30): 32 threads each making {@code calls} {@code get}s on a client with
 * its defaults, against a local server that answers at any rate but refuses a random share of
 * requests whatever the rate: 1%, 2% and 5% {@code 429} with {@code Retry-After: 0}, then with
 * {@code Retry-After: 1}, and 3% bare {@code 503}. Each run has a client of its own (nothing
 * learned carries over) and reports its wall time against the run without refusals, the goal being
 * at most {@value #GOAL} times, with what the server refused and the calls that failed.
 *
 * <p>Arguments: {@code [calls per thread]}.
 */
public final class SporadicRefusals {
  static final int THREADS = 32;
  static final double GOAL = 1.2;

  private SporadicRefusals() {}

  private record Refusals(String name, double refused, int retryAfter, double unavailable) {}

  public static void main(String[] args) throws Exception {
    int calls = args.length > 0 ? Integer.parseInt(args[0]) : 300;
    Refusals none = new Refusals("none", 0, 0, 0);
    List<Refusals> runs = new ArrayList<>();
    for (int retryAfter : new int[] {0, 1}) {
      for (double share : new double[] {0.01, 0.02, 0.05}) {
        runs.add(
            new Refusals(
                String.format("%.0f%% 429 Retry-After: %d", share * 100, retryAfter),
                share,
                retryAfter,
                0));
      }
    }
    runs.add(new Refusals("3% bare 503", 0, 0, 0.03));

    try (LocalServer server = LocalServer.start()) {
      for (int round = 0; round < 2; round++) {
        run(server, none, calls / 4);
      }
      long clean = run(server, none, calls);
      System.out.println();
      System.out.printf(
          "== SporadicRefusals: %d threads x %,d gets, client defaults ==%n", THREADS, calls);
      System.out.printf("none: wall %,.0f ms%n", clean / 1e6);
      for (Refusals refusals : runs) {
        long requests = server.requests();
        long refused = server.tooManyRequests() + server.unavailable();
        long wall = run(server, refusals, calls);
        double times = (double) wall / clean;
        System.out.printf(
            "%s: wall %,.0f ms, %.2f x none (goal <= %.1f: %s); %,d refused of %,d requests%n",
            refusals.name(),
            wall / 1e6,
            times,
            GOAL,
            times <= GOAL ? "met" : "MISSED",
            server.tooManyRequests() + server.unavailable() - refused,
            server.requests() - requests);
      }
    }
  }

  /** Every thread's calls on a fresh client; the wall time, after printing calls that failed. */
  private static long run(LocalServer server, Refusals refusals, int calls) throws Exception {
    server.refuseAtRandom(refusals.refused(), refusals.retryAfter(), refusals.unavailable());
    AtomicLong failed = new AtomicLong();
    ExecutorService threads = Executors.newFixedThreadPool(THREADS);
    try (FormationClient client = Waits.on(server).accessToken(LocalServer.TOKEN).build()) {
      long start = System.nanoTime();
      List<Future<?>> done = new ArrayList<>();
      for (int t = 0; t < THREADS; t++) {
        done.add(
            threads.submit(
                () -> {
                  for (int i = 0; i < calls; i++) {
                    try {
                      client.documentSets().get(CallOverheadBenchmark.ID);
                    } catch (FormationException e) {
                      failed.incrementAndGet();
                    }
                  }
                }));
      }
      for (Future<?> thread : done) {
        thread.get();
      }
      long wall = System.nanoTime() - start;
      if (failed.get() > 0) {
        System.out.printf(
            "%s: %,d calls failed after their retries%n", refusals.name(), failed.get());
      }
      return wall;
    } finally {
      threads.shutdown();
      server.refuseAtRandom(0, 0, 0);
    }
  }
}
