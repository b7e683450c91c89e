package io.formation.sdk;

import static io.formation.sdk.Fixtures.fixture;
import static io.formation.sdk.Fixtures.status;
import static io.formation.sdk.Fixtures.tree;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import io.formation.sdk.model.DocumentSet;
import io.formation.sdk.model.DocumentSetState;
import io.formation.testkit.FakeTime;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;
import mockwebserver3.junit5.StartStop;
import okhttp3.MediaType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.ThrowingConsumer;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.NullSource;
import org.junit.jupiter.params.provider.ValueSource;

class DocumentSetsTest {
  @StartStop final MockWebServer server = new MockWebServer();
  final FakeTime time = new FakeTime();

  @ParameterizedTest
  @EnumSource(Mode.class)
  void createPostsExactlyTheTemplateAsJsonAndReadsTheJsonApiDocument(Mode mode) throws Exception {
    server.enqueue(fixture("document_sets/created_jsonapi.json"));
    DocumentSet set;
    try (FormationClient client = TestClients.client(server, time)) {
      set = mode.create(client, DocumentSets.DELAWARE_CORPORATION);
    }

    RecordedRequest request = server.takeRequest();
    assertThat(request.getMethod()).isEqualTo("POST");
    assertThat(request.getTarget()).isEqualTo("/v1/document_sets");
    assertThat(request.getBody().utf8())
        .isEqualTo("{\"template\":\"startup_delaware-corporation\"}");
    MediaType contentType = MediaType.get(request.getHeaders().get("Content-Type"));
    assertThat(contentType.type() + "/" + contentType.subtype()).isEqualTo("application/json");
    assertThat(request.getHeaders().get("Authorization")).isEqualTo("Bearer " + TestClients.TOKEN);

    assertThat(set.id()).isEqualTo("ds_123");
    assertThat(set.state()).isEqualTo(DocumentSetState.INPUT_NEEDED);
    assertThat(set.appLink())
        .contains(URI.create("https://app.formation.example/document_sets/ds_123"));
    assertThat(set.raw().path("attributes").path("company").path("name").asText())
        .isEqualTo("Acme Robotics");
    assertThat(set.raw().path("attributes").path("created_at").asText())
        .isEqualTo("2026-01-01T00:00:00Z");
  }

  @Test
  void createReadsAPlainJsonObject() throws Exception {
    server.enqueue(fixture("document_sets/created_plain.json"));
    DocumentSet set;
    try (FormationClient client = TestClients.client(server, time)) {
      set = client.documentSets().create(DocumentSets.DELAWARE_CORPORATION);
    }

    assertThat(server.takeRequest().getTarget()).isEqualTo("/v1/document_sets");
    assertThat(set.id()).isEqualTo("ds_456");
    assertThat(set.state()).isEqualTo(DocumentSetState.SIGNATURE_REQUESTS_NEEDED);
    assertThat(set.appLink())
        .contains(URI.create("https://app.formation.example/document_sets/ds_456"));
    assertThat(set.raw()).isEqualTo(tree(Fixtures.read("document_sets/created_plain.json")));
    assertThat(set.raw().path("reviewer").path("teams").get(1).asText()).isEqualTo("ops");
  }

  @Test
  void createSendsExtraFieldsGivenWithAfterTheTemplate() throws Exception {
    ObjectNode metadata = Fixtures.MAPPER.createObjectNode().put("ref", "crm-42");
    CreateDocumentSetParams params =
        CreateDocumentSetParams.of(DocumentSets.DELAWARE_CORPORATION)
            .with("team_id", TextNode.valueOf("team_1"))
            .with("metadata", metadata);
    metadata.put("ref", "changed after with()");
    server.enqueue(fixture("document_sets/created_jsonapi.json"));
    try (FormationClient client = TestClients.client(server, time)) {
      client.documentSets().create(params);
    }

    assertThat(server.takeRequest().getBody().utf8())
        .isEqualTo(
            "{\"template\":\"startup_delaware-corporation\",\"team_id\":\"team_1\","
                + "\"metadata\":{\"ref\":\"crm-42\"}}");
  }

