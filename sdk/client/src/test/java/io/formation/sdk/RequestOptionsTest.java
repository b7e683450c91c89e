package io.formation.sdk;

import static io.formation.sdk.Fixtures.documentSet;
import static io.formation.sdk.Fixtures.json;
import static io.formation.sdk.Fixtures.status;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.formation.testkit.FakeTime;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;
import mockwebserver3.junit5.StartStop;
import org.junit.jupiter.api.Test;

/** Settings for some calls only, through a service's withOptions view. */
class RequestOptionsTest {
  @StartStop final MockWebServer server = new MockWebServer();
  final FakeTime time = new FakeTime();

  static final RequestOptions TAGGED =
      RequestOptions.builder().header("X-Correlation-Id", "corr-1").build();

  @Test
  void aCreateCarriesTheExtraHeadersAndAKeyOfItsOwnBlockingAndAsync() throws Exception {
    server.enqueue(documentSet("ds_1", "input_needed"));
    server.enqueue(documentSet("ds_2", "input_needed"));
    try (FormationClient client = TestClients.client(server, time)) {
      DocumentSets tagged = client.documentSets().withOptions(TAGGED);
      tagged.create(DocumentSets.DELAWARE_CORPORATION);
      tagged.createAsync(DocumentSets.DELAWARE_CORPORATION).get(10, TimeUnit.SECONDS);
    }
    java.util.Set<String> keys = new java.util.HashSet<>();
    for (int i = 0; i < 2; i++) {
      RecordedRequest create = server.takeRequest();
      assertThat(create.getHeaders().get("X-Correlation-Id")).isEqualTo("corr-1");
      assertThat(create.getHeaders().get("Idempotency-Key")).isNotBlank();
      keys.add(create.getHeaders().get("Idempotency-Key"));
      assertThat(create.getHeaders().get("Authorization")).isEqualTo("Bearer " + TestClients.TOKEN);
    }
    // Two creates through one view: two logical requests, two keys.
    assertThat(keys).hasSize(2);
  }

  @Test
  void theServiceItselfIsUnchangedByAView() throws Exception {
    server.enqueue(documentSet("ds_1", "finalizing"));
    try (FormationClient client = TestClients.client(server, time)) {
      client.documentSets().withOptions(TAGGED);
      client.documentSets().get("ds_1");
    }
    RecordedRequest get = server.takeRequest();
    assertThat(get.getHeaders().get("X-Correlation-Id")).isNull();
    assertThat(get.getHeaders().get("Idempotency-Key")).isNull();
  }

  @Test
  void everyPollOfAWaitAndEveryPageAndFormsCallUsesTheOptions() throws Exception {
    server.enqueue(documentSet("ds_1", "finalizing"));
    server.enqueue(documentSet("ds_1", "complete"));
    server.enqueue(json("{\"data\":[],\"links\":{\"next\":null}}"));
    server.enqueue(json("[]"));
    try (FormationClient client = TestClients.client(server, time)) {
      client.documentSets().withOptions(TAGGED).awaitCompletion("ds_1");
      client.teams().withOptions(TAGGED).list().stream().count();
      client.forms().withOptions(TAGGED).list("ds_1");
    }
    for (int i = 0; i < 4; i++) {
      assertThat(server.takeRequest().getHeaders().get("X-Correlation-Id")).isEqualTo("corr-1");
    }
  }

  @Test
  void aCreatesRetryCarriesItsKeyAndNoOtherRequestCarriesOne() throws Exception {
    server.enqueue(status(429));
    server.enqueue(documentSet("ds_1", "finalizing"));
    server.enqueue(documentSet("ds_1", "complete"));
    server.enqueue(json("[]"));
    try (FormationClient client = TestClients.client(server, time)) {
      DocumentSets tagged = client.documentSets().withOptions(TAGGED);
      tagged.create(DocumentSets.DELAWARE_CORPORATION);
      tagged.awaitCompletion("ds_1");
      client.forms().withOptions(TAGGED).list("ds_1");
    }
    String first = server.takeRequest().getHeaders().get("Idempotency-Key");
    String retry = server.takeRequest().getHeaders().get("Idempotency-Key");
    assertThat(first).isNotBlank();
    assertThat(retry).isEqualTo(first);
    assertThat(server.takeRequest().getHeaders().get("Idempotency-Key")).isNull();
    assertThat(server.takeRequest().getHeaders().get("Idempotency-Key")).isNull();
  }

