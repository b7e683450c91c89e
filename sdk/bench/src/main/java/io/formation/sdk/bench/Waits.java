package io.formation.sdk.bench;

import io.formation.sdk.FormationClient;
import io.formation.sdk.PollOptions;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;

/**
 * What the benchmarks of many waits at once ({@link Concurrency}, {@link RateLimit}, {@link
 * RateLimitShift}) share: their polling schedule, and the two kinds of side they compare, the SDK
 * and the hand-written {@link RawPoller}.
 */
final class Waits {
  private Waits() {}

  /** One side: starts a wait for an id and says when it is over. */
  interface Side extends AutoCloseable {
    CompletableFuture<?> await(String id);

    @Override
    void close();
  }

  /** Polls 50 ms after the start, then 1.5 times as long each time, at most 200 ms apart. */
  static PollOptions polls(double jitter, Duration timeout) {
    return PollOptions.builder()
        .initialInterval(Duration.ofMillis(50))
        .multiplier(1.5)
        .maxInterval(Duration.ofMillis(200))
        .jitter(jitter)
        .timeout(timeout)
        .build();
  }

  /**
   * The same, with {@code every} between polls: for weighing the heap, every set waits that long
   * after its first poll, so all are in flight and none polls again while they are weighed.
   */
  static PollOptions parked(PollOptions options, Duration every, Duration timeout) {
    return options.newBuilder().initialInterval(every).maxInterval(every).timeout(timeout).build();
  }

  /** The hand-written poller. */
  static Side raw(LocalServer server, PollOptions options) {
    RawPoller poller = new RawPoller(server.baseUrl(), options);
    return new Side() {
      @Override
      public CompletableFuture<?> await(String id) {
        return poller.await(id);
      }

      @Override
      public void close() {
        poller.close();
      }
    };
  }

  /** The SDK as a partner builds it: the builder's defaults beyond what the caller set. */
  static Side sdk(FormationClient.Builder builder, PollOptions options) {
    FormationClient client = builder.accessToken(LocalServer.TOKEN).build();
    return new Side() {
      @Override
      public CompletableFuture<?> await(String id) {
        return client.documentSets().awaitCompletionAsync(id, options);
      }

      @Override
      public void close() {
        client.close();
      }
    };
  }

  /** A builder for the server's base URL, with every default: what a partner starts from. */
  static FormationClient.Builder on(LocalServer server) {
    return FormationClient.builder().baseUrl(server.baseUrl());
  }
}
