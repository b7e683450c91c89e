package io.formation.sdk.bench;

import io.formation.sdk.DocumentSets;
import io.formation.sdk.FormationClient;
import io.formation.sdk.RateLimitException;
import io.formation.sdk.RequestOptions;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * Benchmark 8, calls queued for the request budget: 10,000 {@code getAsync} calls queued behind a
 * budget of one request every 100 s, so none leaves the queue while they are weighed, and the heap
 * reachable after a full GC against the heap before them. Three ways: calls whose timeout is far
 * beyond their turn (the client's {@code callTimeout} off); calls whose timeout comes a few seconds
 * after their turn, each of which the queue also times; and calls held by a pause of the origin (a
 * {@code 429} with {@code Retry-After: 1}) before they queue.
 *
 * <p>Arguments: {@code [calls]}. With {@code -Dbench.histogram=true}, also what each call holds, by
 * class.
 */
public final class QueuedCalls {
  static final long BYTES_PER_CALL_TARGET = 1_000;

  /** One request every 100 s: nothing leaves the queue while it is weighed. */
  private static final double BUDGET_PER_SECOND = 0.01;

  private QueuedCalls() {}

  private enum Kind {
    TIMEOUT_FAR_OFF("timeout far off"),
    TIMEOUT_NEAR("timeout near (a timer each)"),
    PAUSED_FIRST("held by a pause first");

    final String label;

    Kind(String label) {
      this.label = label;
    }
  }

  public static void main(String[] args) throws Exception {
    int calls = args.length > 0 ? Integer.parseInt(args[0]) : 10_000;
    long[] bytes = new long[Kind.values().length];
    for (int round = 0; round < 2; round++) {
      for (Kind kind : Kind.values()) {
        measure(kind, calls / 10, false);
      }
    }
    for (Kind kind : Kind.values()) {
      bytes[kind.ordinal()] = measure(kind, calls, true);
    }
    System.out.println();
    System.out.printf(
        "== QueuedCalls: %,d getAsync calls queued for a budget of one request every %.0f s ==%n",
        calls, 1 / BUDGET_PER_SECOND);
    long most = 0;
    for (Kind kind : Kind.values()) {
      System.out.printf("%s: %,d bytes per queued call%n", kind.label, bytes[kind.ordinal()]);
      most = Math.max(most, bytes[kind.ordinal()]);
    }
    System.out.printf(
        "target: at most %,d bytes per queued call: %s%n",
        BYTES_PER_CALL_TARGET, most <= BYTES_PER_CALL_TARGET ? "met" : "MISSED");
  }

  /**
   * Bytes of reachable heap per queued call. The server, the client, its first call (which takes
   * the budget's token, or is the one the service refuses) and the options of every call exist
   * before the baseline is weighed, so only what queuing a call adds is counted.
   */
  private static long measure(Kind kind, int calls, boolean report) throws Exception {
    boolean paused = kind == Kind.PAUSED_FIRST;
    // For the pause: the client's budget lets two calls go, and the service answers only one.
    try (LocalServer server =
            paused ? LocalServer.rateLimited(0, BUDGET_PER_SECOND, 1) : LocalServer.start();
        FormationClient client =
            FormationClient.builder()
                .baseUrl(server.baseUrl())
                .accessToken(LocalServer.TOKEN)
                .callTimeout(Duration.ZERO)
                .maxRetries(0)
                .requestBudget(BUDGET_PER_SECOND, paused ? 2 : 1)
                .build()) {
      client.documentSets().get("ds_first");
      if (paused) {
        try {
          client.documentSets().get("ds_refused");
          throw new IllegalStateException("the service did not refuse the second call");
        } catch (RateLimitException expected) {
          // The origin is paused for a second: the calls below wait it out, then queue.
        }
      }
      RequestOptions[] options = new RequestOptions[calls];
      for (int i = 0; i < calls; i++) {
        // The call i + 1 in the queue goes in (i + 1) × 100 s: a timeout five seconds after that.
        options[i] =
            kind == Kind.TIMEOUT_NEAR
                ? RequestOptions.builder()
                    .timeout(Duration.ofSeconds((long) ((i + 1) / BUDGET_PER_SECOND) + 5))
                    .build()
                : RequestOptions.none();
      }
      CompletableFuture<?>[] queued = new CompletableFuture<?>[calls];
      Map<String, long[]> classes = report ? HeapWatch.histogram() : null;
      long baseline = HeapWatch.liveNow();
      for (int i = 0; i < calls; i++) {
        DocumentSets sets = client.documentSets().withOptions(options[i]);
        queued[i] = sets.getAsync("ds_1");
      }
      if (paused) {
        // The pause and the most jitter of a resume: every call is in the queue by then.
        Thread.sleep(2_500);
      }
      long weighed = HeapWatch.liveNow();
      long perCall = (weighed - baseline) / calls;
      for (CompletableFuture<?> call : queued) {
        if (call.isDone()) {
          throw new IllegalStateException("a call left the queue while weighed: " + call);
        }
      }
      if (report) {
        HeapWatch.printGrowth(kind.label, classes, calls);
        System.out.printf("%s: %,d bytes per queued call%n", kind.label, perCall);
      }
      for (CompletableFuture<?> call : queued) {
        call.cancel(true);
      }
      return perCall;
    }
  }
}
