package com.example.partner;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.formation.sandbox.FormationSandbox;
import io.formation.spring.test.AutoConfigureFormationSandbox;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;

/** Turned on, the health contributor shows in Actuator's health and asks at most once a minute. */
@SpringBootTest(
    webEnvironment = WebEnvironment.RANDOM_PORT,
    properties = {
      "management.health.formation.enabled=true",
      "management.endpoint.health.show-components=always"
    })
@AutoConfigureFormationSandbox
class HealthContributorTest {
  @Autowired FormationSandbox sandbox;

  @Value("${local.server.port}")
  int port;

  @Test
  void theFormationComponentIsUpAndPollingItAgainAsksTheServiceNoMore() {
    String health = "http://127.0.0.1:" + port + "/actuator/health";
    JsonNode first = Http.get(health, null);
    long asked = sandbox.requests().size();
    for (int i = 0; i < 5; i++) {
      Http.get(health, null);
    }

    assertThat(first.path("components").path("formation").path("status").asText()).isEqualTo("UP");
    assertThat(asked).isEqualTo(1);
    assertThat(sandbox.requests()).hasSize(1);
  }
}
