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
 * client.teams().list().pageSize(100).stream()} and through a hand-written loop that follows {@code
 * links.next} itself, on the same OkHttp settings and local server, alternating the two; then
 * streams once more on each side, weighing the reachable heap (after a full GC) at each quarter.
 * Meant to run with {@code -Xmx64m}: finishing at all shows the pager does not hold the teams it
 * has passed, and the weighings show what it does hold.
 *
 * <p>Arguments: {@code [teams] [rounds]}.
 */
public final class Paging {
  private static final int PAGE_SIZE = 100;

  private Paging() {}

  /**
   * Counts the teams seen and folds their ids and names in, so neither side can skip work; with
   * marks, weighs the reachable heap when the count reaches each mark.
   */
  private static final class Sink {
    private final long[] marks;
    final long[] liveAt;
    private int next;
    long teams;
    long checksum;

    Sink(long... marks) {
      this.marks = marks;
      this.liveAt = new long[marks.length];
    }

    void accept(String id, String name) {
      teams++;
      checksum += id.length() + 31L * name.length();
      if (next < marks.length && teams == marks[next]) {
        liveAt[next++] = HeapWatch.liveNow();
      }
    }
  }

  public static void main(String[] args) {
    long teams = args.length > 0 ? Long.parseLong(args[0]) : 1_000_000;
    int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 5;
    try (LocalServer server = LocalServer.withTeams(teams)) {
      OkHttpClient http = SharedHttp.okHttp();
      ObjectMapper mapper = new ObjectMapper();
      HttpUrl base = HttpUrl.get(server.baseUrl());
      try (FormationClient client = SharedHttp.sdk(server.baseUrl(), http)) {
        // Warm-up: both paths compiled before anything is timed.
        for (int i = 0; i < 2; i++) {
          sdk(client, Math.min(teams, 200_000), new Sink());
          raw(http, mapper, base, Math.min(teams, 200_000), new Sink());
        }
        List<Double> sdkRates = new ArrayList<>();
        List<Double> rawRates = new ArrayList<>();
        long expected = -1;
        for (int round = 0; round < rounds; round++) {
          for (boolean isSdk : new boolean[] {round % 2 == 0, round % 2 != 0}) {
            Sink sink = new Sink();
            long start = System.nanoTime();
            if (isSdk) {
              sdk(client, Long.MAX_VALUE, sink);
            } else {
              raw(http, mapper, base, Long.MAX_VALUE, sink);
            }
            double seconds = (System.nanoTime() - start) / 1e9;
            if (sink.teams != teams || (expected >= 0 && sink.checksum != expected)) {
              throw new IllegalStateException(
                  (isSdk ? "sdk" : "raw")
                      + " saw "
                      + sink.teams
                      + " teams, checksum "
                      + sink.checksum);
            }
            expected = sink.checksum;
            (isSdk ? sdkRates : rawRates).add(teams / seconds);
          }
        }

        // Memory: stream once more on each side, weighing the reachable heap at each quarter.
        long[] quarters = {1, teams / 4, teams / 2, 3 * teams / 4, teams};
        Sink rawHeap = new Sink(quarters);
        raw(http, mapper, base, Long.MAX_VALUE, rawHeap);
        Sink sdkHeap = new Sink(quarters);
        long requestsBefore = server.requests();
        long peakUsed;
        try (HeapWatch watch = new HeapWatch()) {
          sdk(client, Long.MAX_VALUE, sdkHeap);
          peakUsed = watch.peakUsedBytes();
        }
        long pages = server.requests() - requestsBefore;

        double sdkRate = median(sdkRates);
        double rawRate = median(rawRates);
        System.out.println();
        System.out.printf(
            "== Paging: %,d teams, pages of %d (%,d pages), heap max %s ==%n",
            teams, PAGE_SIZE, pages, HeapWatch.mib(HeapWatch.maxHeap()));
        System.out.printf(
            "raw loop:  %,10.0f teams/s  (median of %d; all: %s)%n",
            rawRate, rounds, rates(rawRates));
        System.out.printf(
            "sdk pager: %,10.0f teams/s  (median of %d; all: %s)%n",
            sdkRate, rounds, rates(sdkRates));
        System.out.printf("SDK/raw teams/s: %.3f%n", sdkRate / rawRate);
        for (String side : new String[] {"raw", "sdk"}) {
          long[] live = (side.equals("sdk") ? sdkHeap : rawHeap).liveAt;
          long growth = live[4] - live[0];
          System.out.printf(
              "%s: reachable heap at the 1st team and at 25/50/75/100%%: %s / %s / %s / %s / %s;"
                  + " growth %s (%,.0f bytes per page)%n",
              side,
              HeapWatch.mib(live[0]),
              HeapWatch.mib(live[1]),
              HeapWatch.mib(live[2]),
              HeapWatch.mib(live[3]),
              HeapWatch.mib(live[4]),
              HeapWatch.mib(growth),
              (double) growth / pages);
        }
        System.out.printf("sdk: peak used heap while streaming %s%n", HeapWatch.mib(peakUsed));
      } finally {
        SharedHttp.release(http);
      }
    }
  }

  private static void sdk(FormationClient client, long limit, Sink sink) {
    client.teams().list().pageSize(PAGE_SIZE).stream()
        .limit(limit)
        .forEach(team -> sink.accept(team.id(), team.name()));
  }

  /** The hand-written loop: GET, check, parse, read each team, follow links.next as given. */
  private static void raw(
      OkHttpClient http, ObjectMapper mapper, HttpUrl base, long limit, Sink sink) {
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
