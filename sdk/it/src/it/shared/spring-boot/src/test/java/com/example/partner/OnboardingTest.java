package com.example.partner;

import static org.assertj.core.api.Assertions.assertThat;

import io.formation.sandbox.FormationSandbox;
import io.formation.sdk.DocumentSets;
import io.formation.sdk.model.DocumentSet;
import io.formation.spring.test.AutoConfigureFormationSandbox;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;

// docs/spring-boot.md shows this class as it stands.
@SpringBootTest
@AutoConfigureFormationSandbox
class OnboardingTest {
  @Autowired DocumentSets documentSets;
  @Autowired FormationSandbox sandbox;

  @Test
  void startsAFormation() {
    DocumentSet set = documentSets.create(DocumentSets.DELAWARE_CORPORATION);
    assertThat(sandbox.documentSet(set.id())).isPresent();
  }
}
