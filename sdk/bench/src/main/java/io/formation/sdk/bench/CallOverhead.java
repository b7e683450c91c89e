package io.formation.sdk.bench;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.openjdk.jmh.profile.GCProfiler;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.CommandLineOptionException;
import org.openjdk.jmh.runner.options.CommandLineOptions;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.VerboseMode;

/**
 * Runs {@link CallOverheadBenchmark} with {@code -prof gc} and prints the SDK/raw and traced/raw
 * ratios. The three sides (raw, the SDK, the SDK traced with OpenTelemetry) take turns, one JMH
 * fork each per round (default 7 rounds, {@code -Drounds=n}), so a change in the machine's load
 * weighs on them alike, and each time ratio is the median of the rounds' ratios: forks on a small
 * machine spread by about ±10%, and one slow fork must not decide it. The first 3 rounds ({@code
 * -DdebugRounds=n}) also run the SDK with debug logging on. Then a cross-check interleaves the
 * three in one JVM ({@code -DinterleavedRounds=0} to skip it). Other arguments are JMH's own
 * ({@code -wi 2 -i 3}) and override the benchmark's defaults.
 */
public final class CallOverhead {
  static final double TIME_TARGET = 1.05;
  static final double ALLOCATION_TARGET = 1.3;
  // The goal for tracing on: spans built in full and exported to nowhere.
  static final double TRACED_TIME_TARGET = 1.15;

  private CallOverhead() {}

  /** One fork of one side. */
  private record Fork(
      double callsPerSecond,
      double processBytesPerCall,
      double clientBytes,
      double clientCpuNanos,
      double calls) {}

