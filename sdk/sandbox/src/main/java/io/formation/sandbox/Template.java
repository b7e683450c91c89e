package io.formation.sandbox;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A template as read from the resources beside this class: its forms, and what a review reopens.
 * Loaded once; a broken resource is a bug of this artifact, so it fails loudly.
 */
record Template(String name, String title, List<SandboxForm> forms, Review review) {

  /** What a review does: which form it reopens and which fields (JSON Pointers) it clears. */
  record Review(String form, List<String> remove, String reason) {}

  static final Map<String, Template> ALL = loadAll();

  private static Map<String, Template> loadAll() {
    Map<String, Template> all = new LinkedHashMap<>();
    for (JsonNode name : read("templates.json")) {
      all.put(name.asText(), load(name.asText()));
    }
    return Collections.unmodifiableMap(all);
  }

  private static Template load(String name) {
    JsonNode template = read(name + "/template.json");
    List<SandboxForm> forms = new ArrayList<>();
    for (JsonNode id : template.get("forms")) {
      String prefix = name + "/" + id.asText();
      JsonNode schema = read(prefix + ".schema.json");
      forms.add(
          new SandboxForm(
              id.asText(),
              schema.get("title").asText(),
              schema,
              read(prefix + ".ui-schema.json"),
              read(prefix + ".example.json")));
    }
    JsonNode review = template.get("review");
    List<String> remove = new ArrayList<>();
    review.get("remove").forEach(pointer -> remove.add(pointer.asText()));
    return new Template(
        name,
        template.get("title").asText(),
        List.copyOf(forms),
        new Review(
            review.get("form").asText(), List.copyOf(remove), review.get("reason").asText()));
  }

  private static JsonNode read(String resource) {
    try (InputStream in = Template.class.getResourceAsStream(resource)) {
      if (in == null) {
        throw new IllegalStateException("missing resource " + resource);
      }
      return Json.MAPPER.readTree(in);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read resource " + resource, e);
    }
  }

  SandboxForm form(String id) {
    return forms.stream()
        .filter(form -> form.id().equals(id))
        .findFirst()
        .orElseThrow(() -> new IllegalStateException(name + " has no form " + id));
  }
}