  @Test
  void aCreateGivenAKeyOfTheCallersSendsItOnEveryRetryOfThatCreateOnly() throws Exception {
    server.enqueue(status(429));
    server.enqueue(documentSet("ds_1", "input_needed"));
    server.enqueue(documentSet("ds_2", "input_needed"));
    try (FormationClient client = TestClients.client(server, time)) {
      client
          .documentSets()
          .create(
              CreateDocumentSetParams.of(DocumentSets.DELAWARE_CORPORATION)
                  .withIdempotencyKey("order-42"));
      client.documentSets().create(DocumentSets.DELAWARE_CORPORATION);
    }
    assertThat(server.takeRequest().getHeaders().get("Idempotency-Key")).isEqualTo("order-42");
    assertThat(server.takeRequest().getHeaders().get("Idempotency-Key")).isEqualTo("order-42");
    assertThat(server.takeRequest().getHeaders().get("Idempotency-Key"))
        .isNotBlank()
        .isNotEqualTo("order-42");
  }

  @Test
  void anIdempotencyKeyThatIsBlankOrNoHeaderValueIsRefusedWithoutShowingIt() {
    CreateDocumentSetParams params = CreateDocumentSetParams.of(DocumentSets.DELAWARE_CORPORATION);
    assertThatThrownBy(() -> params.withIdempotencyKey(" "))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("idempotencyKey");
    assertThatThrownBy(() -> params.withIdempotencyKey("order\n42"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("at index 5");
  }

  @Test
  void retriesForOneCallReplaceTheClients() {
    server.enqueue(status(503));
    server.enqueue(documentSet("ds_1", "finalizing"));
    try (FormationClient client = TestClients.client(server, time)) {
      assertThatThrownBy(
              () ->
                  client
                      .documentSets()
                      .withOptions(RequestOptions.builder().maxRetries(0).build())
                      .get("ds_1"))
          .isInstanceOf(ServerException.class);
    }
    assertThat(server.getRequestCount()).isEqualTo(1);
  }

  @Test
  void aTimeoutForOneCallEndsItWhatEverTheClientsIs() {
    server.enqueue(
        new MockResponse.Builder().headersDelay(10, TimeUnit.SECONDS).body("{}").build());
    RequestOptions quick =
        RequestOptions.builder().timeout(Duration.ofMillis(200)).maxRetries(0).build();
    try (FormationClient client =
        TestClients.builder(server, time).callTimeout(Duration.ofMinutes(5)).build()) {
      assertThatThrownBy(() -> client.documentSets().withOptions(quick).get("ds_1"))
          .isInstanceOf(NetworkException.class);
    }
  }

  @org.junit.jupiter.params.ParameterizedTest
  @org.junit.jupiter.params.provider.ValueSource(
      strings = {
        "Accept-Encoding", "range", "If-Range", "Host", "Content-Length", "Transfer-Encoding",
        "Connection", "TE", "Upgrade", "Keep-Alive", "Expect", "Trailer"
      })
  void headersTheHttpStackOwnsAreRefusedByName(String name) {
    assertThatThrownBy(() -> RequestOptions.builder().header(name, "gzip"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(name + " is set by the SDK or its HTTP stack and cannot be given per call");
  }

  @Test
  void headersTheSdkOwnsAreRefusedAndBadValuesAreNotEchoed() {
    assertThatThrownBy(() -> RequestOptions.builder().header("Authorization", "Bearer x"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("set by the SDK");
    assertThatThrownBy(() -> RequestOptions.builder().header("idempotency-key", "k"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("a key of its own");
    assertThatThrownBy(() -> RequestOptions.builder().header("X-Secret", "s3cr3t\r\nX-Injected: 1"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageNotContaining("s3cr3t");
    assertThatThrownBy(() -> RequestOptions.builder().header("Bad Name", "v"))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> RequestOptions.builder().timeout(Duration.ZERO))
        .isInstanceOf(IllegalArgumentException.class);
    assertThat(TAGGED.toString()).doesNotContain("corr-1").doesNotContain("order-42");
  }
}
