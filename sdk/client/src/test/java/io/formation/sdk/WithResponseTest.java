package io.formation.sdk;

import static io.formation.sdk.Fixtures.documentSet;
import static io.formation.sdk.Fixtures.json;
import static org.assertj.core.api.Assertions.assertThat;

import io.formation.sdk.model.ActionResult;
import io.formation.sdk.model.DocumentSet;
import io.formation.sdk.model.Form;
import io.formation.sdk.model.Page;
import io.formation.sdk.model.Team;
import io.formation.testkit.FakeTime;
import java.util.List;
import java.util.concurrent.TimeUnit;
import mockwebserver3.MockWebServer;
import mockwebserver3.junit5.StartStop;
import org.junit.jupiter.api.Test;

/** Every operation can return, with its result, the status, headers and request id. */
class WithResponseTest {
  @StartStop final MockWebServer server = new MockWebServer();
  final FakeTime time = new FakeTime();

  @Test
  void aDocumentSetComesWithItsStatusHeadersAndRequestIdBlockingAndAsync() throws Exception {
    server.enqueue(
        documentSet("ds_1", "finalizing").newBuilder().addHeader("Request-Id", "req_1").build());
    server.enqueue(
        documentSet("ds_2", "input_needed")
            .newBuilder()
            .code(201)
            .addHeader("X-Request-Id", "req_2")
            .build());
    try (FormationClient client = TestClients.client(server, time)) {
      ApiResponse<DocumentSet> got = client.documentSets().withResponse().get("ds_1");
      ApiResponse<DocumentSet> created =
          client
              .documentSets()
              .withResponse()
              .createAsync(CreateDocumentSetParams.of(DocumentSets.DELAWARE_CORPORATION))
              .get(10, TimeUnit.SECONDS);

      assertThat(got.value().id()).isEqualTo("ds_1");
      assertThat(got.statusCode()).isEqualTo(200);
      assertThat(got.requestId()).contains("req_1");
      assertThat(created.value().id()).isEqualTo("ds_2");
      assertThat(created.statusCode()).isEqualTo(201);
      assertThat(created.headers().get("X-Request-Id")).isEqualTo("req_2");
      assertThat(created.requestId()).contains("req_2");
    }
  }

  @Test
  void formsAndActionsComeWithTheirResponses() {
    server.enqueue(
        json("[{\"id\":\"company\",\"values\":{},"
                + "\"actions\":[{\"method\":\"PUT\",\"url\":\"/v1/actions/a1\"}]}]")
            .newBuilder()
            .addHeader("Request-Id", "req_list")
            .build());
    server.enqueue(json(202, "{}").newBuilder().addHeader("Request-Id", "req_put").build());
    try (FormationClient client = TestClients.client(server, time)) {
      ApiResponse<List<Form>> forms = client.forms().withResponse().list("ds_1");
      ApiResponse<ActionResult> sent =
          client.forms().withResponse().submit(forms.value().get(0), forms.value().get(0).values());

      assertThat(forms.requestId()).contains("req_list");
      assertThat(sent.statusCode()).isEqualTo(202);
      assertThat(sent.requestId()).contains("req_put");
    }
  }

  @Test
  void teamsPagesComeWithTheirResponsesFollowingTheNextLinkAsGiven() throws Exception {
    server.enqueue(
        json(
            "{\"data\":[{\"type\":\"teams\",\"id\":\"t1\",\"attributes\":{\"name\":\"A\"}}],"
                + "\"links\":{\"next\":\"/v1/teams?page%5Bafter%5D=opaque\"}}"));
    server.enqueue(
        json("{\"data\":[],\"links\":{\"next\":null}}")
            .newBuilder()
            .addHeader("Request-Id", "req_p2")
            .build());
    try (FormationClient client = TestClients.client(server, time)) {
      ApiResponse<Page<Team>> first = client.teams().withResponse().page(null);
      ApiResponse<Page<Team>> second =
          client.teams().withResponse().page(first.value().links().next().orElseThrow());

      assertThat(first.value().items()).extracting(Team::id).containsExactly("t1");
      assertThat(second.requestId()).contains("req_p2");
    }
    assertThat(server.takeRequest().getTarget()).isEqualTo("/v1/teams");
    assertThat(server.takeRequest().getTarget()).isEqualTo("/v1/teams?page%5Bafter%5D=opaque");
  }
}
