package io.formation.recipes;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.formation.sandbox.FormationSandbox;
import io.formation.sandbox.SandboxOptions;
import io.formation.sandbox.junit.FormationSandboxExtension;
import io.formation.sdk.FormationClient;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A partner's test with the sandbox's JUnit extension: the real SDK, and the code under test (here
 * the whole-flow recipe), against a sandbox started for the test, then assertions on the requests
 * the sandbox saw.
 */
class FormationWithSandboxTest {
  @RegisterExtension
  final FormationSandboxExtension sandbox =
      FormationSandboxExtension.withOptions(
          SandboxOptions.defaults()
              .withProcessingLag(Duration.ofMillis(200))
              .withStepDelay(Duration.ofMillis(200)));

  @Test
  void theWholeFlowCreatesOneSetAndSendsEachFormToItsOwnAction(FormationSandbox running)
      throws Exception {
    JsonNode answers = new ObjectMapper().readTree(Path.of("answers.json").toFile());
    try (FormationClient client =
        FormationClient.builder().baseUrl(sandbox.baseUrl()).accessToken(sandbox.token()).build()) {
      WholeFlow.run(client, answers);
    }

    assertThat(running.requests())
        .filteredOn(r -> r.method().equals("POST") && r.path().equals("/v1/document_sets"))
        .hasSize(1);
    assertThat(running.documentSets())
        .singleElement()
        .satisfies(
            set -> {
              assertThat(set.state()).isEqualTo("complete");
              assertThat(set.values().get("people")).isEqualTo(answers.get("people"));
            });
    assertThat(running.requests()).allSatisfy(r -> assertThat(r.authorized()).isTrue());
  }
}
