package io.formation.sandbox;

import static io.formation.sandbox.Delaware.FORMS;
import static io.formation.sandbox.Delaware.form;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The templates' forms, read from JSON resources: schemas, UI schemas and examples that fit. */
final class TemplatesTest {

  @Test
  void formsComeInTheOrderAPersonFillsThemIn() {
    assertThat(FORMS)
        .extracting(SandboxForm::id)
        .containsExactly("company", "purpose", "stock", "people", "registered_agent");
  }

  @Test
  void everyExampleSatisfiesItsSchema() {
    for (SandboxForm form : FORMS) {
      assertThat(FormValidator.validate(form.jsonSchema(), form.example())).as(form.id()).isEmpty();
    }
  }

  @Test
  void emptyValuesAreInvalidForEveryForm() {
    for (SandboxForm form : FORMS) {
      assertThat(FormValidator.validate(form.jsonSchema(), Json.object()))
          .as(form.id())
          .isNotEmpty();
    }
  }

  @Test
  void everyPropertyHasATitleAndADescription() {
    for (SandboxForm form : FORMS) {
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
    for (SandboxForm form : FORMS) {
      List<String> unresolved = new ArrayList<>();
      checkScopes(form.uiSchema(), form.jsonSchema(), unresolved);
      assertThat(unresolved).as(form.id()).isEmpty();
    }
  }

  @Test
  void companyNameSuffixesAreTheOnesDelawareAccepts() {
    JsonNode schema = form("company").orElseThrow().jsonSchema();

    assertThat(schema.at("/properties/suffix/enum").toString())
        .isEqualTo("[\"Inc.\",\"Corporation\",\"Incorporated\",\"Corp.\"]");
    assertThat(schema.at("/properties/website/format").asText()).isEqualTo("uri");
    assertThat(schema.at("/properties/name/maxLength").asInt()).isEqualTo(120);
  }

  @Test
  void stockDefaultsAreTheUsualStartupNumbers() {
    JsonNode schema = form("stock").orElseThrow().jsonSchema();

    assertThat(schema.at("/properties/authorized_shares/default").asLong()).isEqualTo(10_000_000L);
    assertThat(schema.at("/properties/par_value/default").toString()).isEqualTo("0.00001");
  }

  @Test
  void registeredAgentMustBeInDelaware() {
    JsonNode schema = form("registered_agent").orElseThrow().jsonSchema();
    ObjectNode values = (ObjectNode) form("registered_agent").orElseThrow().example();
    ((ObjectNode) values.get("address")).put("state", "NY").put("zip", "1001");

    assertThat(FormValidator.validate(schema, values))
        .extracting(Violation::pointer)
        .containsExactly("/address/state", "/address/zip");
  }

  @Test
  void changingAReturnedSchemaDoesNotChangeTheForm() {
    SandboxForm company = form("company").orElseThrow();
    ((ObjectNode) company.jsonSchema()).removeAll();

    assertThat(company.jsonSchema().get("properties")).isNotNull();
  }

  @Test
  void theSandboxKnowsTheDelawareTemplate() {
    assertThat(SandboxTemplates.names()).containsExactly("startup_delaware-corporation");
    assertThat(SandboxTemplates.DELAWARE_CORPORATION).isEqualTo("startup_delaware-corporation");
  }

  @Test
  void unknownTemplateIsRejectedWithTheKnownOnes() {
    assertThatThrownBy(() -> SandboxTemplates.forms("startup_wyoming-llc"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("startup_delaware-corporation");
  }

  @Test
  void everySchemaDeclaresDraft2020() {
    for (SandboxForm form : FORMS) {
      assertThat(form.jsonSchema().get("$schema").asText())
          .as(form.id())
          .isEqualTo("https://json-schema.org/draft/2020-12/schema");
    }
  }

  @Test
  void reviewOfTheDelawareTemplateLeavesThePeopleFormInvalid() {
    Template template = Template.ALL.get(SandboxTemplates.DELAWARE_CORPORATION);
    SandboxForm people = template.form(template.review().form());
    JsonNode values = people.example();
    for (String pointer : template.review().remove()) {
      ((ObjectNode) values.at(pointer.substring(0, pointer.lastIndexOf('/'))))
          .remove(pointer.substring(pointer.lastIndexOf('/') + 1));
    }

    assertThat(FormValidator.validate(people.jsonSchema(), values))
        .extracting(Violation::pointer)
        .containsExactlyElementsOf(template.review().remove());
  }

  @Test
  void unknownFormIdIsEmpty() {
    assertThat(form("bylaws")).isEmpty();
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
