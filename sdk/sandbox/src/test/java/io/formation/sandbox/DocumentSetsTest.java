package io.formation.sandbox;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.formation.sandbox.SandboxHttp.Reply;
import io.formation.testkit.FakeTime;
import java.time.Instant;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** POST /v1/document_sets and GET /v1/document_sets/{id}. */
final class DocumentSetsTest {
  private static final Instant NOW = Instant.parse("2025-03-04T05:06:07.123Z");

  private FormationSandbox sandbox;
  private SandboxHttp http;

  @BeforeEach
  void start() {
    sandbox = FormationSandbox.start(SandboxOptions.defaults().withClock(new FakeTime(NOW)));
    http = new SandboxHttp(sandbox);
  }

  @AfterEach
  void stop() {
    sandbox.close();
  }

  @Test
  void creatingADocumentSetAnswers201WithTheResource() {
    Reply reply = http.post("/v1/document_sets", "{\"template\":\"startup_delaware-corporation\"}");

    assertThat(reply.status()).isEqualTo(201);
    assertThat(reply.contentType()).isEqualTo("application/vnd.api+json");
    JsonNode data = reply.json().get("data");
    String id = data.get("id").asText();
    assertThat(data.get("type").asText()).isEqualTo("document_sets");
    assertThat(id).matches("ds_[a-z0-9]{20}");
    assertThat(data.at("/attributes/state").asText()).isEqualTo("input_needed");
    assertThat(data.at("/attributes/template").asText()).isEqualTo("startup_delaware-corporation");
    assertThat(data.at("/attributes/created_at").asText()).isEqualTo("2025-03-04T05:06:07.123Z");
    assertThat(data.at("/links/self").asText()).isEqualTo("/v1/document_sets/" + id);
    assertThat(data.at("/links/app").asText())
        .isEqualTo(sandbox.baseUrl() + "/app/document_sets/" + id);
  }

  @Test
  void creatingFromAJsonApiDocumentWorksToo() {
    Reply reply =
        http.post(
            "/v1/document_sets",
            "{\"data\":{\"type\":\"document_sets\","
                + "\"attributes\":{\"template\":\"startup_delaware-corporation\"}}}");

    assertThat(reply.status()).isEqualTo(201);
    assertThat(reply.json().at("/data/attributes/state").asText()).isEqualTo("input_needed");
  }

  @Test
  void eachDocumentSetGetsItsOwnId() {
    assertThat(http.createDocumentSet()).isNotEqualTo(http.createDocumentSet());
  }

  @Test
  void unknownTemplateIsUnprocessableAndPointsAtTheTemplate() {
    Reply reply = http.post("/v1/document_sets", "{\"template\":\"startup_wyoming-llc\"}");

    assertThat(reply.status()).isEqualTo(422);
    JsonNode error = reply.json().at("/errors/0");
    assertThat(error.get("status").asText()).isEqualTo("422");
    assertThat(error.get("code").asText()).isEqualTo("invalid");
    assertThat(error.get("title").asText()).isNotBlank();
    assertThat(error.get("detail").asText()).contains("startup_delaware-corporation");
    assertThat(error.at("/source/pointer").asText()).isEqualTo("/template");
  }

  @Test
  void missingTemplateIsUnprocessableAndPointsAtTheTemplate() {
    Reply reply = http.post("/v1/document_sets", "{}");

    assertThat(reply.status()).isEqualTo(422);
    assertThat(reply.json().at("/errors/0/source/pointer").asText()).isEqualTo("/template");
  }

  @Test
  void templateThatIsNotAStringIsUnprocessable() {
    Reply reply = http.post("/v1/document_sets", "{\"template\":7}");

    assertThat(reply.status()).isEqualTo(422);
    assertThat(reply.json().at("/errors/0/source/pointer").asText()).isEqualTo("/template");
  }

  @Test
  void missingTemplateInAJsonApiDocumentPointsIntoItsAttributes() {
    Reply reply = http.post("/v1/document_sets", "{\"data\":{\"type\":\"document_sets\"}}");

    assertThat(reply.status()).isEqualTo(422);
    assertThat(reply.json().at("/errors/0/source/pointer").asText())
        .isEqualTo("/data/attributes/template");
  }

  @Test
  void jsonApiDocumentOfAnotherTypeIsAConflict() {
    Reply reply =
        http.post(
            "/v1/document_sets",
            "{\"data\":{\"type\":\"teams\",\"attributes\":{\"template\":\"x\"}}}");

    assertThat(reply.status()).isEqualTo(409);
  }

  @Test
  void bodyThatIsNotAnObjectIsABadRequest() {
    assertThat(http.post("/v1/document_sets", "[]").status()).isEqualTo(400);
    assertThat(http.post("/v1/document_sets", "").status()).isEqualTo(400);
  }

  @Test
  void fetchingADocumentSetAnswersTheSameResourceWithItsCurrentState() {
    Reply created =
        http.post("/v1/document_sets", "{\"template\":\"startup_delaware-corporation\"}");
    String id = created.json().at("/data/id").asText();

    Reply fetched = http.get("/v1/document_sets/" + id);

    assertThat(fetched.status()).isEqualTo(200);
    assertThat(fetched.contentType()).isEqualTo("application/vnd.api+json");
    assertThat(fetched.json()).isEqualTo(created.json());
  }

  @Test
  void unknownDocumentSetIsNotFound() {
    Reply reply = http.get("/v1/document_sets/ds_doesnotexist");

    assertThat(reply.status()).isEqualTo(404);
    assertThat(reply.json().at("/errors/0/status").asText()).isEqualTo("404");
    assertThat(reply.json().at("/errors/0/code").asText()).isEqualTo("not_found");
  }

  @Test
  void formsOfAnUnknownDocumentSetAreNotFound() {
    assertThat(http.get("/v1/document_sets/ds_doesnotexist/forms").status()).isEqualTo(404);
  }

  @Test
  void snapshotShowsTheDocumentSetAsTheApiDoes() {
    String id = http.createDocumentSet();

    SandboxDocumentSet set = sandbox.documentSet(id).orElseThrow();

    assertThat(set.id()).isEqualTo(id);
    assertThat(set.template()).isEqualTo("startup_delaware-corporation");
    assertThat(set.state()).isEqualTo("input_needed");
    assertThat(set.createdAt()).isEqualTo(NOW);
    assertThat(set.appUrl()).isEqualTo(sandbox.baseUrl() + "/app/document_sets/" + id);
    assertThat(set.values().keySet())
        .containsExactly("company", "purpose", "stock", "people", "registered_agent");
    assertThat(set.values().values()).allSatisfy(values -> assertThat(values).isEmpty());
    assertThat(set.formsNeedingValues())
        .containsExactly("company", "purpose", "stock", "people", "registered_agent");
    assertThat(set.reviewed()).isFalse();
    assertThat(set.isComplete()).isFalse();
  }

  @Test
  void snapshotOfAnUnknownIdIsEmpty() {
    assertThat(sandbox.documentSet("ds_nope")).isEmpty();
  }
}