  public static void main(String[] args)
      throws RunnerException, CommandLineOptionException, IOException {
    CommandLineOptions jmhArgs = new CommandLineOptions(args);
    int rounds = Integer.getInteger("rounds", 7);
    int debugRounds = Integer.getInteger("debugRounds", 3);
    List<Fork> sdk = new ArrayList<>();
    List<Fork> raw = new ArrayList<>();
    List<Fork> traced = new ArrayList<>();
    List<Fork> debug = new ArrayList<>();
    System.out.printf(
        "Call overhead: %d rounds of one JMH fork per side (-prof gc), then an interleaved check%n",
        rounds);
    String[] sides = {"sdk", "raw", "traced"};
    for (int round = 0; round < rounds; round++) {
      for (int i = 0; i < sides.length; i++) {
        // Each side takes each place in the order in turn.
        String side = sides[(round + i) % sides.length];
        Fork fork = run(jmhArgs, side, false);
        (side.equals("sdk") ? sdk : side.equals("raw") ? raw : traced).add(fork);
      }
      if (round < debugRounds) {
        debug.add(run(jmhArgs, "sdk", true));
      }
    }

    double sdkRate = mean(sdk, Fork::callsPerSecond);
    double rawRate = mean(raw, Fork::callsPerSecond);
    double sdkClient = sum(sdk, Fork::clientBytes) / sum(sdk, Fork::calls);
    double rawClient = sum(raw, Fork::clientBytes) / sum(raw, Fork::calls);
    double sdkProcess = mean(sdk, Fork::processBytesPerCall);
    double rawProcess = mean(raw, Fork::processBytesPerCall);
    double sdkCpu = sum(sdk, Fork::clientCpuNanos) / sum(sdk, Fork::calls) / 1e3;
    double rawCpu = sum(raw, Fork::clientCpuNanos) / sum(raw, Fork::calls) / 1e3;
    double tracedRate = mean(traced, Fork::callsPerSecond);
    double tracedClient = sum(traced, Fork::clientBytes) / sum(traced, Fork::calls);
    double tracedProcess = mean(traced, Fork::processBytesPerCall);
    double tracedCpu = sum(traced, Fork::clientCpuNanos) / sum(traced, Fork::calls) / 1e3;
    List<Double> ratios = new ArrayList<>();
    List<Double> tracedRatios = new ArrayList<>();
    for (int i = 0; i < sdk.size(); i++) {
      ratios.add(raw.get(i).callsPerSecond / sdk.get(i).callsPerSecond);
      tracedRatios.add(raw.get(i).callsPerSecond / traced.get(i).callsPerSecond);
    }
    double timeRatio = median(ratios);
    double tracedRatio = median(tracedRatios);
    double clientRatio = sdkClient / rawClient;

    System.out.println();
    System.out.printf(
        "== Call overhead: GET /v1/document_sets/{id}, ~1 KB JSON:API body, %d rounds ==%n",
        rounds);
    System.out.printf(
        "%-6s %12s %10s %14s %16s %22s   %s%n",
        "side",
        "calls/s",
        "us/call",
        "client CPU us",
        "client B/call",
        "process B/call (gc)",
        "calls/s per fork");
    print("raw", rawRate, rawCpu, rawClient, rawProcess, raw);
    print("sdk", sdkRate, sdkCpu, sdkClient, sdkProcess, sdk);
    print("traced", tracedRate, tracedCpu, tracedClient, tracedProcess, traced);
    System.out.printf(
        "SDK/raw time per call, median of the rounds: %.3f (target <= %.2f: %s); per round: %s;"
            + " of the mean rates: %.3f%n",
        timeRatio,
        TIME_TARGET,
        timeRatio <= TIME_TARGET ? "met" : "MISSED",
        perRound(ratios),
        rawRate / sdkRate);
    System.out.printf(
        "SDK/raw client-thread CPU per call: %.3f (less sensitive to the machine's load)%n",
        sdkCpu / rawCpu);
    System.out.printf(
        "SDK/raw bytes per call (client): %.3f (target <= %.2f: %s)%n",
        clientRatio, ALLOCATION_TARGET, clientRatio <= ALLOCATION_TARGET ? "met" : "MISSED");
    System.out.printf(
        "SDK/raw bytes per call (process, server included, -prof gc): %.3f%n",
        sdkProcess / rawProcess);
    System.out.printf(
        "Traced/raw time per call (OpenTelemetry SDK, every span sampled and exported to nowhere),"
            + " median of the rounds: %.3f (target <= %.2f: %s); per round: %s; of the mean rates:"
            + " %.3f; against the SDK untraced: %.3f%n",
        tracedRatio,
        TRACED_TIME_TARGET,
        tracedRatio <= TRACED_TIME_TARGET ? "met" : "MISSED",
        perRound(tracedRatios),
        rawRate / tracedRate,
        sdkRate / tracedRate);
    System.out.printf(
        "Traced/raw client-thread CPU per call: %.3f; bytes per call (client): %.3f%n",
        tracedCpu / rawCpu, tracedClient / rawClient);
    double debugRate = mean(debug, Fork::callsPerSecond);
    System.out.printf(
        "SDK with debug logging on (one line per call, to a handler that drops it): %,.0f calls/s,"
            + " %.1f us/call; time per call against the SDK with logging off: %.3f, against raw:"
            + " %.3f; client bytes per call %,.0f%n",
        debugRate,
        1e6 / debugRate,
        sdkRate / debugRate,
        rawRate / debugRate,
        sum(debug, Fork::clientBytes) / sum(debug, Fork::calls));
    interleaved(Integer.getInteger("interleavedRounds", 30));
  }

