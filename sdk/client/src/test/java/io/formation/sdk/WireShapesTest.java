package io.formation.sdk;

import static io.formation.sdk.Fixtures.fixture;
import static io.formation.sdk.Fixtures.json;
import static io.formation.sdk.Fixtures.tree;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.formation.sdk.model.ActionResult;
import io.formation.sdk.model.DocumentSet;
import io.formation.sdk.model.Form;
import io.formation.sdk.model.FormAction;
import io.formation.testkit.FakeTime;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.junit5.StartStop;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The interface leaves envelopes and several field names open: every spelling the SDK reads is
 * exercised here, in a plain object and in a JSON:API resource.
 */
class WireShapesTest {
  private static final String SCHEMA = "{\"type\":\"object\",\"title\":\"Company\"}";
  private static final String UI_SCHEMA = "{\"type\":\"VerticalLayout\",\"elements\":[]}";
  private static final String VALUES = "{\"name\":\"Acme\"}";
  private static final String APP = "https://app.formation.example/document_sets/ds_1";

  @StartStop final MockWebServer server = new MockWebServer();
  final FakeTime time = new FakeTime();

  static Stream<Arguments> schemaSpellings() {
    return spelled(List.of("schema", "json_schema", "jsonSchema"), SCHEMA, "form");
  }

  static Stream<Arguments> uiSchemaSpellings() {
    return spelled(List.of("uischema", "ui_schema", "uiSchema"), UI_SCHEMA, "form");
  }

  static Stream<Arguments> valuesSpellings() {
    return spelled(List.of("values", "current_values", "currentValues", "data"), VALUES, "form");
  }

  static Stream<Arguments> appLinkSpellings() {
    List<Arguments> cases = new ArrayList<>();
    spelled(List.of("app_url", "appUrl", "app_link", "appLink"), "\"" + APP + "\"", "set")
        .forEach(cases::add);
    String string = "\"" + APP + "\"";
    String href = "{\"href\":\"" + APP + "\"}";
    for (String link : List.of(string, href)) {
      String kind = link.startsWith("{") ? "{href}" : "string";
      cases.add(
          Arguments.of(
              "plain links.app " + kind,
              "{\"id\":\"ds_1\",\"state\":\"finalizing\",\"links\":{\"app\":" + link + "}}"));
      cases.add(
          Arguments.of(
              "JSON:API resource links.app " + kind,
              "{\"data\":{\"type\":\"document_sets\",\"id\":\"ds_1\","
                  + "\"attributes\":{\"state\":\"finalizing\"},\"links\":{\"app\":"
                  + link
                  + "}}}"));
    }
    cases.add(
        Arguments.of(
            "JSON:API document links.app",
            "{\"data\":{\"type\":\"document_sets\",\"id\":\"ds_1\","
                + "\"attributes\":{\"state\":\"finalizing\"}},\"links\":{\"app\":\""
                + APP
                + "\"}}"));
    return cases.stream();
  }

