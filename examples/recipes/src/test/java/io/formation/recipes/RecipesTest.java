package io.formation.recipes;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import io.formation.sandbox.FormationSandbox;
import io.formation.sdk.FormationClient;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Runs each recipe's {@code main} as a partner would, against the embedded sandbox it starts when
 * no service is configured, and checks what it printed. Real time passes: the sandbox moves a set
 * through its states in a few seconds, as the recipes are written for.
 */
class RecipesTest {
  private static final String ANSWERS = "answers.json";

  @BeforeAll
  static void noServiceIsConfigured() {
    assertThat(System.getenv(FormationClient.BASE_URL_ENV))
        .as("the recipes' tests run against the embedded sandbox, so FORMATION_BASE_URL is unset")
        .isNull();
  }

  @Test
  void theWholeFlowPrintsTheStatesItSeesUntilComplete() throws Exception {
    String printed = run(() -> WholeFlow.main(new String[] {ANSWERS}));

    assertThat(printed)
        .contains("App: http://127.0.0.1:")
        // Which states in between a poll sees depends on timing; the last one does not.
        .containsPattern("\ncomplete\nds_\\w+ is complete\n$")
        .doesNotContainPattern("(?m)^\\w+/"); // no "<form>/<field>: message": all accepted
  }

  @Test
  void listingTeamsFollowsTheLinksAndResumesFromASavedOne() throws Exception {
    String printed = run(() -> ListTeams.main(new String[0]));

    // The sandbox lists 120 teams in pages of 50: all of them, then the 70 after the first page.
    assertThat(printed.lines().filter(line -> line.matches("\\w+\t.+"))).hasSize(120);
    assertThat(printed.lines().filter(line -> line.startsWith("resumed: "))).hasSize(70);
    assertThat(printed).containsPattern("(?m)^\\d+ teams' names start with A$");
  }

  @Test
  void aRejectedValueIsShownAtItsFieldAndTheCorrectionAccepted() throws Exception {
    String printed = run(() -> FieldErrors.main(new String[0]));

    assertThat(printed)
        .contains("/directors/0/email = \"ada at example.com\": ")
        .endsWith("accepted after the correction\n");
  }

  @Test
  void manySetsAreFormedAtOnce() throws Exception {
    String printed = run(() -> ManySetsAsync.main(new String[] {ANSWERS}));

    assertThat(printed.lines().filter(line -> line.matches("ds_\\w+ is complete")).distinct())
        .hasSize(10);
  }

  @Test
  void waitsResumeAfterARestartFromTheirSavedStrings() throws Exception {
    String printed = run(() -> ResumeWaits.main(new String[] {ANSWERS}));

    assertThat(printed.lines().filter(line -> line.matches("ds_\\w+ is complete")).distinct())
        .hasSize(3);
  }

  @Test
  void perCallOptionsCreateAndFillInASet() throws Exception {
    String printed = run(() -> PerCallOptions.main(new String[] {ANSWERS}));

    assertThat(printed)
        .containsPattern("ds_\\w+ created and filled in, correlation id [-0-9a-f]{36}");
  }

  @Test
  void theMetricsListenerTimesEveryAttempt() throws Exception {
    String printed = run(() -> MetricsListener.main(new String[0]));

    // Three pages of teams, one create and one get, each answered 200 or 201.
    assertThat(printed)
        .contains("[tag(method=GET), tag(status=200)]: 4 attempts")
        .contains("[tag(method=POST), tag(status=201)]: 1 attempts");
  }

  /**
   * The README's hello world, run as the README says: its own JVM, the service from the
   * environment.
   */
  @Test
  void theHelloWorldFormsACompanyAgainstTheServiceTheEnvironmentNames() throws Exception {
    try (FormationSandbox sandbox = FormationSandbox.start()) {
      ProcessBuilder java =
          new ProcessBuilder(
                  Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                  "-cp",
                  System.getProperty("java.class.path"),
                  HelloFormation.class.getName(),
                  ANSWERS)
              .redirectErrorStream(true);
      java.environment().put(FormationClient.BASE_URL_ENV, sandbox.baseUrl());
      java.environment().put(FormationClient.ACCESS_TOKEN_ENV, sandbox.token());
      Process hello = java.start();
      // A bound, not a timing: the program takes seconds; only a hung one gets near this.
      boolean ended = hello.waitFor(3, TimeUnit.MINUTES);
      if (!ended) {
        hello.destroyForcibly();
      }
      String printed = new String(hello.getInputStream().readAllBytes(), UTF_8);

      assertThat(ended).as("the hello world ended").isTrue();
      assertThat(hello.exitValue()).as(printed).isZero();
      assertThat(printed).matches("ds_\\w+ is complete\n");
      assertThat(sandbox.documentSets())
          .singleElement()
          .satisfies(set -> assertThat(set.id()).isEqualTo(printed.split(" ")[0]));
    }
  }

  interface Program {
    void run() throws Exception;
  }

  /** Runs a program, returning what it printed on standard output (and printing it too). */
  private static String run(Program program) throws Exception {
    PrintStream original = System.out;
    ByteArrayOutputStream printed = new ByteArrayOutputStream();
    System.setOut(new PrintStream(printed, true, UTF_8));
    try {
      program.run();
    } finally {
      System.setOut(original);
    }
    original.print(printed.toString(UTF_8));
    return printed.toString(UTF_8);
  }
}
