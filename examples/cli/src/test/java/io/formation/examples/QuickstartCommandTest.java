package io.formation.examples;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.formation.sandbox.FormationSandbox;
import io.formation.sandbox.SandboxDocumentSet;
import io.formation.sandbox.SandboxForm;
import io.formation.sandbox.SandboxOptions;
import io.formation.sandbox.SandboxTemplates;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

final class QuickstartCommandTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final List<String> FORM_IDS =
      List.of("company", "purpose", "stock", "people", "registered_agent");
  private static final List<SandboxForm> FORMS =
      SandboxTemplates.forms(SandboxTemplates.DELAWARE_CORPORATION);

  @TempDir Path dir;
  private FormationSandbox sandbox;

  @BeforeEach
  void start() {
    sandbox =
        FormationSandbox.start(
            SandboxOptions.defaults()
                .withProcessingLag(Duration.ofMillis(50))
                .withStepDelay(Duration.ofMillis(20)));
  }

  @AfterEach
  void stop() {
    sandbox.close();
  }

  @Test
  void quickstartWithAutofillSubmitsEveryFormAndEndsWithCompleteAndTheId() {
    ProgramRun run = ProgramRun.against(sandbox, "quickstart", "--autofill");

    assertThat(run.code()).as(run.toString()).isZero();
    assertThat(run.err()).isEmpty();
    String id = run.createdId();
    assertThat(run.outLines())
        .contains("# app: " + sandbox.baseUrl() + "/app/document_sets/" + id)
        .containsSubsequence(FORM_IDS.stream().map(form -> "# submitted " + form).toList());
    assertThat(run.outLines()).contains("# company: 3 values filled in by --autofill");
    assertThat(run.lastLine()).isEqualTo("complete " + id);
    assertThat(run.statesOf(id)).last().isEqualTo("complete");

    SandboxDocumentSet set = sandbox.documentSet(id).orElseThrow();
    assertThat(set.isComplete()).isTrue();
    assertThat(set.values()).containsOnlyKeys(FORM_IDS);
    assertThat(set.values().values()).allMatch(values -> !values.isEmpty());
  }

  @Test
  void valuesFromTheAnswersFileAreWhatTheServiceStores() throws IOException {
    Path answers =
        write(
            "answers.json",
            """
            {
              "company": {"name": "Answered Robotics", "suffix": "Corp."},
              "people": {"directors": [{"name": "Grace Hopper", "email": "grace@navy.mil"}]}
            }
            """);

    ProgramRun run =
        ProgramRun.against(sandbox, "quickstart", "--autofill", "--answers", answers.toString());

    assertThat(run.code()).as(run.toString()).isZero();
    String id = run.createdId();
    Map<String, JsonNode> stored = sandbox.documentSet(id).orElseThrow().values();
    assertThat(stored.get("company").get("name").asText()).isEqualTo("Answered Robotics");
    assertThat(stored.get("company").get("suffix").asText()).isEqualTo("Corp.");
    assertThat(stored.get("people").at("/directors/0/email").asText()).isEqualTo("grace@navy.mil");
    // What the file leaves open is still filled in.
    assertThat(stored.get("people").get("officers")).isNotEmpty();
  }

  @Test
  void answersAloneCanCoverEveryRequiredFieldWithoutAutofill() throws IOException {
    ObjectNode all = JSON.createObjectNode();
    FORMS.forEach(form -> all.set(form.id(), form.example()));
    Path answers = write("answers.json", all.toString());

    ProgramRun run = ProgramRun.against(sandbox, "quickstart", "--answers", answers.toString());

    assertThat(run.code()).as(run.toString()).isZero();
    String id = run.createdId();
    Map<String, JsonNode> stored = sandbox.documentSet(id).orElseThrow().values();
    for (SandboxForm form : FORMS) {
      assertThat(stored.get(form.id())).isEqualTo(form.example());
    }
    assertThat(run.out()).doesNotContain("filled in by --autofill");
  }

  @Test
  void aFormInTheAnswersFileThatTheSetDoesNotHaveIsAWarningNotAnError() throws IOException {
    Path answers = write("answers.json", "{\"no_such_form\": {\"x\": 1}}");

    ProgramRun run =
        ProgramRun.against(sandbox, "quickstart", "--autofill", "--answers", answers.toString());

    assertThat(run.code()).as(run.toString()).isZero();
    assertThat(run.outLines())
        .anyMatch(line -> line.startsWith("# warning: ") && line.contains("'no_such_form'"));
  }

  @Test
  void anAnswersFileThatIsNotJsonIsAUsageErrorNamingTheFile() throws IOException {
    Path answers = write("broken.json", "{\"company\": ");

    ProgramRun run =
        ProgramRun.against(sandbox, "quickstart", "--autofill", "--answers", answers.toString());

    assertThat(run.code()).as(run.toString()).isEqualTo(2);
    assertThat(run.errLines()).singleElement().asString().contains(answers.toString());
    assertThat(sandbox.requests()).as("nothing is created for a bad answers file").isEmpty();
  }

  @Test
  void anAnswersFileThatIsMissingOrNotAnObjectOfObjectsIsAUsageError() throws IOException {
    Path missing = dir.resolve("missing.json");
    Path array = write("array.json", "[]");
    Path scalar = write("scalar.json", "{\"company\": \"Acme\"}");

    for (Path file : List.of(missing, array, scalar)) {
      ProgramRun run =
          ProgramRun.against(sandbox, "quickstart", "--autofill", "--answers", file.toString());
      assertThat(run.code()).as(run.toString()).isEqualTo(2);
      assertThat(run.errLines()).singleElement().asString().contains(file.toString());
    }
  }

  @Test
  void withoutATerminalAFieldNothingCoversIsAUsageErrorNamingFormAndField() {
    ProgramRun run = ProgramRun.against(sandbox, "quickstart");

    assertThat(run.code()).as(run.toString()).isEqualTo(2);
    assertThat(run.errLines())
        .singleElement()
        .asString()
        .startsWith("error: ")
        .contains("form 'company'", "'/name'", "--autofill");
    String id = run.createdId();
    assertThat(sandbox.documentSet(id).orElseThrow().formsNeedingValues())
        .as("no form is submitted before every form has its values")
        .containsExactlyElementsOf(FORM_IDS);
  }

  @Test
  void rejectedValuesWithoutATerminalArePrintedNextToTheirFieldsAndExitWithOne()
      throws IOException {
    Path answers =
        write(
            "answers.json",
            "{\"people\": {\"directors\": [{\"name\": \"Ada\", \"email\": \"not-an-email\"}]}}");

    ProgramRun run =
        ProgramRun.against(sandbox, "quickstart", "--autofill", "--answers", answers.toString());

    assertThat(run.code()).as(run.toString()).isEqualTo(1);
    assertThat(run.errLines().get(0))
        .startsWith("error: form 'people' was rejected")
        .contains("422");
    assertThat(run.errLines())
        .anyMatch(
            line ->
                line.startsWith("  /directors/0/email = \"not-an-email\": ")
                    && line.contains("email pattern"));
    assertThat(run.err()).doesNotContain("\tat ");
    assertThat(run.out()).doesNotContain("complete");
  }

  @Test
  void rejectedValuesAreAskedForAgainOnATerminalAndTheCorrectionIsSubmitted() throws IOException {
    Path answers =
        write(
            "answers.json",
            "{\"people\": {\"directors\": [{\"name\": \"Ada\", \"email\": \"not-an-email\"}]}}");

    ProgramRun run =
        ProgramRun.interactivelyAgainst(
            sandbox, "ada@acme.com\n", "quickstart", "--autofill", "--answers", answers.toString());

    assertThat(run.code()).as(run.toString()).isZero();
    assertThat(run.out())
        .contains(
            "Form 'people' (Directors and officers) needs some values.",
            "Directors #1 / Email (/directors/0/email)",
            "  ! directors/0/email: does not match the email pattern");
    String id = run.createdId();
    assertThat(run.lastLine()).isEqualTo("complete " + id);
    JsonNode people = sandbox.documentSet(id).orElseThrow().values().get("people");
    assertThat(people.at("/directors/0/email").asText()).isEqualTo("ada@acme.com");
    assertThat(people.at("/directors/0/name").asText()).isEqualTo("Ada");
  }

  @Test
  void onATerminalFieldsNothingCoversAreAskedFor() throws IOException {
    ObjectNode allButCompany = JSON.createObjectNode();
    FORMS.stream()
        .filter(form -> !form.id().equals("company"))
        .forEach(form -> allButCompany.set(form.id(), form.example()));
    Path answers = write("answers.json", allButCompany.toString());

    ProgramRun run =
        ProgramRun.interactivelyAgainst(
            sandbox, "Typed Robotics\n2\n\n", "quickstart", "--answers", answers.toString());

    assertThat(run.code()).as(run.toString()).isZero();
    assertThat(run.out()).contains("Form 'company' (Company) needs some values.");
    JsonNode company = sandbox.documentSet(run.createdId()).orElseThrow().values().get("company");
    assertThat(company.get("name").asText()).isEqualTo("Typed Robotics");
    assertThat(company.get("suffix").asText()).isEqualTo("Corporation");
    assertThat(company.has("website")).isFalse();
  }

  @Test
  void onATerminalTheFieldAReviewClearedIsAskedForAndCheckedBeforeItIsSubmitted()
      throws IOException {
    sandbox.close();
    sandbox =
        FormationSandbox.start(
            SandboxOptions.defaults()
                .withProcessingLag(Duration.ofMillis(50))
                .withStepDelay(Duration.ofMillis(50))
                .withReview(true));
    ObjectNode all = JSON.createObjectNode();
    FORMS.forEach(form -> all.set(form.id(), form.example()));
    ((ObjectNode) all.at("/people/directors/0")).remove("email");
    Path answers = write("answers.json", all.toString());

    ProgramRun run =
        ProgramRun.interactivelyAgainst(
            sandbox,
            "first@example.org\nnot-an-email\nada@example.org\n",
            "quickstart",
            "--answers",
            answers.toString());

    assertThat(run.code()).as(run.toString()).isZero();
    String id = run.createdId();
    assertThat(run.outLines())
        .containsSubsequence(
            "Directors #1 / Email (/directors/0/email)",
            "# document set " + id + " needs input again",
            "Directors #1 / Email (/directors/0/email)")
        .contains("complete " + id);
    assertThat(run.out()).as("the typed answer is checked first").contains("  ! does not match");
    JsonNode people = sandbox.documentSet(id).orElseThrow().values().get("people");
    assertThat(people.at("/directors/0/email").asText()).isEqualTo("ada@example.org");
    assertThat(sandbox.requests())
        .filteredOn(r -> r.path().startsWith("/v1/form_actions/"))
        .as("the invalid answer never reached the service")
        .allMatch(r -> r.status().orElse(0) == 200);
  }

  @Test
  void onATerminalInputThatEndsBeforeTheAnswersIsAUsageError() {
    ProgramRun run = ProgramRun.interactivelyAgainst(sandbox, "", "quickstart");

    assertThat(run.code()).as(run.toString()).isEqualTo(2);
    assertThat(run.errLines()).singleElement().asString().contains("input ended", "'company'");
  }

  @Test
  void anUnknownTemplateFailsWithTheServicesDetailOnOneLine() {
    ProgramRun run = ProgramRun.against(sandbox, "quickstart", "--autofill", "--template", "nope");

    assertThat(run.code()).as(run.toString()).isEqualTo(1);
    assertThat(run.errLines())
        .singleElement()
        .asString()
        .startsWith("error: POST ")
        .contains("422", "Unknown template");
  }

  @Test
  void withoutABaseUrlTheEmbeddedSandboxRunsTheSameWorkflow() {
    ProgramRun run = ProgramRun.run(Map.of(), "", false, "quickstart", "--autofill");

    assertThat(run.code()).as(run.toString()).isZero();
    assertThat(run.outLines().get(0))
        .startsWith("# using the embedded sandbox at http://127.0.0.1:");
    String id = run.createdId();
    assertThat(run.lastLine()).isEqualTo("complete " + id);
    assertThat(run.statesOf(id)).startsWith("input_needed").endsWith("complete");
    assertThat(sandbox.requests()).as("the sandbox the test started is not used").isEmpty();
  }

  @Test
  void answersOverlayTheFormsCurrentValuesFieldByField() {
    JsonNode current = json("{\"a\": {\"x\": 1, \"y\": 2}, \"b\": [1, 2], \"c\": true}");
    JsonNode given = json("{\"a\": {\"y\": 3}, \"b\": [9], \"d\": \"new\"}");

    assertThat(FormFiller.overlay(current, given))
        .isEqualTo(json("{\"a\": {\"x\": 1, \"y\": 3}, \"b\": [9], \"c\": true, \"d\": \"new\"}"));
    assertThat(current)
        .isEqualTo(json("{\"a\": {\"x\": 1, \"y\": 2}, \"b\": [1, 2], \"c\": true}"));
  }

  private Path write(String name, String content) throws IOException {
    return Files.writeString(dir.resolve(name), content, StandardCharsets.UTF_8);
  }

  private static JsonNode json(String text) {
    try {
      return JSON.readTree(text);
    } catch (IOException e) {
      throw new AssertionError(e);
    }
  }
}
