package io.formation.sdk.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.formation.sdk.PollOptions;
import java.io.IOException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import okhttp3.Call;
import okhttp3.Callback;
import okhttp3.Dispatcher;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.Response;

/**
 * The hand-written baseline of the concurrency and rate-limit benchmarks: what a partner would
 * write without the SDK to poll many document sets at once, with OkHttp's {@code enqueue}, one
 * scheduler thread for the waits, and the same schedule as the SDK's {@link PollOptions}, jitter
 * included. A {@code 429} puts off that one set's poll by its {@code Retry-After}, as a partner
 * would by hand; nothing else slows down. Its OkHttp client mirrors the one a {@code
 * FormationClient} builds for itself: a cached pool of daemon threads, 64 requests at once, 16 per
 * host, the SDK's default timeouts.
 */
final class RawPoller implements AutoCloseable {
  private final OkHttpClient http;
  private final ScheduledThreadPoolExecutor scheduler;
  private final ObjectMapper mapper = new ObjectMapper();
  private final String documentSets;
  private final PollOptions options;

  RawPoller(String baseUrl, PollOptions options) {
    ThreadPoolExecutor executor =
        new ThreadPoolExecutor(
            0,
            Integer.MAX_VALUE,
            60,
            TimeUnit.SECONDS,
            new SynchronousQueue<>(),
            daemon("raw-http"));
    Dispatcher dispatcher = new Dispatcher(executor);
    dispatcher.setMaxRequests(64);
    dispatcher.setMaxRequestsPerHost(16);
    this.http = SharedHttp.okHttp().newBuilder().dispatcher(dispatcher).build();
    this.scheduler = new ScheduledThreadPoolExecutor(1, daemon("raw-scheduler"));
    scheduler.setRemoveOnCancelPolicy(true);
    this.documentSets = baseUrl + "/v1/document_sets/";
    this.options = options;
  }

  /** Polls until the set is complete; the result is its last body. */
  CompletableFuture<JsonNode> await(String id) {
    CompletableFuture<JsonNode> result = new CompletableFuture<>();
    poll(id, options.initialInterval().toNanos(), result);
    return result;
  }

  private void poll(String id, long interval, CompletableFuture<JsonNode> result) {
    if (result.isDone()) {
      return;
    }
    Request request =
        new Request.Builder()
            .url(documentSets + id)
            .header("Authorization", "Bearer " + LocalServer.TOKEN)
            .header("Accept", "application/vnd.api+json")
            .build();
    http.newCall(request)
        .enqueue(
            new Callback() {
              @Override
              public void onFailure(Call call, IOException e) {
                result.completeExceptionally(e);
              }

              @Override
              public void onResponse(Call call, Response response) {
                try (response) {
                  String retryAfter = response.header("Retry-After");
                  if (response.code() == 429 && retryAfter != null) {
                    scheduler.schedule(
                        () -> poll(id, interval, result),
                        Long.parseLong(retryAfter.strip()),
                        TimeUnit.SECONDS);
                    return;
                  }
                  if (!response.isSuccessful()) {
                    throw new IOException(
                        "GET " + call.request().url() + " returned " + response.code());
                  }
                  JsonNode body = mapper.readTree(response.body().byteStream());
                  if (body.path("data")
                      .path("attributes")
                      .path("state")
                      .asText()
                      .equals("complete")) {
                    result.complete(body);
                    return;
                  }
                  long next =
                      (long)
                          Math.min(
                              interval * options.multiplier(), options.maxInterval().toNanos());
                  long wait =
                      interval
                          - (long)
                              (interval
                                  * options.jitter()
                                  * ThreadLocalRandom.current().nextDouble());
                  scheduler.schedule(() -> poll(id, next, result), wait, TimeUnit.NANOSECONDS);
                } catch (IOException | RuntimeException e) {
                  result.completeExceptionally(e);
                }
              }
            });
  }

  @Override
  public void close() {
    scheduler.shutdownNow();
    http.dispatcher().cancelAll();
    SharedHttp.release(http);
  }

  private static ThreadFactory daemon(String prefix) {
    AtomicInteger count = new AtomicInteger();
    return runnable -> {
      Thread thread = new Thread(runnable, prefix + "-" + count.incrementAndGet());
      thread.setDaemon(true);
      return thread;
    };
  }
}
