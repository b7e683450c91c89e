package com.example.partner;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.formation.sandbox.FormationSandbox;
import io.formation.sandbox.SandboxOptions;
import io.formation.sandbox.SandboxRequest;
import io.formation.sandbox.SandboxTemplates;
import io.formation.sdk.DocumentSets;
import io.formation.sdk.FormationClient;
import io.formation.sdk.Forms;
import io.formation.sdk.PollOptions;
import io.formation.sdk.Teams;
import io.formation.sdk.model.DocumentSet;
import io.formation.sdk.model.Form;
import io.formation.spring.test.AutoConfigureFormationSandbox;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;

/** The partner's application as it runs, against the sandbox the starter starts for the test. */
@SpringBootTest(
    webEnvironment = WebEnvironment.RANDOM_PORT,
    // The SDK's own switch (FORMATION_LOG=debug), which the starter makes a logging level.
    properties = "formation.log=debug")
@AutoConfigureFormationSandbox
@Import(PartnerApplicationTest.QuickSandbox.class)
@ExtendWith(OutputCaptureExtension.class)
class PartnerApplicationTest {
  /** The sandbox moves on at once, so the whole flow takes a moment. */
  @TestConfiguration(proxyBeanMethods = false)
  static class QuickSandbox {
    @Bean
    SandboxOptions sandboxOptions() {
      return SandboxOptions.defaults()
          .withStepDelay(Duration.ofMillis(1))
          .withProcessingLag(Duration.ofMillis(1));
    }
  }

  @Autowired DocumentSets documentSets;
  @Autowired Forms forms;
  @Autowired Teams teams;
  @Autowired FormationSandbox sandbox;
  @Autowired MeterRegistry meters;
  @Autowired ApplicationContext context;

  @Value("${local.server.port}")
  int port;

  @Test
  void theWholeFormationFlowRunsThroughInjectedBeans() {
    DocumentSet set = documentSets.create(DocumentSets.DELAWARE_CORPORATION);
    List<Form> toFill = forms.list(set.id());
    assertThat(toFill).isNotEmpty();
    for (Form form : toFill) {
      forms.submit(
          form,
          SandboxTemplates.form(SandboxTemplates.DELAWARE_CORPORATION, form.id())
              .orElseThrow()
              .example());
    }

    DocumentSet done =
        documentSets.awaitCompletion(
            set.id(),
            PollOptions.builder()
                .initialInterval(Duration.ofMillis(20))
                .maxInterval(Duration.ofMillis(100))
                .timeout(Duration.ofMinutes(1))
                .build());

    assertThat(done.state().isComplete()).isTrue();
    assertThat(sandbox.requests()).allMatch(SandboxRequest::authorized);
  }

  @Test
  void aControllerReturningAFormGivesTheJsonTheServiceSent() {
    // The controller's DocumentSet is the resource as the service sent it.
    String setId = Http.post(api("/formations")).path("id").asText();
    JsonNode sent =
        Http.get(sandbox.baseUrl() + "/v1/document_sets/" + setId + "/forms", sandbox.token());
    JsonNode firstForm = sent.path("data").get(0);

    JsonNode returned =
        Http.get(api("/formations/" + setId + "/forms/" + firstForm.path("id").asText()), null);

    assertThat(returned).isEqualTo(firstForm);
  }

  @Test
  void aControllerReturningADocumentSetOrAPageOfTeamsGivesTheJsonTheServiceSent() {
    JsonNode started = Http.post(api("/formations"));
    String id = started.path("id").asText();
    JsonNode sentSet =
        Http.get(sandbox.baseUrl() + "/v1/document_sets/" + id, sandbox.token()).path("data");

    assertThat(Http.get(api("/formations/" + id), null)).isEqualTo(sentSet);

    JsonNode sentTeams = Http.get(sandbox.baseUrl() + "/v1/teams", sandbox.token());
    JsonNode returnedTeams = Http.get(api("/teams"), null);
    assertThat(returnedTeams.path("data")).isEqualTo(sentTeams.path("data"));
    assertThat(returnedTeams.path("links").path("next"))
        .isEqualTo(sentTeams.path("links").path("next"));
  }

  @Test
  void theMetersCountTheCallsByOperationAndOutcome() {
    documentSets.create(DocumentSets.DELAWARE_CORPORATION);

    assertThat(
            meters
                .get("formation.client.requests")
                .tags("operation", "document_sets.create", "outcome", "SUCCESS")
                .timer()
                .count())
        .isGreaterThanOrEqualTo(1);
  }

  @Test
  void theSdksLogGoesThroughTheApplicationsLogging(CapturedOutput output) {
    teams.list().pages().iterator().next();

    assertThat(output).containsPattern("DEBUG \\d+ --- \\[.*\\] io\\.formation\\.sdk\\s+: ");
    assertThat(output).doesNotContain("[formation debug]").doesNotContain(sandbox.token());
  }

  @Test
  void theClientIsTheStartersAndTheHealthContributorIsOffByDefault() {
    assertThat(context.getBeansOfType(FormationClient.class)).hasSize(1);
    assertThat(context.containsBean("formationHealthIndicator")).isFalse();
  }

  private String api(String path) {
    return "http://127.0.0.1:" + port + path;
  }
}
