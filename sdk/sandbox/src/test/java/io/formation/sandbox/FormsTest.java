package io.formation.sandbox;

import static io.formation.sandbox.Delaware.FORMS;
import static io.formation.sandbox.Delaware.form;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import com.fasterxml.jackson.databind.JsonNode;
import io.formation.sandbox.SandboxHttp.Reply;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** GET /v1/document_sets/{id}/forms, submitting through actions, and the states that follow. */
final class FormsTest extends SandboxFixture {
  private static final Duration STEP = Duration.ofMillis(700);

  private String id;

  @Override
  SandboxOptions options() {
    return onTheTestsClock().withStepDelay(STEP).withProcessingLag(Duration.ZERO);
  }

  @BeforeEach
  void createASet() {
    id = http.createDocumentSet();
  }

  @Test
  void formsAreListedInOrderWithSchemaUiSchemaValuesAndActions() {
    Reply reply = http.get("/v1/document_sets/" + id + "/forms");

    assertThat(reply.status()).isEqualTo(200);
    assertThat(reply.contentType()).isEqualTo("application/vnd.api+json");
    List<String> ids = new ArrayList<>();
    for (JsonNode form : reply.json().get("data")) {
      ids.add(form.get("id").asText());
      assertThat(form.get("type").asText()).isEqualTo("forms");
      JsonNode attributes = form.get("attributes");
      assertThat(attributes.at("/json_schema/type").asText()).isEqualTo("object");
      assertThat(attributes.at("/json_schema/$schema").asText())
          .isEqualTo("https://json-schema.org/draft/2020-12/schema");
      assertThat(attributes.at("/ui_schema/type").asText()).isEqualTo("VerticalLayout");
      assertThat(attributes.get("values")).isEqualTo(Json.object());
      assertThat(attributes.get("actions")).hasSize(1);
      assertThat(attributes.at("/actions/0/name").asText()).isEqualTo("submit");
      assertThat(attributes.at("/actions/0/method").asText()).isEqualTo("PUT");
    }
    assertThat(ids).containsExactly("company", "purpose", "stock", "people", "registered_agent");
  }

  @Test
  void servedSchemasAreTheOnesDelawareFormsExposes() {
    JsonNode forms = http.get("/v1/document_sets/" + id + "/forms").json().get("data");

    for (int i = 0; i < forms.size(); i++) {
      SandboxForm form = FORMS.get(i);
      assertThat(forms.get(i).at("/attributes/json_schema")).isEqualTo(form.jsonSchema());
      assertThat(forms.get(i).at("/attributes/ui_schema")).isEqualTo(form.uiSchema());
    }
  }

  @Test
  void actionUrlsAreOpaqueAndDistinct() {
    Set<String> urls = new HashSet<>();
    for (JsonNode form : http.get("/v1/document_sets/" + id + "/forms").json().get("data")) {
      String url = form.at("/attributes/actions/0/url").asText();
      urls.add(url);
      assertThat(url).matches("/v1/form_actions/[A-Za-z0-9_-]{32}\\?sig=[0-9a-f]{64}");
      assertThat(url).doesNotContain(form.get("id").asText()).doesNotContain(id);
    }
    String otherId = http.createDocumentSet();
    urls.add(http.submitUrl(otherId, "company"));

    assertThat(urls).hasSize(6);
  }

  @Test
  void actionUrlWithAWrongOrMissingSignatureIsNotFound() {
    String url = http.submitUrl(id, "company");
    String body = form("company").orElseThrow().example().toString();
    String unsigned = url.substring(0, url.indexOf('?'));
    char last = url.charAt(url.length() - 1);
    String tampered = url.substring(0, url.length() - 1) + (last == '0' ? '1' : '0');

    assertThat(http.put(unsigned, body).status()).isEqualTo(404);
    assertThat(http.put(tampered, body).status()).isEqualTo(404);
    assertThat(http.put("/v1/form_actions/company?sig=00", body).status()).isEqualTo(404);
    assertThat(http.put(url, body).status()).isEqualTo(200);
  }

  @Test
  void actionUrlAcceptsOnlyItsMethod() {
    Reply reply = http.post(http.submitUrl(id, "company"), "{}");

    assertThat(reply.status()).isEqualTo(405);
    assertThat(reply.headers().firstValue("Allow")).hasValue("PUT");
  }

