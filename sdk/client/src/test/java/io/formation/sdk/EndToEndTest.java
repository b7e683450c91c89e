package io.formation.sdk;

import static java.time.Duration.ofSeconds;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import io.formation.sandbox.Faults;
import io.formation.sandbox.FormValidator;
import io.formation.sandbox.FormationSandbox;
import io.formation.sandbox.SandboxOptions;
import io.formation.sandbox.SandboxRequest;
import io.formation.sandbox.SandboxTemplates;
import io.formation.sandbox.Violation;
import io.formation.sdk.model.ActionResult;
import io.formation.sdk.model.DocumentSet;
import io.formation.sdk.model.DocumentSetState;
import io.formation.sdk.model.Form;
import io.formation.testkit.FakeTime;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The whole partner workflow, the real SDK against the sandbox partners test with. The sandbox
 * reads the same fake clock the SDK sleeps on, so its lag and progression pass without waiting.
 */
class EndToEndTest {
  final FakeTime time = new FakeTime();
  final List<String> seen = new CopyOnWriteArrayList<>();
  FormationSandbox sandbox;

  FormationClient start(SandboxOptions options) {
    return builder(options).build();
  }

  FormationClient.Builder builder(SandboxOptions options) {
    sandbox = FormationSandbox.start(options.withClock(time));
    return TestClients.fakeTime(
        FormationClient.builder().baseUrl(sandbox.baseUrl()).accessToken(sandbox.token()), time);
  }

  @AfterEach
  void stopTheSandbox() {
    sandbox.close();
  }

  /**
   * Waits right after the last submission, through the sandbox's processing lag, polling more often
   * than the sandbox's 700 ms steps so that every state is seen.
   */
  PollOptions options() {
    return PollOptions.builder()
        .initialInterval(Duration.ofMillis(500))
        .multiplier(1)
        .maxInterval(Duration.ofMillis(500))
        .jitter(0)
        .timeout(Duration.ofMinutes(2))
        .waitThroughInputNeeded(true)
        .onStateChange(set -> seen.add(set.state().value()))
        .build();
  }

  @Test
  void createFillEveryFormAndWaitUntilComplete() {
    DocumentSet done;
    try (FormationClient client = start(SandboxOptions.defaults())) {
      DocumentSet set = client.documentSets().create(DocumentSets.DELAWARE_CORPORATION);
      assertThat(set.state()).isEqualTo(DocumentSetState.INPUT_NEEDED);
      assertThat(set.appLink()).isPresent();

      List<Form> forms = client.forms().list(set.id());
      assertThat(forms)
          .extracting(Form::id)
          .containsExactly("company", "purpose", "stock", "people", "registered_agent");
      for (Form form : forms) {
        assertThat(FormValidator.validate(form.schema(), form.values())).isNotEmpty();
        ActionResult result = client.forms().submit(form, example(form.id()));
        assertThat(result.form())
            .hasValueSatisfying(
                saved ->
                    assertThat(FormValidator.validate(saved.schema(), saved.values())).isEmpty());
      }

      done = client.documentSets().awaitCompletion(set.id(), options());
    }

    assertThat(done.state().isComplete()).isTrue();
    // The sandbox passes through a state the interface does not list; the SDK keeps it.
    assertThat(seen).containsSubsequence(SandboxOptions.DEFAULT_PROGRESSION);
    assertThat(seen.indexOf("input_needed")).isLessThan(seen.indexOf("signature_requests_needed"));
    assertThat(DocumentSetState.of("payment_processing").isKnown()).isFalse();
    assertThat(sandbox.documentSet(done.id()).orElseThrow().isComplete()).isTrue();
    assertEveryRequestWasAuthorizedAndThereWasOneCreate();
  }

  @Test
  void theSameWorkflowThroughTheAsyncTwins() throws Exception {
    DocumentSet done;
    try (FormationClient client = start(SandboxOptions.defaults())) {
      done =
          client
              .documentSets()
              .createAsync(CreateDocumentSetParams.of(DocumentSets.DELAWARE_CORPORATION))
              .thenCompose(
                  set ->
                      client
                          .forms()
                          .listAsync(set.id())
                          .thenCompose(
                              forms ->
                                  CompletableFuture.allOf(
                                      forms.stream()
                                          .map(
                                              form ->
                                                  client
                                                      .forms()
                                                      .submitAsync(form, example(form.id())))
                                          .toArray(CompletableFuture<?>[]::new)))
                          .thenCompose(
                              submitted ->
                                  client.documentSets().awaitCompletionAsync(set.id(), options())))
              .get(60, TimeUnit.SECONDS);
    }

    assertThat(done.state().isComplete()).isTrue();
    assertThat(seen).endsWith("complete");
    assertThat(sandbox.documentSet(done.id()).orElseThrow().formsNeedingValues()).isEmpty();
    assertEveryRequestWasAuthorizedAndThereWasOneCreate();
  }

