package io.formation.sdk.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.formation.sdk.FormationClient;
import io.formation.sdk.model.DocumentSet;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.Response;

/**
 * Benchmark 4, cold start: the time from starting a JVM to the first completed GET of a document
 * set with a fresh client, timed from outside as a process (the local server runs in this JVM, the
 * client in a child). Three children, alternated and each run several times: {@code jvm} does
 * nothing (the JVM's own start), {@code raw} builds an OkHttp client and an ObjectMapper and makes
 * the GET by hand, {@code sdk} builds a {@code FormationClient} and calls {@code
 * documentSets().get(id)}. Prints the medians; each child also reports how its time in {@code main}
 * splits between building the client and the first call.
 *
 * <p>Arguments: {@code [runs per kind]}; {@code probe <kind> <baseUrl>} is the child's entry.
 */
public final class ColdStart {
  private static final String[] KINDS = {"jvm", "raw", "sdk"};

  private ColdStart() {}

  public static void main(String[] args) throws Exception {
    if (args.length == 3 && args[0].equals("probe")) {
      probe(args[1], args[2]);
      return;
    }
    int runs = args.length > 0 ? Integer.parseInt(args[0]) : 7;
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    String classPath = System.getProperty("java.class.path");
    Map<String, List<double[]>> results = new LinkedHashMap<>();
    try (LocalServer server = LocalServer.start()) {
      for (int run = -1; run < runs; run++) { // run -1 warms the OS file cache, not counted
        for (String kind : KINDS) {
          long start = System.nanoTime();
          Process process =
              new ProcessBuilder(
                      java,
                      "-cp",
                      classPath,
                      ColdStart.class.getName(),
                      "probe",
                      kind,
                      server.baseUrl())
                  .redirectError(ProcessBuilder.Redirect.INHERIT)
                  .start();
          String line;
          try (BufferedReader out =
              new BufferedReader(
                  new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            line = out.readLine();
            double total = (System.nanoTime() - start) / 1e6;
            out.lines().forEach(ignored -> {});
            if (process.waitFor() != 0 || line == null || !line.startsWith("done")) {
              throw new IllegalStateException(kind + " probe failed: " + line);
            }
            String[] parts = line.split(" ");
            if (run >= 0) {
              results
                  .computeIfAbsent(kind, key -> new ArrayList<>())
                  .add(
                      new double[] {
                        total, Double.parseDouble(parts[1]), Double.parseDouble(parts[2])
                      });
            }
          }
        }
      }
    }
    System.out.println();
    System.out.printf(
        "== Cold start: JVM start to first completed get, median of %d runs ==%n", runs);
    System.out.printf("%-4s %14s %16s %14s%n", "kind", "process (ms)", "build client", "first get");
    for (Map.Entry<String, List<double[]>> kind : results.entrySet()) {
      System.out.printf(
          "%-4s %14.0f %16.1f %14.1f%n",
          kind.getKey(),
          median(kind.getValue(), 0),
          median(kind.getValue(), 1),
          median(kind.getValue(), 2));
    }
    double jvm = median(results.get("jvm"), 0);
    double raw = median(results.get("raw"), 0);
    double sdk = median(results.get("sdk"), 0);
    System.out.printf(
        "SDK/raw process time: %.3f; beyond an empty JVM: raw +%.0f ms, sdk +%.0f ms (%.2f x)%n",
        sdk / raw, raw - jvm, sdk - jvm, (sdk - jvm) / (raw - jvm));
  }

  /** The child: one client, one GET, then "done <build ms> <get ms>" on stdout. */
  private static void probe(String kind, String baseUrl) throws IOException {
    long start = System.nanoTime();
    long built = start;
    switch (kind) {
      case "jvm" -> {}
      case "raw" -> {
        OkHttpClient http = SharedHttp.okHttp();
        ObjectMapper mapper = new ObjectMapper();
        built = System.nanoTime();
        Request request =
            new Request.Builder()
                .url(baseUrl + "/v1/document_sets/" + CallOverheadBenchmark.ID)
                .header("Authorization", "Bearer " + LocalServer.TOKEN)
                .header("Accept", "application/vnd.api+json")
                .build();
        try (Response response = http.newCall(request).execute()) {
          if (!response.isSuccessful()) {
            throw new IOException("GET returned " + response.code());
          }
          JsonNode body = mapper.readTree(response.body().byteStream());
          if (body.path("data").path("id").isMissingNode()) {
            throw new IOException("no document set");
          }
        }
      }
      case "sdk" -> {
        try (FormationClient client =
            FormationClient.builder().baseUrl(baseUrl).accessToken(LocalServer.TOKEN).build()) {
          built = System.nanoTime();
          DocumentSet set = client.documentSets().get(CallOverheadBenchmark.ID);
          if (!set.id().equals(CallOverheadBenchmark.ID)) {
            throw new IOException("wrong document set " + set.id());
          }
          report(start, built);
        }
        return;
      }
      default -> throw new IllegalArgumentException("kind: " + kind);
    }
    report(start, built);
  }

  /**
   * Says the first get is done (before any client is closed) and exits at once: the time to the
   * first get is what is measured, not the JVM's shutdown.
   */
  private static void report(long start, long built) {
    long end = System.nanoTime();
    System.out.println("done " + (built - start) / 1e6 + " " + (end - built) / 1e6);
    System.out.flush();
    System.exit(0);
  }

  private static double median(List<double[]> runs, int column) {
    double[] values = runs.stream().mapToDouble(run -> run[column]).sorted().toArray();
    int n = values.length;
    return n % 2 == 1 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
  }
}