  @Test
  void submittingValidValuesStoresThemAndAnswersTheUpdatedForm() {
    String values = "{\"name\":\"Acme Robotics\",\"suffix\":\"Inc.\"}";

    Reply reply = http.put(http.submitUrl(id, "company"), values);

    assertThat(reply.status()).isEqualTo(200);
    assertThat(reply.contentType()).isEqualTo("application/vnd.api+json");
    JsonNode form = reply.json().get("data");
    assertThat(form.get("type").asText()).isEqualTo("forms");
    assertThat(form.get("id").asText()).isEqualTo("company");
    assertThat(form.at("/attributes/values").toString()).isEqualTo(values);
    assertThat(form.at("/attributes/actions/0/url").asText())
        .isEqualTo(http.submitUrl(id, "company"));
    assertThat(
            http.get("/v1/document_sets/" + id + "/forms")
                .json()
                .at("/data/0/attributes/values")
                .toString())
        .isEqualTo(values);
    assertThat(sandbox.documentSet(id).orElseThrow().values().get("company").toString())
        .isEqualTo(values);
    assertThat(http.get("/v1/document_sets/" + id).json().at("/data/attributes/state").asText())
        .isEqualTo("input_needed");
  }

  @Test
  void decimalsAreEchoedExactlyAsSubmitted() {
    Reply reply =
        http.put(
            http.submitUrl(id, "stock"), "{\"authorized_shares\":10000000,\"par_value\":0.00001}");

    assertThat(reply.json().at("/data/attributes/values").toString())
        .isEqualTo("{\"authorized_shares\":10000000,\"par_value\":0.00001}");
  }

  @Test
  void submittingInvalidValuesIsUnprocessableWithAPointerPerViolation() {
    String values =
        "{\"directors\":[{\"name\":\"\",\"email\":\"not-an-email\"}],"
            + "\"officers\":[{\"name\":\"Ada\",\"title\":\"Wizard\"}],\"nickname\":\"x\"}";

    Reply reply = http.put(http.submitUrl(id, "people"), values);

    assertThat(reply.status()).isEqualTo(422);
    assertThat(reply.contentType()).isEqualTo("application/vnd.api+json");
    List<JsonNode> errors = new ArrayList<>();
    reply.json().get("errors").forEach(errors::add);
    assertThat(errors)
        .extracting(e -> e.get("status").asText(), e -> e.at("/source/pointer").asText())
        .containsExactlyInAnyOrder(
            tuple("422", "/directors/0/name"),
            tuple("422", "/directors/0/email"),
            tuple("422", "/officers/0/email"),
            tuple("422", "/officers/0/title"),
            tuple("422", "/nickname"));
    assertThat(errors).allSatisfy(e -> assertThat(e.get("detail").asText()).isNotBlank());
    assertThat(errors)
        .filteredOn(e -> e.at("/source/pointer").asText().equals("/directors/0/email"))
        .singleElement()
        .satisfies(e -> assertThat(e.get("detail").asText()).contains("email"));
    SandboxDocumentSet set = sandbox.documentSet(id).orElseThrow();
    assertThat(set.values().get("people")).isEqualTo(Json.object());
    assertThat(set.formsNeedingValues()).contains("people");
  }

  @Test
  void missingRequiredFieldsPointAtTheFieldsThemselves() {
    Reply reply = http.put(http.submitUrl(id, "registered_agent"), "{\"address\":{}}");

    List<String> pointers = new ArrayList<>();
    reply.json().get("errors").forEach(e -> pointers.add(e.at("/source/pointer").asText()));
    assertThat(pointers)
        .containsExactlyInAnyOrder(
            "/name",
            "/email",
            "/service_start",
            "/address/street",
            "/address/city",
            "/address/state",
            "/address/zip");
  }

  @Test
  void malformedValuesAreABadRequest() {
    assertThat(http.put(http.submitUrl(id, "company"), "{\"name\":").status()).isEqualTo(400);
  }

