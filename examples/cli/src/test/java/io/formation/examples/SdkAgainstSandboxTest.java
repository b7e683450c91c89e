package io.formation.examples;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.formation.sandbox.FormationSandbox;
import io.formation.sandbox.SandboxOptions;
import io.formation.sandbox.SandboxRequest;
import io.formation.sandbox.SandboxTemplates;
import io.formation.sdk.FormationClient;
import io.formation.sdk.InputNeededException;
import io.formation.sdk.PollOptions;
import io.formation.sdk.ValidationException;
import io.formation.sdk.model.DocumentSet;
import io.formation.sdk.model.Form;
import io.formation.sdk.model.FormAction;
import io.formation.sdk.model.Team;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The real SDK against the embedded sandbox: the whole partner workflow over HTTP. */
final class SdkAgainstSandboxTest {
  private static final List<String> FORM_IDS =
      List.of("company", "purpose", "stock", "people", "registered_agent");

  private FormationSandbox sandbox;
  private FormationClient client;
  private final List<String> statesSeen = new CopyOnWriteArrayList<>();

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

  @ParameterizedTest
  @ValueSource(ints = {50, 7})
  void thePagerListsAllTeamsOnceFollowingTheNextLinks(int pageSize) {
    List<String> ids = client.teams().list().pageSize(pageSize).stream().map(Team::id).toList();

    assertThat(ids).hasSize(SandboxOptions.DEFAULT_TEAM_COUNT).doesNotHaveDuplicates();
    List<String> allAtOnce = client.teams().list().pageSize(100).stream().map(Team::id).toList();
    assertThat(ids).containsExactlyInAnyOrderElementsOf(allAtOnce);
    long pages =
        sandbox.requests().stream().filter(request -> request.path().equals("/v1/teams")).count();
    assertThat(pages).isEqualTo(ceil(120, pageSize) + ceil(120, 100));
  }

  @Test
  void aDocumentSetGoesFromCreationThroughItsFormsToComplete() {
    DocumentSet set = client.documentSets().create(SandboxTemplates.DELAWARE_CORPORATION);
    assertThat(set.state().needsInput()).isTrue();
    assertThat(set.appLink()).isPresent();

    List<Form> forms = client.forms().list(set.id());
    assertForms(set, forms);
    rejectInvalidEmail(forms);
    submitExamples(forms);

    DocumentSet done = client.documentSets().awaitCompletion(set.id(), fastPolling());

    assertThat(done.state().isComplete()).isTrue();
    assertThat(statesSeen).last().isEqualTo("complete");
    assertThat(sandbox.documentSet(set.id()).orElseThrow().isComplete()).isTrue();
  }

  @Test
  void theAsyncWaitEndsWithTheSameCompleteDocumentSet() throws Exception {
    DocumentSet set = client.documentSets().create(SandboxTemplates.DELAWARE_CORPORATION);
    List<Form> forms = client.forms().list(set.id());
    rejectInvalidEmail(forms);
    submitExamples(forms);

    DocumentSet done =
        client
            .documentSets()
            .awaitCompletionAsync(set.id(), fastPolling())
            .get(10, TimeUnit.SECONDS);

    assertThat(done.id()).isEqualTo(set.id());
    assertThat(done.state().isComplete()).isTrue();
    assertThat(statesSeen).last().isEqualTo("complete");
  }

  @Test
  void waitingOnASetThatStillNeedsInputStopsWithInputNeeded() {
    DocumentSet set = client.documentSets().create(SandboxTemplates.DELAWARE_CORPORATION);

    PollOptions noGrace = fastPolling().newBuilder().inputNeededGrace(Duration.ZERO).build();
    assertThatThrownBy(() -> client.documentSets().awaitCompletion(set.id(), noGrace))
        .isInstanceOfSatisfying(
            InputNeededException.class, e -> assertThat(e.documentSet().id()).isEqualTo(set.id()));
  }

  private void assertForms(DocumentSet set, List<Form> forms) {
    assertThat(forms).extracting(Form::id).containsExactlyElementsOf(FORM_IDS);
    for (Form form : forms) {
      assertThat(form.schema().isObject()).isTrue();
      assertThat(form.schema().get("properties")).isNotEmpty();
      assertThat(form.uiSchema().isObject()).isTrue();
      assertThat(form.uiSchema().get("elements")).isNotEmpty();
      assertThat(form.values()).isEmpty();
      FormAction submit = form.submitAction();
      assertThat(submit.method()).isEqualTo("PUT");
      // Opaque: nothing in the url is made of ids the client knows.
      assertThat(submit.url()).doesNotContain(set.id()).doesNotContain(form.id());
    }
  }

  /** The invalid email is refused with a pointer to it, and nothing is stored. */
  private void rejectInvalidEmail(List<Form> forms) {
    Form people =
        forms.stream().filter(form -> form.id().equals("people")).findFirst().orElseThrow();
    ObjectNode invalid =
        (ObjectNode)
            SandboxTemplates.form(SandboxTemplates.DELAWARE_CORPORATION, "people")
                .orElseThrow()
                .example();
    ((ObjectNode) invalid.at("/directors/0")).put("email", "not-an-email");

    assertThatThrownBy(() -> client.forms().submit(people, invalid))
        .isInstanceOfSatisfying(
            ValidationException.class,
            e -> {
              assertThat(e.statusCode()).isEqualTo(422);
              assertThat(e.messagesByPointer())
                  .containsOnlyKeys("/directors/0/email")
                  .allSatisfy((pointer, message) -> assertThat(message).contains("email"));
            });
    SandboxRequest last = sandbox.requests().get(sandbox.requests().size() - 1);
    assertThat(last.method()).isEqualTo("PUT");
    assertThat(last.target()).isEqualTo(people.submitAction().url());
  }

  private void submitExamples(List<Form> forms) {
    List<String> submitted = new ArrayList<>();
    for (Form form : forms) {
      JsonNode example =
          SandboxTemplates.form(SandboxTemplates.DELAWARE_CORPORATION, form.id())
              .orElseThrow()
              .example();
      client.forms().submit(form, example);
      submitted.add(form.id());
      assertThat(sandbox.requests().get(sandbox.requests().size() - 1).target())
          .isEqualTo(form.submitAction().url());
    }
    assertThat(submitted).containsExactlyElementsOf(FORM_IDS);
  }

  private PollOptions fastPolling() {
    return PollOptions.builder()
        .initialInterval(Duration.ofMillis(10))
        .maxInterval(Duration.ofMillis(50))
        .timeout(Duration.ofSeconds(10))
        .onStateChange(set -> statesSeen.add(set.state().value()))
        .build();
  }

  private static long ceil(int total, int size) {
    return (total + size - 1) / size;
  }
}
