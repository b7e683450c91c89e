package io.formation.sdk.bench;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;

/**
 * The rate-limited service of {@link Fleet}, in a JVM of its own so that no instance shares a
 * process with it: a {@link LocalServer#rateLimited} server. It prints {@code LISTENING baseUrl},
 * then obeys its standard input, one command a line:
 *
 * <ul>
 *   <li>{@code start [ms=rate,...]}: counts from now, per quarter second, the requests it answers
 *       and refuses, and sets its limit to each {@code rate} {@code ms} after now (at the boundary
 *       of a quarter second, so that each window has one limit); prints {@code STARTED
 *       epochMicros}, the wall clock it counts from (the one the benchmark's JVMs share).
 *   <li>{@code stop}: prints {@code WINDOWS answered/refused ...}, one pair per quarter second
 *       since {@code start}, and {@code TOTALS requests answered refused connections} since then.
 * </ul>
 *
 * The end of its input (its parent gone, however it died) stops it.
 *
 * <p>Arguments: {@code pollsToComplete requestsPerSecond burst}.
 */
public final class FleetServer {
  static final long WINDOW_NANOS = 250_000_000L;

  private FleetServer() {}

  public static void main(String[] args) throws Exception {
    int polls = Integer.parseInt(args[0]);
    double limit = Double.parseDouble(args[1]);
    int burst = Integer.parseInt(args[2]);
    try (LocalServer server = LocalServer.rateLimited(polls, limit, burst);
        BufferedReader in =
            new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8))) {
      System.out.println("LISTENING " + server.baseUrl());
      Windows windows = null;
      String line;
      while ((line = in.readLine()) != null) {
        if (line.startsWith("start")) {
          windows = new Windows(server, schedule(line.substring("start".length()).trim()));
          windows.start();
          System.out.println("STARTED " + windows.startMicros);
        } else if (line.equals("stop") && windows != null) {
          windows.finish();
          System.out.println("WINDOWS" + windows.line);
          System.out.printf(
              "TOTALS %d %d %d %d%n",
              server.requests() - windows.requests,
              server.successes() - windows.answered,
              server.tooManyRequests() - windows.refused,
              server.connections() - windows.connections);
          windows = null;
        }
      }
    }
    System.exit(0);
  }

  /** {@code ms=rate,...} as the window from whose start each rate holds. */
  private static TreeMap<Long, Double> schedule(String text) {
    TreeMap<Long, Double> changes = new TreeMap<>();
    if (!text.isEmpty()) {
      for (String change : text.split(",")) {
        String[] parts = change.split("=");
        changes.put(
            Long.parseLong(parts[0]) * 1_000_000 / WINDOW_NANOS, Double.parseDouble(parts[1]));
      }
    }
    return changes;
  }

  /** Counts answers and refusals per quarter second, and moves the limit on schedule. */
  private static final class Windows extends Thread {
    private final LocalServer server;
    private final TreeMap<Long, Double> changes;
    private final StringBuilder line = new StringBuilder();
    private final long startNanos = System.nanoTime();
    private final long startMicros = LocalServer.epochMicros();
    private final long requests;
    private final long answered;
    private final long refused;
    private final long connections;
    private volatile boolean running = true;

    Windows(LocalServer server, TreeMap<Long, Double> changes) {
      super("fleet-windows");
      setDaemon(true);
      this.server = server;
      this.changes = changes;
      this.requests = server.requests();
      this.answered = server.successes();
      this.refused = server.tooManyRequests();
      this.connections = server.connections();
      apply(0);
    }

    private void apply(long window) {
      Double rate = changes.remove(window);
      if (rate != null) {
        server.limit(rate);
      }
    }

    @Override
    public void run() {
      long lastAnswered = answered;
      long lastRefused = refused;
      List<String> pairs = new ArrayList<>();
      for (long window = 1; running; window++) {
        long due = startNanos + window * WINDOW_NANOS;
        long left;
        while ((left = due - System.nanoTime()) > 0) {
          try {
            Thread.sleep(Math.max(1, left / 1_000_000));
          } catch (InterruptedException e) {
            return;
          }
        }
        long answeredNow = server.successes();
        long refusedNow = server.tooManyRequests();
        apply(window);
        pairs.add((answeredNow - lastAnswered) + "/" + (refusedNow - lastRefused));
        lastAnswered = answeredNow;
        lastRefused = refusedNow;
      }
      pairs.forEach(pair -> line.append(' ').append(pair));
    }

    void finish() throws InterruptedException {
      running = false;
      join();
    }
  }
}