  @Test
  void valuesThatAreNotAnObjectAreUnprocessableAtTheRoot() {
    Reply reply = http.put(http.submitUrl(id, "company"), "[]");

    assertThat(reply.status()).isEqualTo(422);
    assertThat(reply.json().at("/errors/0/source/pointer").asText()).isEmpty();
  }

  @Test
  void validValuesForEveryFormDriveTheStateThroughEveryStepToComplete() {
    submitAllExamples();

    List<String> states = new ArrayList<>();
    states.add(state());
    for (int step = 0; step < 6; step++) {
      clock.advance(STEP.minusMillis(1));
      assertThat(state()).isEqualTo(states.get(states.size() - 1));
      clock.advance(Duration.ofMillis(1));
      states.add(state());
    }

    assertThat(states.subList(0, states.size() - 1)).isEqualTo(SandboxOptions.DEFAULT_PROGRESSION);
    assertThat(states).last().isEqualTo("complete");
    assertThat(sandbox.documentSet(id).orElseThrow().isComplete()).isTrue();
  }

  @Test
  void stateStaysInputNeededUntilTheLastFormIsValid() {
    List<SandboxForm> forms = FORMS;
    for (SandboxForm form : forms.subList(0, forms.size() - 1)) {
      http.put(http.submitUrl(id, form.id()), form.example().toString());
      clock.advance(Duration.ofHours(1));
      assertThat(state()).isEqualTo("input_needed");
    }
    http.put(http.submitUrl(id, "registered_agent"), "{}");
    clock.advance(Duration.ofHours(1));

    assertThat(state()).isEqualTo("input_needed");
  }

  @Test
  void resubmittingAFormBeforeInputIsCompleteReplacesItsValues() {
    String url = http.submitUrl(id, "company");
    http.put(url, "{\"name\":\"Acme\",\"suffix\":\"Inc.\"}");

    http.put(url, "{\"name\":\"Acme Two\",\"suffix\":\"Corp.\"}");

    assertThat(sandbox.documentSet(id).orElseThrow().values().get("company").get("name").asText())
        .isEqualTo("Acme Two");
  }

  @Test
  void submittingAfterInputIsCompleteIsAConflict() {
    String url = http.submitUrl(id, "company");
    submitAllExamples();

    Reply reply = http.put(url, "{\"name\":\"Too Late\",\"suffix\":\"Inc.\"}");

    assertThat(reply.status()).isEqualTo(409);
    assertThat(reply.json().at("/errors/0/status").asText()).isEqualTo("409");
    assertThat(reply.json().at("/errors/0/detail").asText()).contains("signature_requests_needed");
    assertThat(sandbox.documentSet(id).orElseThrow().values().get("company").get("name").asText())
        .isEqualTo("Acme Robotics");
  }

  @Test
  void formsListNoActionsOnceInputIsComplete() {
    submitAllExamples();

    JsonNode forms = http.get("/v1/document_sets/" + id + "/forms").json().get("data");

    assertThat(forms).allSatisfy(form -> assertThat(form.at("/attributes/actions")).isEmpty());
    assertThat(forms.get(0).at("/attributes/values")).isEqualTo(FORMS.get(0).example());
  }

  @Test
  void zeroStepDelayCompletesAsSoonAsInputIs() {
    try (FormationSandbox instant =
        FormationSandbox.start(
            SandboxOptions.defaults()
                .withStepDelay(Duration.ZERO)
                .withProcessingLag(Duration.ZERO))) {
      SandboxHttp instantHttp = new SandboxHttp(instant);
      String set = instantHttp.createDocumentSet();
      for (SandboxForm form : FORMS) {
        instantHttp.put(instantHttp.submitUrl(set, form.id()), form.example().toString());
      }

      assertThat(instant.documentSet(set).orElseThrow().state()).isEqualTo("complete");
    }
  }

  private void submitAllExamples() {
    List<String> urls = new ArrayList<>();
    for (SandboxForm form : FORMS) {
      urls.add(http.submitUrl(id, form.id()));
    }
    for (int i = 0; i < urls.size(); i++) {
      Reply reply = http.put(urls.get(i), FORMS.get(i).example().toString());
      assertThat(reply.status()).as(reply.body()).isEqualTo(200);
    }
  }

  private String state() {
    return http.get("/v1/document_sets/" + id).json().at("/data/attributes/state").asText();
  }
}
