package io.formation.examples;

import static org.assertj.core.api.Assertions.assertThat;

import io.formation.sandbox.FormationSandbox;
import io.formation.sandbox.SandboxOptions;
import io.formation.sandbox.SandboxTemplates;
import io.formation.sdk.FormationClient;
import io.formation.sdk.model.DocumentSet;
import io.formation.sdk.model.Form;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

final class StatusCommandTest {
  private FormationSandbox sandbox;
  private FormationClient client;

  @BeforeEach
  void start() {
    sandbox =
        FormationSandbox.start(
            SandboxOptions.defaults()
                .withProcessingLag(Duration.ofMillis(50))
                .withStepDelay(Duration.ofMillis(20)));
    client =
        FormationClient.builder().baseUrl(sandbox.baseUrl()).accessToken(sandbox.token()).build();
  }

  @AfterEach
  void stop() {
    client.close();
    sandbox.close();
  }

  @Test
  void statusPrintsTheIdATabAndTheState() {
    DocumentSet set = client.documentSets().create(SandboxTemplates.DELAWARE_CORPORATION);

    ProgramRun run = ProgramRun.against(sandbox, "status", set.id());

    assertThat(run.code()).as(run.toString()).isZero();
    assertThat(run.results()).containsExactly(set.id() + "\tinput_needed");
    assertThat(run.outLines()).contains("# app: " + set.appLink().orElseThrow());
  }

  @Test
  void statusWaitPrintsEachStateUntilCompleteAndEndsWithCompleteAndTheId() {
    DocumentSet set = client.documentSets().create(SandboxTemplates.DELAWARE_CORPORATION);
    for (Form form : client.forms().list(set.id())) {
      client
          .forms()
          .submit(
              form,
              SandboxTemplates.form(SandboxTemplates.DELAWARE_CORPORATION, form.id())
                  .orElseThrow()
                  .example());
    }

    ProgramRun run = ProgramRun.against(sandbox, "status", set.id(), "--wait");

    assertThat(run.code()).as(run.toString()).isZero();
    assertThat(run.lastLine()).isEqualTo("complete " + set.id());
    assertThat(run.results()).contains(set.id() + "\tcomplete");
    assertThat(run.results().subList(0, run.results().size() - 1))
        .allMatch(line -> line.startsWith(set.id() + "\t"));
  }

  @Test
  void statusOfAnUnknownIdFailsWithOneLineNamingThe404AndNoStackTrace() {
    ProgramRun run = ProgramRun.against(sandbox, "status", "nosuch");

    assertThat(run.code()).as(run.toString()).isEqualTo(1);
    assertThat(run.errLines())
        .singleElement()
        .asString()
        .startsWith("error: ")
        .contains("404", "nosuch");
    assertThat(run.results()).isEmpty();
  }

  @Test
  void aDotSegmentIsNotADocumentSetId() {
    ProgramRun run = ProgramRun.against(sandbox, "status", "..");

    assertThat(run.code()).as(run.toString()).isEqualTo(2);
    assertThat(run.errLines()).singleElement().asString().contains("dot segment", "status --help");
    assertThat(sandbox.requests()).isEmpty();
  }
}