  /**
   * One case per spelling and placement: top level of a plain object, and in the attributes of a
   * JSON:API resource.
   */
  private static Stream<Arguments> spelled(List<String> names, String value, String what) {
    List<Arguments> cases = new ArrayList<>();
    for (String name : names) {
      String member = "\"" + name + "\":" + value;
      if (what.equals("form")) {
        cases.add(Arguments.of("plain " + name, "{\"id\":\"f1\"," + member + "}"));
        cases.add(
            Arguments.of(
                "JSON:API attributes." + name,
                "{\"type\":\"forms\",\"id\":\"f1\",\"attributes\":{" + member + "}}"));
      } else {
        cases.add(
            Arguments.of(
                "plain " + name, "{\"id\":\"ds_1\",\"state\":\"finalizing\"," + member + "}"));
        cases.add(
            Arguments.of(
                "JSON:API attributes." + name,
                "{\"data\":{\"type\":\"document_sets\",\"id\":\"ds_1\","
                    + "\"attributes\":{\"state\":\"finalizing\","
                    + member
                    + "}}}"));
      }
    }
    return cases.stream();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("schemaSpellings")
  void theSchemaIsReadUnderEverySpelling(String spelling, String form) {
    Form read = onlyForm(form);
    assertThat(read.schema()).isEqualTo(tree(SCHEMA));
    assertThat(read.uiSchema().isMissingNode()).isTrue();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("uiSchemaSpellings")
  void theUiSchemaIsReadUnderEverySpelling(String spelling, String form) {
    Form read = onlyForm(form);
    assertThat(read.uiSchema()).isEqualTo(tree(UI_SCHEMA));
    assertThat(read.schema().isMissingNode()).isTrue();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("valuesSpellings")
  void theValuesAreReadUnderEverySpelling(String spelling, String form) {
    assertThat(onlyForm(form).values()).isEqualTo(tree(VALUES));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("appLinkSpellings")
  void theAppLinkIsReadUnderEverySpelling(String spelling, String body) throws Exception {
    server.enqueue(json(body));
    DocumentSet set;
    try (FormationClient client = TestClients.client(server, time)) {
      set = client.documentSets().get("ds_1");
    }
    assertThat(set.id()).isEqualTo("ds_1");
    assertThat(set.appLink()).contains(URI.create(APP));
    assertThat(server.takeRequest().getTarget()).isEqualTo("/v1/document_sets/ds_1");
  }

  @Test
  void aDocumentSetWithoutAppLinkHasNone() {
    server.enqueue(json("{\"id\":\"ds_1\",\"state\":\"complete\"}"));
    try (FormationClient client = TestClients.client(server, time)) {
      assertThat(client.documentSets().get("ds_1").appLink()).isEmpty();
    }
  }

  @Test
  void aFormWithoutSchemaOrValuesHasAMissingSchemaAndEmptyValues() {
    Form form = onlyForm("{\"id\":\"f1\",\"values\":null}");
    assertThat(form.schema().isMissingNode()).isTrue();
    assertThat(form.uiSchema().isMissingNode()).isTrue();
    assertThat(form.values()).isEqualTo(tree("{}"));
    assertThat(form.actions()).isEmpty();
  }

  @Test
  void actionsAreReadFromTheResourceOrItsAttributesWithHrefAndIdAsFallbacks() {
    Form form =
        onlyForm(
            "{\"type\":\"forms\",\"id\":\"f1\",\"attributes\":{\"actions\":["
                + "{\"method\":\" post \",\"href\":\"/v1/opaque/a\",\"id\":\"submit\","
                + "\"title\":\"Send\"}]}}");
    FormAction action = form.actions().get(0);
    assertThat(action.method()).isEqualTo("POST");
    assertThat(action.url()).isEqualTo("/v1/opaque/a");
    assertThat(action.name()).contains("submit");
    assertThat(action.label()).contains("Send");
  }

  @Test
  void anActionWithoutAUrlIsAnInvalidResponse() {
    server.enqueue(json("[{\"id\":\"f1\",\"actions\":[{\"method\":\"PUT\"}]}]"));
    try (FormationClient client = TestClients.client(server, time)) {
      assertThatThrownBy(() -> client.forms().list("ds_1"))
          .isInstanceOf(InvalidResponseException.class)
          .hasMessageContaining("f1");
    }
  }

  @Test
  void aFormsResponseWithoutAListIsAnInvalidResponse() {
    server.enqueue(json("{\"data\":{\"id\":\"f1\"}}"));
    try (FormationClient client = TestClients.client(server, time)) {
      assertThatThrownBy(() -> client.forms().list("ds_1"))
          .isInstanceOf(InvalidResponseException.class);
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("actionResponses")
  void anActionResponseIsReadAsJsonApiOrPlainJson(
      String fixtureName, boolean isForm, boolean isDocumentSet) {
    ActionResult result = invokeWithResponse(fixture(fixtureName));

    assertThat(result.statusCode()).isEqualTo(200);
    assertThat(result.body()).isEqualTo(tree(Fixtures.read(fixtureName)));
    assertThat(result.form().isPresent()).isEqualTo(isForm);
    assertThat(result.documentSet().isPresent()).isEqualTo(isDocumentSet);
    result
        .form()
        .ifPresent(
            form -> {
              assertThat(form.id()).isEqualTo("company");
              assertThat(form.values()).isEqualTo(tree("{\"name\":\"Acme Robotics Inc.\"}"));
              assertThat(form.uiSchema()).isEqualTo(tree(UI_SCHEMA));
              assertThat(form.actions())
                  .extracting(FormAction::url)
                  .containsExactly("/v1/opaque/f_company?sig=next");
            });
    result
        .documentSet()
        .ifPresent(
            set -> {
              assertThat(set.id()).isEqualTo("ds_123");
              assertThat(set.state().value()).isEqualTo("signature_requests_needed");
              assertThat(set.appLink())
                  .contains(URI.create("https://app.formation.example/document_sets/ds_123"));
            });
  }

  static Stream<Arguments> actionResponses() {
    return Stream.of(
        Arguments.of("actions/form_jsonapi.json", true, false),
        Arguments.of("actions/form_plain.json", true, false),
        Arguments.of("actions/document_set_jsonapi.json", false, true),
        Arguments.of("actions/document_set_plain.json", false, true),
        Arguments.of("actions/receipt.json", false, false));
  }

  @Test
  void everyModelKeepsTheRawJsonWithUnknownFields() {
    server.enqueue(fixture("forms/list_jsonapi.json"));
    server.enqueue(fixture("document_sets/created_jsonapi.json"));
    List<Form> forms;
    DocumentSet set;
    try (FormationClient client = TestClients.client(server, time)) {
      forms = client.forms().list("ds_123");
      set = client.documentSets().get("ds_123");
    }

    assertThat(forms.get(0).raw().path("attributes").path("section").asText()).isEqualTo("Company");
    assertThat(forms.get(1).raw().path("attributes").path("section").asText()).isEqualTo("People");
    assertThat(forms.get(0).actions().get(0).raw().path("label").asText())
        .isEqualTo("Save company");
    assertThat(set.raw().path("links").path("self").asText()).isEqualTo("/v1/document_sets/ds_123");
  }

  @Test
  void numbersAreSentBackExactlyAsTheServiceWroteThem() throws Exception {
    server.enqueue(
        json(
            "[{\"id\":\"terms\",\"values\":{\"ratio\":0.0000001,\"price\":1.50,"
                + "\"shares\":123456789012345678901234567890},"
                + "\"actions\":[{\"method\":\"PUT\",\"url\":\"/v1/actions/a1\"}]}]"));
    server.enqueue(json("{}"));
    try (FormationClient client = TestClients.client(server, time)) {
      Form form = client.forms().list("ds_123").get(0);
      client.forms().submit(form, form.values());
    }
    server.takeRequest();
    assertThat(server.takeRequest().getBody().utf8())
        .isEqualTo(
            "{\"ratio\":0.0000001,\"price\":1.50,\"shares\":123456789012345678901234567890}");
  }

  @Test
  void accessorsReturnCopiesSoMutatingThemDoesNotChangeTheRecord() {
    server.enqueue(fixture("forms/list_jsonapi.json"));
    server.enqueue(fixture("document_sets/created_jsonapi.json"));
    server.enqueue(fixture("actions/form_plain.json"));
    server.enqueue(json(422, Fixtures.read("errors/validation.json")));
    Form form;
    DocumentSet set;
    ActionResult result;
    ValidationException invalid;
    try (FormationClient client = TestClients.client(server, time)) {
      form = client.forms().list("ds_123").get(0);
      set = client.documentSets().get("ds_123");
      result = client.forms().invoke(form.actions().get(0), tree("{}"));
      invalid =
          (ValidationException)
              catchThrowable(() -> client.forms().invoke(form.actions().get(0), tree("{}")));
    }
    JsonNode schema = form.schema();
    JsonNode uiSchema = form.uiSchema();
    JsonNode values = form.values();
    JsonNode raw = form.raw();
    JsonNode actionRaw = form.actions().get(0).raw();
    JsonNode setRaw = set.raw();
    JsonNode resultBody = result.body();
    JsonNode errorRaw = invalid.errors().get(0).raw();

    ((ObjectNode) schema).put("type", "array");
    ((ArrayNode) uiSchema.path("elements")).removeAll();
    ((ObjectNode) values).put("name", "Mallory");
    ((ObjectNode) raw).removeAll();
    ((ObjectNode) actionRaw).put("url", "https://evil.example/");
    ((ObjectNode) setRaw.path("attributes")).put("state", "complete");
    ((ObjectNode) resultBody).removeAll();
    ((ObjectNode) errorRaw).removeAll();

    assertThat(form.schema()).isNotEqualTo(schema);
    assertThat(form.schema().path("type").asText()).isEqualTo("object");
    assertThat(form.uiSchema().path("elements")).hasSize(1);
    assertThat(form.values().path("name").asText()).isEqualTo("Acme Robotics");
    assertThat(form.raw().path("id").asText()).isEqualTo("company");
    assertThat(form.actions().get(0).raw().path("url").asText())
        .isEqualTo("/v1/opaque/f_company?sig=a%2Fb%3D&x=1");
    assertThat(set.raw().path("attributes").path("state").asText()).isEqualTo("input_needed");
    assertThat(result.body().path("id").asText()).isEqualTo("company");
    assertThat(invalid.errors().get(0).raw().path("code").asText()).isEqualTo("required");
  }

  @Test
  void theFormsActionListCannotBeChanged() {
    Form form = onlyForm("{\"id\":\"f1\",\"actions\":[{\"method\":\"PUT\",\"url\":\"/a\"}]}");
    assertThatThrownBy(() -> form.actions().clear())
        .isInstanceOf(UnsupportedOperationException.class);
  }

  private Form onlyForm(String form) {
    server.enqueue(json("[" + form + "]"));
    try (FormationClient client = TestClients.client(server, time)) {
      List<Form> forms = client.forms().list("ds_1");
      assertThat(forms).hasSize(1);
      return forms.get(0);
    }
  }

  private ActionResult invokeWithResponse(MockResponse response) {
    server.enqueue(json("[{\"id\":\"f1\",\"actions\":[{\"method\":\"PUT\",\"url\":\"/a\"}]}]"));
    server.enqueue(response);
    try (FormationClient client = TestClients.client(server, time)) {
      Form form = client.forms().list("ds_1").get(0);
      return client.forms().submit(form, tree("{}"));
    }
  }
}