  @Test
  void createParamsRefuseATemplateFieldAndABlankTemplate() {
    assertThatThrownBy(
            () -> CreateDocumentSetParams.of("x").with("template", TextNode.valueOf("y")))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> CreateDocumentSetParams.of(" "))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @ParameterizedTest
  @EnumSource(Mode.class)
  void createIsNotRetriedOn503(Mode mode) {
    server.enqueue(status(503));
    server.enqueue(fixture("document_sets/created_jsonapi.json"));
    try (FormationClient client = TestClients.client(server, time)) {
      assertThatThrownBy(() -> mode.create(client, DocumentSets.DELAWARE_CORPORATION))
          .isInstanceOfSatisfying(
              ServerException.class, e -> assertThat(e.statusCode()).isEqualTo(503));
    }
    assertThat(server.getRequestCount()).isEqualTo(1);
    assertThat(time.sleeps()).isEmpty();
  }

  @Test
  void createIsNotRetriedOn500() {
    server.enqueue(status(500));
    server.enqueue(fixture("document_sets/created_jsonapi.json"));
    try (FormationClient client = TestClients.client(server, time)) {
      assertThatThrownBy(() -> client.documentSets().create(DocumentSets.DELAWARE_CORPORATION))
          .isInstanceOfSatisfying(
              ServerException.class, e -> assertThat(e.statusCode()).isEqualTo(500));
    }
    assertThat(server.getRequestCount()).isEqualTo(1);
  }

  @ParameterizedTest
  @EnumSource(Mode.class)
  void createIsRetriedOn429AfterTheRetryAfterDelay(Mode mode) throws Exception {
    server.enqueue(new MockResponse.Builder().code(429).addHeader("Retry-After", "3").build());
    server.enqueue(fixture("document_sets/created_jsonapi.json"));
    DocumentSet set;
    try (FormationClient client = TestClients.client(server, time)) {
      set = mode.create(client, DocumentSets.DELAWARE_CORPORATION);
    }

    assertThat(set.id()).isEqualTo("ds_123");
    assertThat(server.getRequestCount()).isEqualTo(2);
    for (int i = 0; i < 2; i++) {
      RecordedRequest request = server.takeRequest();
      assertThat(request.getMethod()).isEqualTo("POST");
      assertThat(request.getBody().utf8())
          .isEqualTo("{\"template\":\"startup_delaware-corporation\"}");
    }
    assertThat(time.sleeps()).containsExactly(Duration.ofSeconds(3));
  }

  @Test
  void createIsRetriedOn429WithBackoffWhenThereIsNoRetryAfter() {
    server.enqueue(status(429));
    server.enqueue(fixture("document_sets/created_jsonapi.json"));
    try (FormationClient client = TestClients.client(server, time)) {
      client.documentSets().create(DocumentSets.DELAWARE_CORPORATION);
    }
    assertThat(server.getRequestCount()).isEqualTo(2);
    // Full jitter with the random fixed at 1.0: the whole first backoff step.
    assertThat(time.sleeps()).containsExactly(Duration.ofMillis(100));
  }

