package it.consumer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.formation.sandbox.FormationSandbox;
import io.formation.sandbox.SandboxOptions;
import io.formation.sandbox.SandboxTemplates;
import io.formation.sandbox.junit.FormationSandboxExtension;
import io.formation.sdk.FormationClient;
import io.formation.sdk.model.DocumentSet;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The partner module's test, run inside the module: the SDK is resolved from the module path. */
class OnboardingTest {
  @RegisterExtension
  static FormationSandboxExtension sandbox =
      FormationSandboxExtension.withOptions(
          SandboxOptions.defaults().withProcessingLag(Duration.ZERO).withStepDelay(Duration.ZERO));

  @Test
  void formsADelawareCorporationFromTheModulePath(FormationSandbox running) {
    assertTrue(FormationClient.class.getModule().isNamed(), "the SDK is a named module");
    assertEquals("it.consumer", Onboarding.class.getModule().getName());
    try (FormationClient client =
        FormationClient.builder().baseUrl(sandbox.baseUrl()).accessToken(sandbox.token()).build()) {
      DocumentSet done =
          new Onboarding(client)
              .formCompany(
                  id ->
                      SandboxTemplates.form(SandboxTemplates.DELAWARE_CORPORATION, id)
                          .orElseThrow()
                          .example());

      assertTrue(done.state().isComplete());
      assertEquals(1, running.documentSets().size());
    }
  }
}