  /**
   * A cross-check that does not depend on the machine staying equally busy from one fork to the
   * next: in one JVM, batches of SDK calls and of raw calls alternate, and the median of the
   * per-round time ratios is printed. Both sides share the JIT's profile of OkHttp here, which
   * JMH's separate forks avoid, so this is a check, not the headline figure.
   */
  private static void interleaved(int rounds) throws IOException {
    if (rounds <= 0) {
      return;
    }
    int batch = 2_000;
    CallOverheadBenchmark bench = new CallOverheadBenchmark();
    CallOverheadBenchmark.ClientThread counters = new CallOverheadBenchmark.ClientThread();
    CallOverheadBenchmark.Traced traced = new CallOverheadBenchmark.Traced();
    bench.start();
    traced.start(bench);
    try {
      for (int i = 0; i < 20_000; i++) {
        bench.sdk(counters);
        bench.raw(counters);
        bench.traced(traced, counters);
      }
      List<Double> ratios = new ArrayList<>();
      List<Double> tracedRatios = new ArrayList<>();
      for (int round = 0; round < rounds; round++) {
        long[] nanos = new long[3]; // sdk, raw, traced
        for (int i = 0; i < 3; i++) {
          // Each side takes each place in the order in turn.
          int side = (round + i) % 3;
          long start = System.nanoTime();
          for (int call = 0; call < batch; call++) {
            switch (side) {
              case 0 -> bench.sdk(counters);
              case 1 -> bench.raw(counters);
              default -> bench.traced(traced, counters);
            }
          }
          nanos[side] = System.nanoTime() - start;
        }
        ratios.add((double) nanos[0] / nanos[1]);
        tracedRatios.add((double) nanos[2] / nanos[1]);
      }
      Collections.sort(ratios);
      Collections.sort(tracedRatios);
      System.out.printf(
          "SDK/raw time per call, interleaved in one JVM (%d rounds of %,d calls each):"
              + " median %.3f, quartiles %.3f .. %.3f%n",
          rounds, batch, median(ratios), ratios.get(rounds / 4), ratios.get(rounds * 3 / 4));
      System.out.printf(
          "Traced/raw time per call, interleaved the same way: median %.3f, quartiles %.3f .. %.3f%n",
          median(tracedRatios), tracedRatios.get(rounds / 4), tracedRatios.get(rounds * 3 / 4));
    } finally {
      traced.stop();
      bench.stop();
    }
  }

  private static Fork run(CommandLineOptions jmhArgs, String side, boolean debugLog)
      throws RunnerException {
    ChainedOptionsBuilder options =
        new OptionsBuilder()
            .parent(jmhArgs)
            .include(CallOverheadBenchmark.class.getName() + "\\." + side + "$")
            .forks(1)
            .addProfiler(GCProfiler.class);
    if (debugLog) {
      options.jvmArgsAppend("-Xms512m", "-Xmx512m", "-Dbench.debugLog=true");
    }
    if (!jmhArgs.verbosity().hasValue()) {
      // JMH's iteration-by-iteration log is ~1,000 lines here; -v NORMAL brings it back.
      options.verbosity(VerboseMode.SILENT);
    }
    RunResult result = new Runner(options.build()).runSingle();
    System.out.printf(
        "  %s%s fork: %,.0f calls/s%n",
        side, debugLog ? " (debug logging)" : "", result.getPrimaryResult().getScore());
    return new Fork(
        result.getPrimaryResult().getScore(),
        score(result, "gc.alloc.rate.norm"),
        score(result, "clientBytes"),
        score(result, "clientCpuNanos"),
        score(result, "calls"));
  }

  private static double score(RunResult run, String label) {
    Result<?> result = run.getSecondaryResults().get(label);
    return result == null ? Double.NaN : result.getScore();
  }

  private static void print(
      String side, double rate, double cpu, double client, double process, List<Fork> forks) {
    StringBuilder perFork = new StringBuilder();
    for (Fork fork : forks) {
      perFork
          .append(perFork.length() == 0 ? "" : ", ")
          .append(String.format("%,.0f", fork.callsPerSecond));
    }
    System.out.printf(
        "%-6s %,12.0f %10.1f %14.1f %,16.0f %,22.0f   %s%n",
        side, rate, 1e6 / rate, cpu, client, process, perFork);
  }

  private static String perRound(List<Double> ratios) {
    StringBuilder text = new StringBuilder();
    for (double ratio : ratios) {
      text.append(text.length() == 0 ? "" : ", ").append(String.format("%.3f", ratio));
    }
    return text.toString();
  }

  private static double median(List<Double> values) {
    List<Double> sorted = new ArrayList<>(values);
    Collections.sort(sorted);
    int middle = sorted.size() / 2;
    return sorted.size() % 2 == 1
        ? sorted.get(middle)
        : (sorted.get(middle - 1) + sorted.get(middle)) / 2;
  }

  private interface Figure {
    double of(Fork fork);
  }

  private static double mean(List<Fork> forks, Figure figure) {
    return sum(forks, figure) / forks.size();
  }

  private static double sum(List<Fork> forks, Figure figure) {
    double sum = 0;
    for (Fork fork : forks) {
      sum += figure.of(fork);
    }
    return sum;
  }
}
