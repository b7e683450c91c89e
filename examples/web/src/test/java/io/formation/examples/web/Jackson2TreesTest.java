package io.formation.examples.web;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

/** The SDK's Jackson 2 trees go through Spring's Jackson 3 unchanged, both ways. */
class Jackson2TreesTest {
  private static final ObjectMapper JACKSON2 = new ObjectMapper();
  private static final JsonMapper JACKSON3 =
      JsonMapper.builder().addModule(new Jackson2Trees()).build();

  private final String json = resource("awkward-form.json");
  private final JsonNode tree = readWithJackson2(json);

  @Test
  void aTreeIsWrittenAsTheSameJsonJackson2Writes() throws IOException {
    assertThat(JACKSON3.writeValueAsString(tree)).isEqualTo(JACKSON2.writeValueAsString(tree));
  }

  @Test
  void aRecordHoldingTreesIsWrittenWithEachTreeUnchanged() {
    FormView view = new FormView("company", tree, tree.get("properties"), tree.get("required"));

    JsonNode written = readWithJackson2(JACKSON3.writeValueAsString(view));

    assertThat(written.get("id").asText()).isEqualTo("company");
    assertThat(written.get("schema")).isEqualTo(tree);
    assertThat(written.get("uischema")).isEqualTo(tree.get("properties"));
    assertThat(written.get("data")).isEqualTo(tree.get("required"));
  }

  @Test
  void aMissingTreeIsWrittenAsNull() {
    FormView view =
        new FormView("company", tree.path("no such field"), tree.path("none"), tree.path("x"));

    assertThat(JACKSON3.writeValueAsString(view))
        .isEqualTo("{\"id\":\"company\",\"schema\":null,\"uischema\":null,\"data\":null}");
  }

  @Test
  void aBodyIsReadIntoTheTreeJackson2Reads() {
    assertThat(JACKSON3.readValue(json, JsonNode.class)).isEqualTo(tree);
  }

  @Test
  void withoutTheModuleJackson3WritesTheTreesGettersInstead() {
    JsonMapper plain = JsonMapper.builder().build();

    String written = plain.writeValueAsString(tree);

    // Jackson 3 takes the tree for a bean and writes its getters.
    assertThat(written).contains("\"nodeType\":\"OBJECT\"");
  }

  private static JsonNode readWithJackson2(String text) {
    try {
      return JACKSON2.readTree(text);
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  private static String resource(String name) {
    try (InputStream in = Jackson2TreesTest.class.getResourceAsStream(name)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }
}
