package io.formation.sdk;

import static io.formation.sdk.Fixtures.documentSet;
import static io.formation.sdk.Fixtures.status;
import static java.time.Duration.ofMillis;
import static java.time.Duration.ofSeconds;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.formation.sdk.model.DocumentSet;
import io.formation.testkit.FakeTime;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;
import mockwebserver3.junit5.StartStop;
import okhttp3.Dispatcher;
import okhttp3.OkHttpClient;
import org.junit.jupiter.api.Test;

/** One client, one view of the service's limits: what one call learns holds every other call. */
class SharedRateLimitTest {
  @StartStop final MockWebServer server = new MockWebServer();
  final FakeTime time = new FakeTime();

  @Test
  void a429OnOneCallHoldsTheNextCreateUntilRetryAfterAndSendsItOnce() throws Exception {
    server.enqueue(status(429).newBuilder().addHeader("Retry-After", "10").build());
    server.enqueue(documentSet("ds_new", "input_needed"));
    try (FormationClient client = TestClients.builder(server, time).maxRetries(0).build()) {
      assertThatThrownBy(() -> client.documentSets().get("ds_1"))
          .isInstanceOf(RateLimitException.class);
      assertThat(time.sleeps()).isEmpty();

      assertThat(client.documentSets().create(DocumentSets.DELAWARE_CORPORATION).id())
          .isEqualTo("ds_new");
    }
    // Held for the 10 s asked for, plus its share of jitter (as much again at most; random is 1.0).
    assertThat(time.sleeps()).containsExactly(ofSeconds(20));
    assertThat(server.takeRequest().getMethod()).isEqualTo("GET");
    RecordedRequest create = server.takeRequest();
    assertThat(create.getMethod()).isEqualTo("POST");
    assertThat(server.getRequestCount()).isEqualTo(2);
  }

  @Test
  void anAsyncCallIsHeldByThePauseToo() throws Exception {
    server.enqueue(status(503).newBuilder().addHeader("Retry-After", "4").build());
    server.enqueue(documentSet("ds_1", "finalizing"));
    try (FormationClient client = TestClients.builder(server, time).maxRetries(0).build()) {
      assertThatThrownBy(() -> client.documentSets().get("ds_1"))
          .isInstanceOf(ServerException.class);
      CompletableFuture<?> later = client.documentSets().getAsync("ds_1");
      later.get(10, TimeUnit.SECONDS);
    }
    assertThat(time.sleeps()).containsExactly(ofSeconds(8));
    assertThat(server.getRequestCount()).isEqualTo(2);
  }

  @Test
  void aCallQueuedInOkHttpWhenThePauseBeganIsHeldBeforeItGoesOnTheWire() throws Exception {
    server.enqueue(status(429).newBuilder().addHeader("Retry-After", "10").build());
    server.enqueue(documentSet("ds_2", "finalizing"));
    Dispatcher oneAtATime = new Dispatcher();
    oneAtATime.setMaxRequestsPerHost(1);
    OkHttpClient http = new OkHttpClient.Builder().dispatcher(oneAtATime).build();
    try (FormationClient client =
        TestClients.builder(server, time).httpClient(http).maxRetries(0).build()) {
      CompletableFuture<?> first = client.documentSets().getAsync("ds_1");
      CompletableFuture<?> queued = client.documentSets().getAsync("ds_2");

      assertThat(first).failsWithin(10, TimeUnit.SECONDS);
      assertThat(queued).succeedsWithin(10, TimeUnit.SECONDS);
    } finally {
      http.dispatcher().executorService().shutdown();
    }
    // The queued call waited out the pause (10 s, and as much again of jitter at most) and was
    // sent once, after it: nothing of it went out during the pause.
    assertThat(time.sleeps()).containsExactly(ofSeconds(20));
    assertThat(server.getRequestCount()).isEqualTo(2);
  }

  @Test
  void theRequestBudgetSpacesEveryCallOfTheClient() throws Exception {
    for (int i = 0; i < 4; i++) {
      server.enqueue(documentSet("ds_1", "finalizing"));
    }
    try (FormationClient client = TestClients.builder(server, time).requestBudget(4, 1).build()) {
      for (int i = 0; i < 4; i++) {
        client.documentSets().get("ds_1");
      }
    }
    assertThat(time.sleeps()).containsExactly(ofMillis(250), ofMillis(250), ofMillis(250));
  }

  @Test
  void callsWhoseCallersGaveUpDoNotHoldBackACallQueuedBehindThem() throws Exception {
    FakeTime manual = FakeTime.manual();
    server.enqueue(documentSet("ds_1", "finalizing"));
    server.enqueue(documentSet("ds_2", "finalizing"));
    try (FormationClient client = TestClients.builder(server, manual).requestBudget(2, 1).build()) {
      assertThat(client.documentSets().getAsync("ds_1")).succeedsWithin(10, TimeUnit.SECONDS);
      for (int i = 0; i < 6; i++) {
        assertThat(client.documentSets().getAsync("ds_1").orTimeout(1, TimeUnit.NANOSECONDS))
            .failsWithin(10, TimeUnit.SECONDS);
      }

      CompletableFuture<DocumentSet> next =
          client
              .documentSets()
              .withOptions(RequestOptions.builder().timeout(ofSeconds(1)).build())
              .getAsync("ds_2");
      manual.advance(ofMillis(500));

      // Its turn came half a second later, as if the six had never been queued.
      assertThat(next).succeedsWithin(10, TimeUnit.SECONDS);
    }
    assertThat(server.getRequestCount()).isEqualTo(2);
  }

  @Test
  void aBudgetMustBePositive() {
    assertThatThrownBy(() -> FormationClient.builder().requestBudget(0, 1))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> FormationClient.builder().requestBudget(5, 0))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> FormationClient.builder().requestBudget(Double.NaN, 1))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
