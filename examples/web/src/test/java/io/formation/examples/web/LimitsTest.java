package io.formation.examples.web;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.formation.examples.web.PageClient.Received;
import io.formation.sandbox.FormationSandbox;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Import;

/**
 * What one person can ask of the backend, and through it of the service, is bounded: listing their
 * formations reads the database only. Tracking is off, so every request the sandbox receives is one
 * a person's call made.
 */
@SpringBootTest(
    webEnvironment = WebEnvironment.RANDOM_PORT,
    properties = "formation.tracking.enabled=false")
@Import(SandboxForTests.class)
@Timeout(value = 2, unit = TimeUnit.MINUTES) // a guard against a hang, not a measure of speed
class LimitsTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @LocalServerPort int port;
  @Autowired FormationSandbox sandbox;
  @Autowired PersonFormations formations;

  @Test
  void listingAPersonsFormationsAsksTheServiceNothingAndShowsTheLastStateSeen() {
    PageClient page = new PageClient(port);
    List<String> ids = new ArrayList<>();
    for (int i = 1; i <= 3; i++) {
      Received started =
          page.postJson("/api/formations", "{\"startKey\": \"list-start-" + i + "\"}");
      assertThat(started.status()).isEqualTo(201);
      ids.add(json(started).path("id").asText());
    }
    // As tracking or a page's stream writes what it saw.
    formations.seen(ids.get(0), "awaiting_payment");
    int before = sandbox.requests().size();

    JsonNode listed = json(page.get("/api/formations"));

    assertThat(sandbox.requests()).hasSize(before);
    assertThat(listed).hasSize(3);
    assertThat(listed.findValuesAsText("id")).containsExactly(ids.get(2), ids.get(1), ids.get(0));
    assertThat(listed.get(2).path("state").asText()).isEqualTo("awaiting_payment");
    assertThat(listed.get(2).path("known").asBoolean()).isTrue();
    assertThat(listed.get(0).path("state").asText()).isEqualTo("input_needed");
    assertThat(listed.get(0).path("appLink").asText())
        .isEqualTo(sandbox.baseUrl() + "/app/document_sets/" + ids.get(2));
  }

  private static JsonNode json(Received received) {
    try {
      return JSON.readTree(received.body());
    } catch (IOException e) {
      throw new IllegalStateException("not JSON: " + received.body(), e);
    }
  }
}
