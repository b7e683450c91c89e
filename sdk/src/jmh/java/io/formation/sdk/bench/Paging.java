package io.formation.sdk.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.formation.sdk.FormationClient;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import okhttp3.HttpUrl;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.Response;

/**
 * Benchmark 2, paging: streams every team (1,000,000 by default, pages of 100) through {@code
 * client.teams().list().pageSize(100).stream()} and through a hand-written loop that follows
 * {@code links.next} itself, on the same OkHttp settings and local server, alternating the two;
 * then streams once more through the pager, measuring the reachable heap as it goes. Meant to run
 * with {@code -Xmx64m}: finishing at all shows the pager does not hold the teams it has passed.
 *
 * <p>Arguments: {@code [teams] [rounds]}.
 */
public final class Paging {
  private static final int PAGE_SIZE = 100;

  private Paging() {}

  /** Counts the teams seen and folds their ids and names in, so neither side can skip work. */
  private static final class Sink {
    long teams;
    long checksum;

    void accept(String id, String name) {
      teams++;
      checksum += id.length() + 31L * name.length();
    }
  }

  public static void main(String[] args) throws IOException {
    long teams = args.length > 0 ? Long.parseLong(args[0]) : 1_000_000;
    int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 3;
    try (LocalServer server = LocalServer.withTeams(teams)) {
      OkHttpClient http = SharedHttp.okHttp();
      ObjectMapper mapper = new ObjectMapper();
      HttpUrl base = HttpUrl.get(server.baseUrl());
      try (FormationClient client = SharedHttp.sdk(server.baseUrl(), http)) {
        // Warm-up: both paths compiled before anything is timed.
        for (int i = 0; i < 2; i++) {
          sdk(client, Math.min(teams, 200_000));
          raw(http, mapper, base, Math.min(teams, 200_000));
        }
        List<Double> sdkRates = new ArrayList<>();
        List<Double> rawRates = new ArrayList<>();
        long expected = -1;
        for (int round = 0; round < rounds; round++) {
          boolean sdkFirst = round % 2 == 0;
          for (int side = 0; side < 2; side++) {
            boolean isSdk = (side == 0) == sdkFirst;
            long start = System.nanoTime();
            Sink sink = isSdk ? sdk(client, Long.MAX_VALUE) : raw(http, mapper, base, Long.MAX_VALUE);
            double seconds = (System.nanoTime() - start) / 1e9;
            if (sink.teams != teams || (expected >= 0 && sink.checksum != expected)) {
              throw new IllegalStateException(
                  (isSdk ? "sdk" : "raw") + " saw " + sink.teams + " teams, checksum " + sink.checksum);
            }
            expected = sink.checksum;
            (isSdk ? sdkRates : rawRates).add(teams / seconds);
          }
        }

        long requestsBefore = server.requests();
        long[] liveAt = new long[5];
        long[] marks = {0, teams / 4, teams / 2, 3 * teams / 4, teams};
        liveAt[0] = HeapWatch.liveNow();
        long peakUsed;
        try (HeapWatch watch = new HeapWatch()) {
          Sink sink = new Sink();
          int[] next = {1};
          client.teams().list().pageSize(PAGE_SIZE).stream()
              .forEach(
                  team -> {
                    sink.accept(team.id(), team.name());
                    if (next[0] < 4 && sink.teams == marks[next[0]]) {
                      liveAt[next[0]++] = HeapWatch.liveNow();
                    }
                  });
          liveAt[4] = HeapWatch.liveNow();
          peakUsed = watch.peakUsedBytes();
        }
        long pages = server.requests() - requestsBefore;

        double sdkRate = median(sdkRates);
        double rawRate = median(rawRates);
        System.out.println();
        System.out.printf(
            "== Paging: %,d teams, pages of %d, heap max %s ==%n",
            teams, PAGE_SIZE, HeapWatch.mib(HeapWatch.maxHeap()));
        System.out.printf("raw loop: %,12.0f teams/s  (median of %d; all: %s)%n", rawRate, rounds, rates(rawRates));
        System.out.printf("sdk pager:%,12.0f teams/s  (median of %d; all: %s)%n", sdkRate, rounds, rates(sdkRates));
        System.out.printf("SDK/raw teams/s: %.3f%n", sdkRate / rawRate);
        System.out.printf(
            "pager heap after full GC at 0 / 25 / 50 / 75 / 100%% of the teams: %s / %s / %s / %s / %s%n",
            HeapWatch.mib(liveAt[0]),
            HeapWatch.mib(liveAt[1]),
            HeapWatch.mib(liveAt[2]),
            HeapWatch.mib(liveAt[3]),
            HeapWatch.mib(liveAt[4]));
        System.out.printf(
            "pager growth while streaming: %s over %,d pages (%.0f bytes per page; the teams"
                + " passed are not kept)%n",
            HeapWatch.mib(liveAt[3] - liveAt[1]),
            pages / 2,
            (liveAt[3] - liveAt[1]) / (pages / 2.0));
        System.out.printf("peak used heap while streaming: %s%n", HeapWatch.mib(peakUsed));
      } finally {
        SharedHttp.release(http);
      }
    }
  }

  private static Sink sdk(FormationClient client, long limit) {
    Sink sink = new Sink();
    client.teams().list().pageSize(PAGE_SIZE).stream()
        .limit(limit)
        .forEach(team -> sink.accept(team.id(), team.name()));
    return sink;
  }

  /** The hand-written loop: GET, check, parse, read each team, follow links.next as given. */
  private static Sink raw(OkHttpClient http, ObjectMapper mapper, HttpUrl base, long limit) {
    Sink sink = new Sink();
    String next = "/v1/teams?page%5Bsize%5D=" + PAGE_SIZE;
    while (next != null && sink.teams < limit) {
      HttpUrl url = base.resolve(next);
      Request request =
          new Request.Builder()
              .url(url)
              .header("Authorization", "Bearer " + LocalServer.TOKEN)
              .header("Accept", "application/vnd.api+json")
              .build();
      JsonNode page;
      try (Response response = http.newCall(request).execute()) {
        if (!response.isSuccessful()) {
          throw new IOException("GET " + url + " returned " + response.code());
        }
        page = mapper.readTree(response.body().byteStream());
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      for (JsonNode team : page.path("data")) {
        if (sink.teams == limit) {
          break;
        }
        sink.accept(team.path("id").asText(), team.path("attributes").path("name").asText());
      }
      JsonNode link = page.path("links").path("next");
      next = link.isTextual() ? link.asText() : null;
    }
    return sink;
  }

  static double median(List<Double> values) {
    List<Double> sorted = new ArrayList<>(values);
    Collections.sort(sorted);
    int n = sorted.size();
    return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
  }

  private static String rates(List<Double> rates) {
    StringBuilder text = new StringBuilder();
    for (double rate : rates) {
      text.append(text.length() == 0 ? "" : ", ").append(String.format("%,.0f", rate));
    }
    return text.toString();
  }
}
