package it.consumer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.formation.sandbox.FormationSandbox;
import io.formation.sandbox.SandboxOptions;
import io.formation.sandbox.SandboxTemplates;
import io.formation.sandbox.junit.FormationSandboxExtension;
import io.formation.sdk.DocumentSets;
import io.formation.sdk.FormationClient;
import io.formation.sdk.PollOptions;
import io.formation.sdk.model.DocumentSet;
import io.formation.sdk.model.Form;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** What a partner writes: the whole formation flow against the sandbox, on the class path. */
class FormationFlowTest {
  @RegisterExtension
  static FormationSandboxExtension sandbox =
      FormationSandboxExtension.withOptions(
          SandboxOptions.defaults().withProcessingLag(Duration.ZERO).withStepDelay(Duration.ZERO));

  @Test
  void formsADelawareCorporation(FormationSandbox running) {
    try (FormationClient client =
        FormationClient.builder().baseUrl(sandbox.baseUrl()).accessToken(sandbox.token()).build()) {
      DocumentSet set = client.documentSets().create(DocumentSets.DELAWARE_CORPORATION);
      for (Form form : client.forms().list(set.id())) {
        client
            .forms()
            .submit(
                form,
                SandboxTemplates.form(SandboxTemplates.DELAWARE_CORPORATION, form.id())
                    .orElseThrow()
                    .example());
      }
      DocumentSet done =
          client
              .documentSets()
              .awaitCompletion(
                  set.id(), PollOptions.builder().waitThroughInputNeeded(true).build());

      assertTrue(done.state().isComplete());
      assertEquals(
          1,
          running.requests().stream()
              .filter(r -> r.method().equals("POST") && r.path().equals("/v1/document_sets"))
              .count());
    }
  }
}
