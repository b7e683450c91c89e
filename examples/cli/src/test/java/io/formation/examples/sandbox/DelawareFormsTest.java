package io.formation.examples.sandbox;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The Delaware C-Corporation forms: schemas, UI schemas and examples that fit together. */
final class DelawareFormsTest {

  @Test
  void formsComeInTheOrderAPersonFillsThemIn() {
    assertThat(DelawareForms.all())
        .extracting(SandboxForm::id)
        .containsExactly("company", "purpose", "stock", "people", "registered_agent");
  }

  @Test
  void everyExampleSatisfiesItsSchema() {
    for (SandboxForm form : DelawareForms.all()) {
      assertThat(SchemaValidator.validate(form.jsonSchema(), form.example()))
          .as(form.id())
          .isEmpty();
    }
  }

  @Test
  void emptyValuesAreInvalidForEveryForm() {
    for (SandboxForm form : DelawareForms.all()) {
      assertThat(SchemaValidator.validate(form.jsonSchema(), Json.object()))
          .as(form.id())
          .isNotEmpty();
    }
  }

  @Test
  void everyPropertyHasATitleAndADescription() {
    for (SandboxForm form : DelawareForms.all()) {
      assertThat(form.jsonSchema().get("title").asText()).isEqualTo(form.title());
      for (String pointer : propertyPointers(form.jsonSchema(), "")) {
        JsonNode property = form.jsonSchema().at(pointer);
        assertThat(property.path("title").asText()).as(form.id() + pointer).isNotBlank();
        assertThat(property.path("description").asText()).as(form.id() + pointer).isNotBlank();
      }
    }
  }

  @Test
  void everyUiControlScopesAPropertyOfItsSchema() {
    for (SandboxForm form : DelawareForms.all()) {
      List<String> unresolved = new ArrayList<>();
      checkScopes(form.uiSchema(), form.jsonSchema(), unresolved);
      assertThat(unresolved).as(form.id()).isEmpty();
    }
  }

  @Test
  void companyNameSuffixesAreTheOnesDelawareAccepts() {
    JsonNode schema = DelawareForms.byId("company").orElseThrow().jsonSchema();

    assertThat(schema.at("/properties/suffix/enum").toString())
        .isEqualTo("[\"Inc.\",\"Corporation\",\"Incorporated\",\"Corp.\"]");
    assertThat(schema.at("/properties/website/format").asText()).isEqualTo("uri");
    assertThat(schema.at("/properties/name/maxLength").asInt()).isEqualTo(120);
  }

  @Test
  void stockDefaultsAreTheUsualStartupNumbers() {
    JsonNode schema = DelawareForms.byId("stock").orElseThrow().jsonSchema();

    assertThat(schema.at("/properties/authorized_shares/default").asLong()).isEqualTo(10_000_000L);
    assertThat(schema.at("/properties/par_value/default").toString()).isEqualTo("0.00001");
  }

  @Test
  void registeredAgentMustBeInDelaware() {
    JsonNode schema = DelawareForms.byId("registered_agent").orElseThrow().jsonSchema();
    ObjectNode values = (ObjectNode) DelawareForms.byId("registered_agent").orElseThrow().example();
    ((ObjectNode) values.get("address")).put("state", "NY").put("zip", "1001");

    assertThat(SchemaValidator.validate(schema, values))
        .extracting(SchemaValidator.Violation::pointer)
        .containsExactly("/address/state", "/address/zip");
  }

  @Test
  void changingAReturnedSchemaDoesNotChangeTheForm() {
    SandboxForm company = DelawareForms.byId("company").orElseThrow();
    ((ObjectNode) company.jsonSchema()).removeAll();

    assertThat(company.jsonSchema().get("properties")).isNotNull();
  }

  @Test
  void unknownFormIdIsEmpty() {
    assertThat(DelawareForms.byId("bylaws")).isEmpty();
  }

  private static List<String> propertyPointers(JsonNode schema, String pointer) {
    List<String> pointers = new ArrayList<>();
    JsonNode properties = schema.get("properties");
    if (properties != null) {
      for (Map.Entry<String, JsonNode> property : properties.properties()) {
        String child = pointer + "/properties/" + property.getKey();
        pointers.add(child);
        pointers.addAll(propertyPointers(property.getValue(), child));
      }
    }
    JsonNode items = schema.get("items");
    if (items != null) {
      pointers.addAll(propertyPointers(items, pointer + "/items"));
    }
    return pointers;
  }

  private static void checkScopes(JsonNode element, JsonNode schema, List<String> unresolved) {
    if (element.has("scope")) {
      String scope = element.get("scope").asText();
      JsonNode target = schema.at(scope.substring(1));
      if (!scope.startsWith("#/properties/") || target.isMissingNode()) {
        unresolved.add(scope);
      }
      JsonNode detail = element.at("/options/detail");
      if (!detail.isMissingNode()) {
        checkScopes(detail, target.get("items"), unresolved);
      }
    }
    JsonNode elements = element.get("elements");
    if (elements != null) {
      assertThat(element.get("type").asText()).isIn("VerticalLayout", "HorizontalLayout", "Group");
      elements.forEach(child -> checkScopes(child, schema, unresolved));
    } else {
      assertThat(element.get("type").asText()).isEqualTo("Control");
    }
  }
}