  @ParameterizedTest
  @EnumSource(Mode.class)
  void getReadsTheDocumentSetById(Mode mode) throws Exception {
    server.enqueue(fixture("document_sets/created_jsonapi.json"));
    DocumentSet set;
    try (FormationClient client = TestClients.client(server, time)) {
      set = mode.get(client, "ds_123");
    }

    RecordedRequest request = server.takeRequest();
    assertThat(request.getMethod()).isEqualTo("GET");
    assertThat(request.getTarget()).isEqualTo("/v1/document_sets/ds_123");
    assertThat(request.getBodySize()).isZero();
    assertThat(request.getHeaders().get("Accept")).contains("application/vnd.api+json");
    assertThat(request.getHeaders().get("Authorization")).isEqualTo("Bearer " + TestClients.TOKEN);
    assertThat(set.id()).isEqualTo("ds_123");
    assertThat(set.state().isComplete()).isFalse();
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "a/b        | a%2Fb",
        "../teams   | ..%2Fteams",
        "a b        | a%20b",
        "x?y=1      | x%3Fy=1",
        "ds#1       | ds%231",
        "%2F        | %252F",
      })
  void idsArePercentEncodedAsOneSegment(String id, String encoded) throws Exception {
    server.enqueue(fixture("document_sets/created_plain.json"));
    server.enqueue(Fixtures.json("[]"));
    server.enqueue(Fixtures.documentSet("whatever", "complete"));
    try (FormationClient client = TestClients.client(server, time)) {
      client.documentSets().get(id);
      client.forms().list(id);
      client.documentSets().awaitCompletion(id);
    }

    assertThat(server.takeRequest().getTarget()).isEqualTo("/v1/document_sets/" + encoded);
    assertThat(server.takeRequest().getTarget())
        .isEqualTo("/v1/document_sets/" + encoded + "/forms");
    assertThat(server.takeRequest().getTarget()).isEqualTo("/v1/document_sets/" + encoded);
  }

  @ParameterizedTest
  @NullSource
  @ValueSource(strings = {"", " ", "\t", ".", ".."})
  void blankOrDotIdsAreRejectedBeforeAnythingIsSent(String id) {
    try (FormationClient client = TestClients.client(server, time)) {
      List<ThrowingConsumer<String>> calls =
          List.of(
              client.documentSets()::get,
              client.documentSets()::getAsync,
              client.documentSets()::forms,
              client.forms()::list,
              client.forms()::listAsync,
              client.documentSets()::awaitCompletion,
              bad -> client.documentSets().awaitCompletionAsync(bad, PollOptions.defaults()));
      for (ThrowingConsumer<String> call : calls) {
        assertThatThrownBy(() -> call.accept(id)).isInstanceOf(IllegalArgumentException.class);
      }
    }
    assertThat(server.getRequestCount()).isZero();
  }

  @Test
  void anUnknownStateIsKeptAsItCameAndCountsAsInProgress() {
    server.enqueue(fixture("document_sets/unknown_state.json"));
    DocumentSet set;
    try (FormationClient client = TestClients.client(server, time)) {
      set = client.documentSets().get("ds_789");
    }

    DocumentSetState state = set.state();
    assertThat(state.value()).isEqualTo("notarizing");
    assertThat(state.toString()).isEqualTo("notarizing");
    assertThat(state.isKnown()).isFalse();
    assertThat(state.kind()).isEqualTo(DocumentSetState.Kind.UNKNOWN);
    assertThat(state.isInProgress()).isTrue();
    assertThat(state.isComplete()).isFalse();
    assertThat(state.needsInput()).isFalse();
    assertThat(state).isEqualTo(DocumentSetState.of("notarizing"));
    assertThat(set.raw().path("attributes").path("notary").asText()).isEqualTo("Ada");
  }

  @ParameterizedTest
  @CsvSource({
    "input_needed, INPUT_NEEDED",
    "signature_requests_needed, SIGNATURE_REQUESTS_NEEDED",
    "awaiting_payment, AWAITING_PAYMENT",
    "filing_in_progress, FILING_IN_PROGRESS",
    "finalizing, FINALIZING",
    "complete, COMPLETE",
    "Complete, UNKNOWN",
    "'', UNKNOWN",
  })
  void everyStateValueMapsToItsKindWithoutThrowing(String value, DocumentSetState.Kind kind) {
    DocumentSetState state = DocumentSetState.of(value);
    assertThat(state.kind()).isEqualTo(kind);
    assertThat(state.value()).isEqualTo(value);
    assertThat(state.isKnown()).isEqualTo(kind != DocumentSetState.Kind.UNKNOWN);
    assertThat(state.isComplete()).isEqualTo(kind == DocumentSetState.Kind.COMPLETE);
    assertThat(state.needsInput()).isEqualTo(kind == DocumentSetState.Kind.INPUT_NEEDED);
  }

  @ParameterizedTest
  @EnumSource(Mode.class)
  void getOfAnUnknownIdThrowsNotFoundWithTheResponse(Mode mode) {
    server.enqueue(
        Fixtures.json(
            404,
            "{\"errors\":[{\"status\":\"404\",\"title\":\"Not found\",\"detail\":\"No ds_x\"}]}"));
    try (FormationClient client = TestClients.client(server, time)) {
      assertThatThrownBy(() -> mode.get(client, "ds_x"))
          .isInstanceOfSatisfying(
              NotFoundException.class,
              e -> {
                assertThat(e.statusCode()).isEqualTo(404);
                assertThat(e.detail()).contains("No ds_x");
                assertThat(e.url()).endsWith("/v1/document_sets/ds_x");
              });
    }
    assertThat(server.getRequestCount()).isEqualTo(1);
  }

  @Test
  void aDocumentSetWithoutAStateIsAnInvalidResponse() {
    server.enqueue(Fixtures.json("{\"data\":{\"type\":\"document_sets\",\"id\":\"ds_1\"}}"));
    try (FormationClient client = TestClients.client(server, time)) {
      assertThatThrownBy(() -> client.documentSets().get("ds_1"))
          .isInstanceOf(InvalidResponseException.class)
          .hasMessageContaining("no state");
    }
  }
}
