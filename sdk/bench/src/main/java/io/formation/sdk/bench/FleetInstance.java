package io.formation.sdk.bench;

import com.zaxxer.hikari.HikariDataSource;
import io.formation.sdk.AttemptEvent;
import io.formation.sdk.FormationClient;
import io.formation.sdk.FormationListener;
import io.formation.sdk.PollOptions;
import io.formation.tracking.DatabaseLimit;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * One instance of {@link Fleet}, in a JVM of its own: a partner's process with a {@code
 * FormationClient} built with its defaults (nothing set but the base URL, the token, the limit it
 * shares through the benchmark's PostgreSQL and a listener that counts what it sends), waiting for
 * its share of the sets with {@code awaitCompletionAsync}.
 *
 * <p>It first warms its JIT with waits on a client it then closes (so the measured client learns
 * nothing from them) and prints {@code READY name}. On the line {@code go} on its standard input it
 * starts its waits; when all have ended it prints {@code DONE name startMicros lastEndMicros
 * completed failed [first failure]} (wall clock, shared by the benchmark's JVMs). The end of its
 * input cancels what still waits and prints {@code COUNTS name attempts answered refused}.
 *
 * <p>Arguments: {@code baseUrl name waits warmUpWaits jdbcUrl}.
 */
public final class FleetInstance {
  private FleetInstance() {}

  public static void main(String[] args) throws Exception {
    String baseUrl = args[0];
    String name = args[1];
    int waits = Integer.parseInt(args[2]);
    int warmUps = Integer.parseInt(args[3]);
    PollOptions options = Waits.polls(0.1, Duration.ofMinutes(3));
    warmUp(baseUrl, name, warmUps, options);

    AtomicLong attempts = new AtomicLong();
    AtomicLong answered = new AtomicLong();
    AtomicLong refused = new AtomicLong();
    CompletableFuture<?>[] started = new CompletableFuture<?>[waits];
    try (HikariDataSource database = TrackingBenchmark.pool(args[4], 2, name);
        DatabaseLimit limit = DatabaseLimit.on(database);
        FormationClient client =
            FormationClient.builder()
                .baseUrl(baseUrl)
                .sharedLimit(limit)
                .accessToken(LocalServer.TOKEN)
                .listener(
                    new FormationListener() {
                      @Override
                      public void attemptFinished(AttemptEvent attempt) {
                        attempts.incrementAndGet();
                        if (attempt.statusCode() == 429) {
                          refused.incrementAndGet();
                        } else if (attempt.statusCode() / 100 == 2) {
                          answered.incrementAndGet();
                        }
                      }
                    })
                .build();
        BufferedReader in =
            new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8))) {
      System.out.println("READY " + name);
      String line;
      while ((line = in.readLine()) != null) {
        if (line.equals("go")) {
          go(client, name, waits, options, started);
        }
      }
      for (CompletableFuture<?> wait : started) {
        if (wait != null) {
          wait.cancel(true);
        }
      }
    }
    System.out.printf("COUNTS %s %d %d %d%n", name, attempts.get(), answered.get(), refused.get());
    System.exit(0);
  }

  private static void go(
      FormationClient client,
      String name,
      int waits,
      PollOptions options,
      CompletableFuture<?>[] started) {
    long start = LocalServer.epochMicros();
    AtomicLong lastEnd = new AtomicLong();
    AtomicInteger completed = new AtomicInteger();
    AtomicInteger failed = new AtomicInteger();
    AtomicReference<String> firstFailure = new AtomicReference<>("");
    for (int i = 0; i < waits; i++) {
      started[i] =
          client
              .documentSets()
              .awaitCompletionAsync(name + "_" + i, options)
              .whenComplete(
                  (set, error) -> {
                    lastEnd.accumulateAndGet(LocalServer.epochMicros(), Math::max);
                    if (error == null) {
                      completed.incrementAndGet();
                    } else {
                      failed.incrementAndGet();
                      firstFailure.compareAndSet("", String.valueOf(error));
                    }
                  });
    }
    CompletableFuture.allOf(started)
        .whenComplete(
            (ignored, error) ->
                System.out.printf(
                    "DONE %s %d %d %d %d %s%n",
                    name, start, lastEnd.get(), completed.get(), failed.get(), firstFailure.get()));
  }

  /**
   * Runs the code the measurement runs until the JIT has seen it: short waits that end complete or
   * timed out (against a server whose sets never complete), on a client of their own.
   */
  private static void warmUp(String baseUrl, String name, int waits, PollOptions options)
      throws InterruptedException {
    PollOptions shortly = options.newBuilder().timeout(Duration.ofSeconds(2)).build();
    try (FormationClient client =
        FormationClient.builder().baseUrl(baseUrl).accessToken(LocalServer.TOKEN).build()) {
      CompletableFuture<?>[] started = new CompletableFuture<?>[waits];
      for (int i = 0; i < waits; i++) {
        started[i] =
            client
                .documentSets()
                .awaitCompletionAsync("warm-" + name + "_" + i, shortly)
                .handle((set, error) -> null);
      }
      CompletableFuture.allOf(started).get(30, TimeUnit.SECONDS);
    } catch (ExecutionException | TimeoutException e) {
      System.out.println(name + ": warm-up did not end: " + e);
    }
  }
}
