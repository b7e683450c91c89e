package io.formation.spring.test;

import static org.assertj.core.api.Assertions.assertThat;

import io.formation.sandbox.FormationSandbox;
import io.formation.sdk.DocumentSets;
import io.formation.sdk.model.DocumentSet;
import io.formation.spring.autoconfigure.FormationAutoConfiguration;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.core.env.Environment;

/**
 * The application's configuration names the real service (formation-annotation-test.properties);
 * the annotation points its client at a sandbox instead.
 */
@SpringBootTest(properties = "spring.config.name=formation-annotation-test")
@AutoConfigureFormationSandbox
class AutoConfigureFormationSandboxTest {
  @SpringBootConfiguration
  @ImportAutoConfiguration(FormationAutoConfiguration.class)
  static class PartnerApplication {}

  @Autowired DocumentSets documentSets;
  @Autowired FormationSandbox sandbox;
  @Autowired Environment environment;

  @Test
  void theApplicationsClientTalksToTheSandboxInsteadOfTheConfiguredService() {
    DocumentSet set = documentSets.create(DocumentSets.DELAWARE_CORPORATION);

    assertThat(sandbox.documentSet(set.id())).isPresent();
    assertThat(sandbox.requests()).allMatch(request -> request.authorized());
  }

  @Test
  void theApplicationsConfigurationWasReadAndOverridden() {
    assertThat(environment.getProperty("formation.access-token")).isEqualTo("real-service-token");
    assertThat(environment.getProperty("formation.base-url")).isEmpty();
  }
}
