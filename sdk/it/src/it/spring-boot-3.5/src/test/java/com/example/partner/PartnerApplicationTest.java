package com.example.partner;

import static org.assertj.core.api.Assertions.assertThat;

import io.formation.sandbox.FormationSandbox;
import io.formation.sdk.DocumentSets;
import io.formation.sdk.FormationClient;
import io.formation.sdk.model.DocumentSet;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

@SpringBootTest
class PartnerApplicationTest {
  static final FormationSandbox sandbox = FormationSandbox.start();

  @DynamicPropertySource
  static void formation(DynamicPropertyRegistry registry) {
    registry.add("formation.base-url", sandbox::baseUrl);
    registry.add("formation.access-token", sandbox::token);
  }

  @AfterAll
  static void stopSandbox() {
    sandbox.close();
  }

  @Autowired FormationClient client;

  @Test
  void theApplicationsClientCallsTheService() {
    assertThat(client.teams().list().stream().limit(3)).hasSize(3);
    DocumentSet set = client.documentSets().create(DocumentSets.DELAWARE_CORPORATION);
    assertThat(client.forms().list(set.id())).isNotEmpty();
  }
}
