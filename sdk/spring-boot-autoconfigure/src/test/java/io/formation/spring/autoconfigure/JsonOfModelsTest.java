package io.formation.spring.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.formation.sdk.FormationClient;
import io.formation.sdk.model.DocumentSet;
import io.formation.sdk.model.Form;
import io.formation.sdk.model.Page;
import io.formation.sdk.model.Team;
import java.io.IOException;
import java.util.List;
import java.util.function.Function;
import mockwebserver3.MockWebServer;
import mockwebserver3.junit5.StartStop;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.jackson.autoconfigure.JacksonAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import tools.jackson.databind.json.JsonMapper;

/**
 * The SDK's models, read by the SDK from what the service sent, written by Spring Boot's own JSON
 * mapper: Boot 4's Jackson 3 mapper here (the one its HTTP message converters use), and the Jackson
 * 2 module Boot 3.5 gets. The consumer projects run the same through a controller on both.
 */
class JsonOfModelsTest {
  static final ObjectMapper JACKSON2 = new ObjectMapper();

  @StartStop final MockWebServer server = new MockWebServer();

  final ApplicationContextRunner boot4 =
      new ApplicationContextRunner()
          .withConfiguration(
              AutoConfigurations.of(
                  JacksonAutoConfiguration.class, FormationJacksonAutoConfiguration.class));

  FormationClient client;
  List<Form> forms;
  DocumentSet set;
  Page<Team> teams;

  @BeforeEach
  void readWhatTheServiceSent() {
    server.enqueue(Fixtures.ok("forms.json"));
    server.enqueue(Fixtures.ok("document_set.json"));
    server.enqueue(Fixtures.ok("teams.json"));
    try (FormationClient sdk =
        FormationClient.builder().baseUrl(server.url("/").toString()).accessToken("t").build()) {
      forms = sdk.forms().list("ds_123");
      set = sdk.documentSets().get("ds_123");
      teams = sdk.teams().list().pages().iterator().next();
    }
  }

  @Test
  void onBoot4AFormIsWrittenAsTheServiceSentIt() {
    boot4.run(
        context -> {
          JsonMapper mapper = context.getBean(JsonMapper.class);
          assertThat(tree(mapper.writeValueAsString(forms.get(1))))
              .isEqualTo(sent("forms.json").path("data").get(1));
        });
  }

  @Test
  void onBoot4ADocumentSetIsWrittenAsTheServiceSentIt() {
    boot4.run(
        context -> {
          String written = context.getBean(JsonMapper.class).writeValueAsString(set);
          assertThat(tree(written)).isEqualTo(sent("document_set.json").path("data"));
          // 12.50 stays 12.50: numbers keep the form the service gave them.
          assertThat(written).contains("\"fee\":12.5");
        });
  }

  @Test
  void onBoot4APageOfTeamsIsWrittenAsTheCollectionTheServiceSent() {
    boot4.run(
        context -> {
          JsonNode written = tree(context.getBean(JsonMapper.class).writeValueAsString(teams));
          // As served: links.prev null and the top-level meta included.
          assertThat(written).isEqualTo(sent("teams.json"));
        });
  }

  @Test
  void onBoot4AJackson2TreeInARecordIsWrittenAsJsonAndReadBack() {
    record View(String id, JsonNode schema) {}
    JsonNode schema = forms.get(0).schema();
    boot4.run(
        context -> {
          JsonMapper mapper = context.getBean(JsonMapper.class);
          JsonNode written = tree(mapper.writeValueAsString(new View("company", schema)));
          assertThat(written.path("schema")).isEqualTo(schema);
          assertThat(mapper.readValue(schema.toString(), JsonNode.class)).isEqualTo(schema);
        });
  }

  @Test
  void onBoot4AnAwkwardTreeIsWrittenExactlyAsJackson2WritesIt() throws IOException {
    // Big and small numbers, escapes, astral characters, empty and nested containers, a null.
    JsonNode awkward = sent("awkward-tree.json");
    JsonMapper mapper = JsonMapper.builder().addModule(new Jackson3Trees()).build();

    assertThat(mapper.writeValueAsString(awkward)).isEqualTo(JACKSON2.writeValueAsString(awkward));
    assertThat(mapper.readValue(JACKSON2.writeValueAsString(awkward), JsonNode.class))
        .isEqualTo(awkward);
  }

  @Test
  void onBoot4AMissingTreeIsWrittenAsNull() {
    record View(String id, JsonNode values) {}
    JsonMapper mapper = JsonMapper.builder().addModule(new Jackson3Trees()).build();

    assertThat(mapper.writeValueAsString(new View("x", JACKSON2.missingNode())))
        .isEqualTo("{\"id\":\"x\",\"values\":null}");
  }

  @Test
  void withoutTheStarterBoot4WritesTheTreesGettersInstead() {
    new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(JacksonAutoConfiguration.class))
        .run(
            context ->
                assertThat(context.getBean(JsonMapper.class).writeValueAsString(forms.get(0)))
                    .contains("\"nodeType\""));
  }

  @Test
  void onBoot35TheJackson2ModuleWritesTheModelsAsTheServiceSentThem() throws IOException {
    ObjectMapper boot35 = new ObjectMapper().registerModule(new Jackson2Models());
    Function<Object, JsonNode> write =
        value -> {
          try {
            return tree(boot35.writeValueAsString(value));
          } catch (IOException e) {
            throw new IllegalStateException(e);
          }
        };

    assertThat(write.apply(forms.get(0))).isEqualTo(sent("forms.json").path("data").get(0));
    assertThat(write.apply(set)).isEqualTo(sent("document_set.json").path("data"));
    assertThat(write.apply(teams)).isEqualTo(sent("teams.json"));
    assertThat(write.apply(set.state()).asText()).isEqualTo("input_needed");
  }

  private static JsonNode sent(String fixture) {
    return tree(Fixtures.json(fixture));
  }

  private static JsonNode tree(String json) {
    try {
      return JACKSON2.readTree(json);
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }
}
