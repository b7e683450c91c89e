package io.formation.sdk;

import static io.formation.sdk.Fixtures.jsonApi;
import static io.formation.sdk.Fixtures.ok;
import static org.assertj.core.api.Assertions.assertThat;

import io.formation.sdk.internal.time.Sleeper;
import io.formation.sdk.internal.time.TestSleepers;
import io.formation.sdk.model.DocumentSet;
import io.formation.testkit.FakeTime;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import mockwebserver3.MockWebServer;
import mockwebserver3.junit5.StartStop;
import org.junit.jupiter.api.Test;

/** The async twins go through the same retry, error and parsing decisions as the blocking calls. */
class AsyncTransportTest {
  @StartStop final MockWebServer server = new MockWebServer();
  final FakeTime time = new FakeTime();

  @Test
  void asyncGetRetriesExactlyAsTheBlockingGetDoes() throws Exception {
    server.enqueue(jsonApi(503, ""));
    server.enqueue(jsonApi(429, "").newBuilder().addHeader("Retry-After", "3").build());
    server.enqueue(ok(TransportTest.SET));
    try (FormationClient client = TestClients.client(server, time)) {
      DocumentSet set = client.documentSets().getAsync("ds1").get(10, TimeUnit.SECONDS);
      assertThat(set.id()).isEqualTo("ds1");
    }
    assertThat(server.getRequestCount()).isEqualTo(3);
    assertThat(time.sleeps()).containsExactly(Duration.ofMillis(100), Duration.ofSeconds(3));
  }

  @Test
  void asyncCreateIsNotResentAfterA503() {
    server.enqueue(jsonApi(503, ""));
    try (FormationClient client = TestClients.client(server, time)) {
      CompletableFuture<DocumentSet> created =
          client
              .documentSets()
              .createAsync(CreateDocumentSetParams.of(DocumentSets.DELAWARE_CORPORATION));
      assertThat(created)
          .failsWithin(Duration.ofSeconds(10))
          .withThrowableOfType(ExecutionException.class)
          .withCauseInstanceOf(ServerException.class);
    }
    assertThat(server.getRequestCount()).isEqualTo(1);
  }

  @Test
  void asyncFailuresCarryTheSameExceptionTypes() {
    server.enqueue(jsonApi(404, "{\"errors\":[{\"detail\":\"no such set\"}]}"));
    server.enqueue(jsonApi(200, "<html>"));
    try (FormationClient client = TestClients.client(server, time)) {
      assertThat(client.documentSets().getAsync("nope"))
          .failsWithin(Duration.ofSeconds(10))
          .withThrowableOfType(ExecutionException.class)
          .withCauseInstanceOf(NotFoundException.class)
          .withMessageContaining("no such set");
      assertThat(client.documentSets().getAsync("ds1"))
          .failsWithin(Duration.ofSeconds(10))
          .withThrowableOfType(ExecutionException.class)
          .withCauseInstanceOf(InvalidResponseException.class);
    }
  }

  @Test
  void cancellingDuringARetryWaitSendsNothingMore() throws Exception {
    // A wait that ignores cancellation, so the test sees the operation itself refuse to go on.
    CompletableFuture<Void> retryWait =
        new CompletableFuture<>() {
          @Override
          public boolean cancel(boolean mayInterruptIfRunning) {
            return false;
          }
        };
    CompletableFuture<Void> waitRequested = new CompletableFuture<>();
    Sleeper manual =
        TestSleepers.of(
            duration -> {},
            duration -> {
              waitRequested.complete(null);
              return retryWait;
            });
    server.enqueue(jsonApi(503, ""));
    server.enqueue(ok(TransportTest.SET));
    try (FormationClient client =
        TestClients.sleeper(TestClients.builder(server, time), manual).build()) {
      CompletableFuture<DocumentSet> get = client.documentSets().getAsync("ds1");
      waitRequested.get(10, TimeUnit.SECONDS);
      assertThat(get.cancel(true)).isTrue();
      retryWait.complete(null);
      assertThat(get).isCancelled();
    }
    assertThat(server.getRequestCount()).isEqualTo(1);
  }
}