  @Test
  void invalidValuesAreRejectedWithTheSandboxsPointers() {
    try (FormationClient client = start(SandboxOptions.defaults())) {
      DocumentSet set = client.documentSets().create(DocumentSets.DELAWARE_CORPORATION);
      Form people = client.forms().list(set.id()).get(3);
      JsonNode values =
          Fixtures.tree(
              "{\"directors\":[{\"name\":\"Ada\",\"email\":\"nope\"}],"
                  + "\"officers\":[{\"name\":\"Ada\",\"title\":\"CEO\"}]}");

      List<String> expected =
          FormValidator.validate(people.schema(), values).stream().map(Violation::pointer).toList();
      assertThatThrownBy(() -> client.forms().submit(people, values))
          .isInstanceOfSatisfying(
              ValidationException.class,
              e ->
                  assertThat(e.messagesByPointer().keySet())
                      .containsExactlyInAnyOrderElementsOf(expected)
                      .contains("/directors/0/email", "/officers/0/email"));
    }
  }

  @Test
  void aReopenedFormIsFoundByValidatingTheValuesAndTheSetThenCompletes() {
    try (FormationClient client = start(SandboxOptions.defaults().withReview(true))) {
      DocumentSet set = client.documentSets().create(DocumentSets.DELAWARE_CORPORATION);
      for (Form form : client.forms().list(set.id())) {
        client.forms().submit(form, example(form.id()));
      }
      PollOptions bounded = options().newBuilder().timeout(Duration.ofSeconds(30)).build();

      // The review sends the set back to input_needed for good: the wait cannot end in complete.
      assertThatThrownBy(() -> client.documentSets().awaitCompletion(set.id(), bounded))
          .isInstanceOfAny(PollTimeoutException.class, InputNeededException.class);
      assertThat(client.documentSets().get(set.id()).state().needsInput()).isTrue();

      List<String> fixed = new ArrayList<>();
      for (Form form : client.forms().list(set.id())) {
        if (!FormValidator.validate(form.schema(), form.values()).isEmpty()) {
          client.forms().submit(form, example(form.id()));
          fixed.add(form.id());
        }
      }
      seen.clear();
      DocumentSet done = client.documentSets().awaitCompletion(set.id(), options());

      assertThat(fixed).containsExactly("people");
      assertThat(done.state().isComplete()).isTrue();
      assertThat(seen).endsWith("finalizing", "complete");
      assertThat(sandbox.documentSet(set.id()).orElseThrow().reviewed()).isTrue();
    }
  }

  @Test
  void rateLimitsAreRiddenThroughHonouringRetryAfter() {
    Faults faults = Faults.none().withRateLimited(0.3).withRetryAfter(ofSeconds(2)).withSeed(4);
    DocumentSet done;
    try (FormationClient client =
        builder(SandboxOptions.defaults().withFaults(faults)).maxRetries(10).build()) {
      DocumentSet set = client.documentSets().create(DocumentSets.DELAWARE_CORPORATION);
      for (Form form : client.forms().list(set.id())) {
        client.forms().submit(form, example(form.id()));
      }
      done = client.documentSets().awaitCompletion(set.id(), options());
    }

    assertThat(done.state().isComplete()).isTrue();
    List<SandboxRequest> requests = sandbox.requests();
    assertThat(requests).anyMatch(r -> r.fault().isPresent());
    for (int i = 0; i + 1 < requests.size(); i++) {
      if (requests.get(i).fault().isPresent()) {
        // The sandbox would have refused a request that came back sooner: none did.
        assertThat(requests.get(i + 1).fault()).isEmpty();
      }
    }
    assertEveryRequestWasAuthorizedAndThereWasOneCreate();
  }

  @Test
  void aCreateWhoseConnectionDropsIsNotSentAgain() {
    try (FormationClient client =
        start(SandboxOptions.defaults().withFaults(Faults.none().withDropped(1.0)))) {
      assertThatThrownBy(() -> client.documentSets().create(DocumentSets.DELAWARE_CORPORATION))
          .isInstanceOf(FormationException.class);
    }

    assertThat(creates()).hasSize(1);
  }

  private static JsonNode example(String formId) {
    return SandboxTemplates.form(SandboxTemplates.DELAWARE_CORPORATION, formId)
        .orElseThrow()
        .example();
  }

  private List<SandboxRequest> creates() {
    return sandbox.requests().stream()
        .filter(r -> r.method().equals("POST") && r.path().equals("/v1/document_sets"))
        .toList();
  }

  private void assertEveryRequestWasAuthorizedAndThereWasOneCreate() {
    assertThat(sandbox.requests()).hasSizeGreaterThan(7).allMatch(SandboxRequest::authorized);
    assertThat(creates()).filteredOn(r -> r.fault().isEmpty()).hasSize(1);
    assertThat(sandbox.documentSets()).hasSize(1);
  }
}
