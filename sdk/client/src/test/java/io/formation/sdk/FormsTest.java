package io.formation.sdk;

import static io.formation.sdk.Fixtures.fixture;
import static io.formation.sdk.Fixtures.json;
import static io.formation.sdk.Fixtures.tree;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.formation.sdk.model.Form;
import io.formation.sdk.model.FormAction;
import io.formation.testkit.FakeTime;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;
import mockwebserver3.junit5.StartStop;
import okhttp3.MediaType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class FormsTest {
  @StartStop final MockWebServer server = new MockWebServer();
  final FakeTime time = new FakeTime();

  /** A caller's own type for a form's values. */
  record Company(String name, long shares) {}

  static Stream<Arguments> everyEnvelopeInEveryMode() {
    return Mode.inEveryMode(
        "forms/list_jsonapi.json",
        "forms/list_plain_data.json",
        "forms/list_bare_array.json",
        "forms/list_under_forms.json",
        "forms/list_under_items.json");
  }

  @ParameterizedTest
  @MethodSource("everyEnvelopeInEveryMode")
  void listReadsTheFormsFromEveryEnvelope(String fixtureName, Mode mode) throws Exception {
    server.enqueue(fixture(fixtureName));
    List<Form> forms;
    try (FormationClient client = TestClients.client(server, time)) {
      forms = mode.list(client, "ds_123");
    }

    RecordedRequest request = server.takeRequest();
    assertThat(request.getMethod()).isEqualTo("GET");
    assertThat(request.getTarget()).isEqualTo("/v1/document_sets/ds_123/forms");
    assertThat(request.getHeaders().get("Authorization")).isEqualTo("Bearer " + TestClients.TOKEN);

    assertThat(forms).extracting(Form::id).containsExactly("company", "founders");
    Form company = forms.get(0);
    assertThat(company.schema())
        .isEqualTo(
            tree(
                "{\"type\":\"object\",\"required\":[\"name\"],\"properties\":{\"name\":"
                    + "{\"type\":\"string\"},\"shares\":{\"type\":\"integer\"}}}"));
    assertThat(company.uiSchema().path("type").asText()).isEqualTo("VerticalLayout");
    assertThat(company.uiSchema().path("elements").get(0).path("scope").asText())
        .isEqualTo("#/properties/name");
    assertThat(company.values())
        .isEqualTo(tree("{\"name\":\"Acme Robotics\",\"shares\":10000000}"));
    assertThat(company.actions())
        .containsExactly(
            new FormAction(
                "PUT",
                "/v1/opaque/f_company?sig=a%2Fb%3D&x=1",
                Optional.of("submit"),
                Optional.of("Save company"),
                company.actions().get(0).raw()));

    Form founders = forms.get(1);
    assertThat(founders.schema().path("properties").has("founders")).isTrue();
    assertThat(founders.uiSchema())
        .isEqualTo(tree("{\"type\":\"VerticalLayout\",\"elements\":[]}"));
    assertThat(founders.values()).isEqualTo(tree("{\"founders\":[]}"));
    assertThat(founders.actions()).hasSize(2);
    FormAction draft = founders.actions().get(0);
    assertThat(draft.method()).isEqualTo("POST");
    assertThat(draft.url()).isEqualTo("https://partner-actions.example/drafts/f_founders");
    assertThat(draft.name()).contains("save_draft");
    assertThat(draft.label()).contains("Save draft");
    FormAction unnamed = founders.actions().get(1);
    assertThat(unnamed.method()).isEqualTo("PATCH");
    assertThat(unnamed.url()).isEqualTo("/v1/opaque/f_founders");
    assertThat(unnamed.name()).isEmpty();
    assertThat(unnamed.label()).isEmpty();
    assertThat(founders.action("SAVE_DRAFT")).contains(draft);
  }

  @Test
  void documentSetsFormsIsTheSameAsFormsList() throws Exception {
    server.enqueue(fixture("forms/list_jsonapi.json"));
    try (FormationClient client = TestClients.client(server, time)) {
      assertThat(client.documentSets().forms("ds_123"))
          .extracting(Form::id)
          .containsExactly("company", "founders");
    }
    assertThat(server.takeRequest().getTarget()).isEqualTo("/v1/document_sets/ds_123/forms");
  }

  @Test
  void anEmptyListIsNoForms() {
    server.enqueue(json("{\"data\":[]}"));
    try (FormationClient client = TestClients.client(server, time)) {
      assertThat(client.forms().list("ds_123")).isEmpty();
    }
  }

  @Test
  void valuesAsBindsTheValuesToACallersRecord() {
    server.enqueue(fixture("forms/list_jsonapi.json"));
    try (FormationClient client = TestClients.client(server, time)) {
      Form company = client.forms().list("ds_123").get(0);
      assertThat(client.forms().valuesAs(company, Company.class))
          .isEqualTo(new Company("Acme Robotics", 10_000_000L));
      @SuppressWarnings("unchecked")
      Map<String, Object> asMap = client.forms().valuesAs(company, Map.class);
      assertThat(asMap).containsEntry("name", "Acme Robotics");
    }
  }

  @Test
  void valuesAsRefusesValuesThatDoNotFitTheType() {
    server.enqueue(
        json("[{\"id\":\"company\",\"values\":{\"name\":\"Acme\",\"shares\":\"many\"}}]"));
    try (FormationClient client = TestClients.client(server, time)) {
      Form company = client.forms().list("ds_123").get(0);
      assertThatThrownBy(() -> client.forms().valuesAs(company, Company.class))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("company");
    }
  }

  static Stream<Arguments> valueTypes() {
    Map<String, Object> map = new LinkedHashMap<>();
    map.put("name", "Acme Robotics");
    map.put("shares", 5_000_000L);
    return Stream.of(
        Arguments.of("record", new Company("Acme Robotics", 5_000_000L)),
        Arguments.of("map", map),
        Arguments.of("JsonNode", tree("{\"name\":\"Acme Robotics\",\"shares\":5000000}")));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("valueTypes")
  void invokeSendsARecordAMapOrAJsonNodeAsTheJsonBody(String kind, Object values) throws Exception {
    server.enqueue(fixture("forms/list_jsonapi.json"));
    server.enqueue(fixture("actions/form_plain.json"));
    try (FormationClient client = TestClients.client(server, time)) {
      Form company = client.forms().list("ds_123").get(0);
      client.forms().invoke(company.actions().get(0), values);
    }

    server.takeRequest();
    RecordedRequest action = server.takeRequest();
    assertThat(Fixtures.body(action))
        .isEqualTo(tree("{\"name\":\"Acme Robotics\",\"shares\":5000000}"));
    MediaType contentType = MediaType.get(action.getHeaders().get("Content-Type"));
    assertThat(contentType.type() + "/" + contentType.subtype()).isEqualTo("application/json");
  }

  @Test
  void editedValuesFromTheFormCanBeSubmittedBack() throws Exception {
    server.enqueue(fixture("forms/list_jsonapi.json"));
    server.enqueue(fixture("actions/form_plain.json"));
    try (FormationClient client = TestClients.client(server, time)) {
      Form company = client.forms().list("ds_123").get(0);
      JsonNode values = company.values();
      ((ObjectNode) values).put("name", "Acme Robotics Inc.");
      client.forms().submit(company, values);
      assertThat(company.values().path("name").asText()).isEqualTo("Acme Robotics");
    }

    server.takeRequest();
    assertThat(Fixtures.body(server.takeRequest()))
        .isEqualTo(tree("{\"name\":\"Acme Robotics Inc.\",\"shares\":10000000}"));
  }

  @Test
  void valuesThatCannotBeWrittenAsJsonAreRefusedBeforeAnythingIsSent() {
    server.enqueue(fixture("forms/list_jsonapi.json"));
    try (FormationClient client = TestClients.client(server, time)) {
      Form company = client.forms().list("ds_123").get(0);
      assertThatThrownBy(() -> client.forms().invoke(company.actions().get(0), new Object()))
          .isInstanceOf(IllegalArgumentException.class);
    }
    assertThat(server.getRequestCount()).isEqualTo(1);
  }
}
