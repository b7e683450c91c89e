package com.example.partner;

import static org.assertj.core.api.Assertions.assertThat;

import com.example.partner.Onboarding.Company;
import io.formation.sandbox.FormationSandbox;
import io.formation.sandbox.SandboxForm;
import io.formation.sandbox.SandboxOptions;
import io.formation.sandbox.SandboxTemplates;
import io.formation.sdk.FormationClient;
import io.formation.sdk.model.DocumentSet;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class OnboardingTest {
  @Test
  void theSdkAndTheApplicationRunAsNamedModules() {
    assertThat(FormationClient.class.getModule().getName()).isEqualTo("io.formation.sdk");
    assertThat(Onboarding.class.getModule().getName()).isEqualTo("com.example.partner");
  }

  @Test
  void aModularApplicationFormsACompanyAndReadsItBackAsItsOwnRecord() {
    SandboxOptions instant =
        SandboxOptions.defaults().withProcessingLag(Duration.ZERO).withStepDelay(Duration.ZERO);
    Company company = new Company("Acme Robotics", "Inc.", "https://acme.example");
    try (FormationSandbox sandbox = FormationSandbox.start(instant);
        FormationClient client =
            FormationClient.builder()
                .baseUrl(sandbox.baseUrl())
                .accessToken(sandbox.token())
                .build()) {
      Onboarding onboarding = new Onboarding(client);
      DocumentSet done =
          onboarding.formCompany(
              company,
              formId ->
                  SandboxTemplates.form(SandboxTemplates.DELAWARE_CORPORATION, formId)
                      .map(SandboxForm::example)
                      .orElseThrow());
      assertThat(done.state().isComplete()).isTrue();
      assertThat(onboarding.company(done.id())).isEqualTo(company);
    }
  }
}
