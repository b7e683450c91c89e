package io.formation.examples;

import static org.assertj.core.api.Assertions.assertThat;

import io.formation.sandbox.FormationSandbox;
import io.formation.sandbox.SandboxOptions;
import io.formation.sandbox.SandboxRequest;
import io.formation.sandbox.SandboxTemplates;
import io.formation.sdk.FormationClient;
import io.formation.sdk.PollOptions;
import io.formation.sdk.WaitState;
import io.formation.sdk.model.DocumentSet;
import io.formation.sdk.model.Form;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
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

  @Test
  void statusWaitPrintsTheWaitAsAStringThatResumeTakesBack() {
    DocumentSet set = submittedSet();

    ProgramRun run = ProgramRun.against(sandbox, "status", set.id(), "--wait");

    assertThat(run.code()).as(run.toString()).isZero();
    List<WaitState> printed = resumeLines(run);
    assertThat(printed).isNotEmpty().allMatch(wait -> wait.setId().equals(set.id()));
    // The first before any poll; one after each change the run saw before completion.
    assertThat(printed.get(0).polls()).isZero();
    assertThat(printed).extracting(WaitState::polls).isSorted();
  }

  @Test
  void statusResumeGoesOnWithTheSavedWaitUntilComplete() {
    DocumentSet set = submittedSet();
    WaitState saved = client.documentSets().startWait(set.id(), PollOptions.defaults());

    ProgramRun run =
        ProgramRun.against(sandbox, "status", set.id(), "--wait", "--resume", saved.encode());

    assertThat(run.code()).as(run.toString()).isZero();
    assertThat(run.lastLine()).isEqualTo("complete " + set.id());
    // The run took the wait up as saved: its start, deadline and the submission it knew of.
    WaitState first = resumeLines(run).get(0);
    assertThat(first).isEqualTo(saved);
    assertThat(first.lastSubmission()).isPresent();
  }

  @Test
  void statusResumeGoesOnWithTheSavedWaitsGraceAndBackoffNotNewOnes() {
    // Its forms never submitted: the set reads input_needed until the run fills them in.
    DocumentSet set = client.documentSets().create(SandboxTemplates.DELAWARE_CORPORATION);
    // What an earlier run saved after one poll: the last submission it knew of two minutes ago,
    // so the 60 s grace is over, and the interval grown from 20 ms to 80 ms.
    PollOptions earlier =
        PollOptions.builder()
            .initialInterval(Duration.ofMillis(20))
            .multiplier(4)
            .maxInterval(Duration.ofMillis(80))
            .build();
    WaitState started =
        client
            .documentSets()
            .startWait(set.id(), earlier)
            .withSubmission(Instant.now().minus(Duration.ofMinutes(2)));
    WaitState saved = client.documentSets().poll(started, earlier).waitState();
    assertThat(saved.polls()).isEqualTo(1);
    assertThat(saved.interval()).isEqualTo(Duration.ofMillis(80));
    int before = sandbox.requests().size();

    ProgramRun run =
        ProgramRun.against(sandbox, "status", set.id(), "--resume", saved.encode(), "--autofill");

    assertThat(run.code()).as(run.toString()).isZero();
    assertThat(run.lastLine()).isEqualTo("complete " + set.id());
    // The grace went on from the saved submission: the run's first poll found input needed at
    // once and the forms were listed next (a new wait would poll through 60 s of grace first).
    assertThat(sandbox.requests().subList(before, before + 2))
        .extracting(SandboxRequest::path)
        .containsExactly(
            "/v1/document_sets/" + set.id(), "/v1/document_sets/" + set.id() + "/forms");
    assertThat(run.outLines()).contains("# document set " + set.id() + " needs input again");
    // The backoff went on from the saved 80 ms (x1.1), not from the run's first 25 ms; the same
    // wait, one poll further.
    WaitState afterFirstPoll = resumeLines(run).get(1);
    assertThat(afterFirstPoll.interval()).isEqualTo(Duration.ofMillis(88));
    assertThat(afterFirstPoll.polls()).isEqualTo(saved.polls() + 1);
    assertThat(afterFirstPoll.started()).isEqualTo(saved.started());
    assertThat(afterFirstPoll.deadline()).isEqualTo(saved.deadline());
  }

  @Test
  void aResumedWaitPastItsDeadlineEndsWithTheTimeoutWithoutPolling() {
    DocumentSet set = client.documentSets().create(SandboxTemplates.DELAWARE_CORPORATION);
    PollOptions aMoment = PollOptions.builder().timeout(Duration.ofMillis(1)).build();
    WaitState saved = client.documentSets().startWait(set.id(), aMoment);
    int before = sandbox.requests().size();

    ProgramRun run = ProgramRun.against(sandbox, "status", set.id(), "--resume", saved.encode());

    assertThat(run.code()).as(run.toString()).isEqualTo(1);
    assertThat(run.errLines()).singleElement().asString().contains("ran out", set.id());
    assertThat(sandbox.requests().subList(before, sandbox.requests().size())).isEmpty();
  }

  @Test
  void aResumeStringThatIsNotASavedWaitIsAUsageErrorAndNothingIsSent() {
    ProgramRun run =
        ProgramRun.against(sandbox, "status", "ds_1", "--resume", "w1.ds_1.finalizing");

    assertThat(run.code()).as(run.toString()).isEqualTo(2);
    assertThat(run.errLines())
        .singleElement()
        .asString()
        .contains("Not a saved wait", "11 fields", "status --help");
    assertThat(sandbox.requests()).isEmpty();
  }

  @Test
  void aResumeStringForAnotherSetIsAUsageError() {
    WaitState other = client.documentSets().startWait("ds_other", PollOptions.defaults());

    ProgramRun run = ProgramRun.against(sandbox, "status", "ds_1", "--resume", other.encode());

    assertThat(run.code()).as(run.toString()).isEqualTo(2);
    assertThat(run.errLines()).singleElement().asString().contains("ds_other", "not for ds_1");
    assertThat(sandbox.requests()).isEmpty();
  }

  private DocumentSet submittedSet() {
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
    return set;
  }

  /** The waits the run printed on its {@code # to resume this wait:} lines, decoded. */
  private static List<WaitState> resumeLines(ProgramRun run) {
    return run.outLines().stream()
        .filter(line -> line.startsWith("# to resume this wait: status "))
        .map(line -> WaitState.decode(line.substring(line.lastIndexOf(' ') + 1)))
        .toList();
  }
}
