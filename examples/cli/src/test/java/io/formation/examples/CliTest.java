package io.formation.examples;

import static org.assertj.core.api.Assertions.assertThat;

import io.formation.sandbox.FormationSandbox;
import io.formation.sandbox.SandboxOptions;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Help, exit codes, environment variables and --debug, through the program's in-process entry. */
final class CliTest {
  private static final String TOKEN = "test-token-q8Zr3vXk1";
  private FormationSandbox sandbox;

  @BeforeEach
  void start() {
    sandbox =
        FormationSandbox.start(
            SandboxOptions.defaults()
                .withToken(TOKEN)
                .withProcessingLag(Duration.ZERO)
                .withStepDelay(Duration.ofMillis(20)));
  }

  @AfterEach
  void stop() {
    sandbox.close();
  }

  @Test
  void helpListsTheCommandsAndExitsWithZero() {
    ProgramRun run = ProgramRun.run(Map.of(), "", false, "help");

    assertThat(run.code()).as(run.toString()).isZero();
    assertThat(run.out())
        .contains("teams", "quickstart", "status", "sandbox", "help", "FORMATION_BASE_URL");
    assertThat(run.err()).isEmpty();
  }

  @ParameterizedTest
  @ValueSource(strings = {"teams", "quickstart", "status", "sandbox"})
  void everyCommandHasItsOwnHelp(String command) {
    ProgramRun run = ProgramRun.run(Map.of(), "", false, command, "--help");

    assertThat(run.code()).as(run.toString()).isZero();
    assertThat(run.out()).contains("Usage: java -jar formation-cli.jar " + command);
    assertThat(sandbox.requests()).isEmpty();
  }

  @Test
  void helpForACommandCanBeAskedEitherWay() {
    ProgramRun viaHelp = ProgramRun.run(Map.of(), "", false, "help", "status");
    ProgramRun viaFlag = ProgramRun.run(Map.of(), "", false, "status", "-h");

    assertThat(viaHelp.code()).isZero();
    assertThat(viaHelp.out()).contains("status [-h]", "--wait", "<id>").isEqualTo(viaFlag.out());
  }

  @Test
  void sharedOptionsMayComeBeforeTheCommandAndTakeTheirValueAfterAnEqualsSign() {
    ProgramRun run =
        ProgramRun.run(
            Map.of(),
            "",
            false,
            "--base-url=" + sandbox.baseUrl(),
            "--token",
            TOKEN,
            "--trust-origin",
            "https://files.example.com",
            "teams",
            "--trust-origin=https://cdn.example.com");

    assertThat(run.code()).as(run.toString()).isZero();
    assertThat(run.results()).hasSize(120);
    assertThat(run.out()).doesNotContain("embedded sandbox");
  }

  @Test
  void anOptionOfAnotherCommandIsAUsageError() {
    ProgramRun run = ProgramRun.against(sandbox, "teams", "--wait");

    assertThat(run.code()).as(run.toString()).isEqualTo(2);
    assertThat(run.errLines()).singleElement().asString().contains("'--wait'", "teams --help");
    assertThat(sandbox.requests()).isEmpty();
  }

  @Test
  void aMissingValueIsAUsageError() {
    ProgramRun run = ProgramRun.run(Map.of(), "", false, "teams", "--base-url");

    assertThat(run.code()).as(run.toString()).isEqualTo(2);
    assertThat(run.errLines()).singleElement().asString().contains("--base-url");
  }

  @Test
  void theSandboxCommandPrintsHowToReachItAndServesUntilStopped() throws InterruptedException {
    BlockingQueue<String> lines = new LinkedBlockingQueue<>();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    AtomicInteger code = new AtomicInteger(-1);
    Thread program =
        new Thread(
            () ->
                code.set(
                    Cli.run(
                        new String[] {"sandbox", "--review", "--faults", "0.1", "--seed", "3"},
                        Map.of(),
                        InputStream.nullInputStream(),
                        new PrintStream(new LineSink(lines), true, StandardCharsets.UTF_8),
                        new PrintStream(err, true, StandardCharsets.UTF_8),
                        false,
                        ProgramRun.FIRST_POLL)));
    program.start();
    String baseUrl = lines.poll(30, TimeUnit.SECONDS);
    String token = lines.poll(30, TimeUnit.SECONDS);

    assertThat(baseUrl).startsWith("FORMATION_BASE_URL=http://127.0.0.1:");
    assertThat(token).isEqualTo("FORMATION_ACCESS_TOKEN=" + SandboxOptions.DEFAULT_TOKEN);
    Map<String, String> env =
        Map.of(
            "FORMATION_BASE_URL", baseUrl.substring(baseUrl.indexOf('=') + 1),
            "FORMATION_ACCESS_TOKEN", token.substring(token.indexOf('=') + 1));
    ProgramRun teams = ProgramRun.run(env, "", false, "teams");
    assertThat(teams.code()).as(teams.toString()).isZero();
    assertThat(teams.results()).hasSize(SandboxOptions.DEFAULT_TEAM_COUNT);

    program.interrupt();
    program.join(TimeUnit.SECONDS.toMillis(30));
    assertThat(program.isAlive()).isFalse();
    assertThat(code.get()).isZero();
    assertThat(err.toString(StandardCharsets.UTF_8)).isEmpty();
  }

  @Test
  void aFaultFractionAboveOneIsAUsageError() {
    ProgramRun run = ProgramRun.run(Map.of(), "", false, "sandbox", "--faults", "1.5");

    assertThat(run.code()).as(run.toString()).isEqualTo(2);
    assertThat(run.errLines()).singleElement().asString().contains("1.5", "sandbox --help");
  }

  /** Standard output split into lines as they are printed. */
  private static final class LineSink extends OutputStream {
    private final BlockingQueue<String> lines;
    private final ByteArrayOutputStream line = new ByteArrayOutputStream();

    LineSink(BlockingQueue<String> lines) {
      this.lines = lines;
    }

    @Override
    public synchronized void write(int b) {
      if (b == '\n') {
        lines.add(line.toString(StandardCharsets.UTF_8));
        line.reset();
      } else {
        line.write(b);
      }
    }
  }

  @Test
  void noArgumentsPrintsTheUsageOnStandardErrorAndExitsWithTwo() {
    ProgramRun run = ProgramRun.run(Map.of(), "", false);

    assertThat(run.code()).as(run.toString()).isEqualTo(2);
    assertThat(run.err()).startsWith("Usage: ");
    assertThat(run.out()).isEmpty();
  }

  @Test
  void anUnknownCommandIsAUsageErrorOnOneLine() {
    ProgramRun run = ProgramRun.run(Map.of(), "", false, "frobnicate");

    assertThat(run.code()).as(run.toString()).isEqualTo(2);
    assertThat(run.errLines())
        .singleElement()
        .asString()
        .startsWith("error: ")
        .contains("'frobnicate'", "java -jar formation-cli.jar --help");
    assertThat(run.out()).isEmpty();
  }

  @Test
  void anUnknownOptionIsAUsageErrorOnOneLine() {
    ProgramRun run = ProgramRun.against(sandbox, "teams", "--frobnicate");

    assertThat(run.code()).as(run.toString()).isEqualTo(2);
    assertThat(run.errLines())
        .singleElement()
        .asString()
        .startsWith("error: ")
        .contains("'--frobnicate'", "teams --help");
    assertThat(sandbox.requests()).isEmpty();
  }

  @Test
  void aBaseUrlWithoutATokenIsAUsageErrorNamingBothWaysToGiveOne() {
    ProgramRun run = ProgramRun.run(Map.of(), "", false, "teams", "--base-url", sandbox.baseUrl());

    assertThat(run.code()).as(run.toString()).isEqualTo(2);
    assertThat(run.errLines())
        .singleElement()
        .asString()
        .contains("--token", "FORMATION_ACCESS_TOKEN");
    assertThat(sandbox.requests()).isEmpty();
  }

  @Test
  void theBaseUrlAndTokenAreReadFromTheEnvironment() {
    Map<String, String> env =
        Map.of("FORMATION_BASE_URL", sandbox.baseUrl(), "FORMATION_ACCESS_TOKEN", TOKEN);

    ProgramRun run = ProgramRun.run(env, "", false, "teams");

    assertThat(run.code()).as(run.toString()).isZero();
    assertThat(run.results()).hasSize(120);
    assertThat(run.out()).doesNotContain("sandbox");
  }

  @Test
  void aWrongTokenFailsWithOneLineNamingThe401() {
    ProgramRun run =
        ProgramRun.run(
            Map.of(), "", false, "teams", "--base-url", sandbox.baseUrl(), "--token", "wrong");

    assertThat(run.code()).as(run.toString()).isEqualTo(1);
    assertThat(run.errLines()).singleElement().asString().startsWith("error: ").contains("401");
  }

  @Test
  void plainHttpToAHostThatIsNotLoopbackIsAUsageError() {
    ProgramRun run =
        ProgramRun.run(
            Map.of(),
            "",
            false,
            "teams",
            "--base-url",
            "http://formation.example",
            "--token",
            TOKEN);

    assertThat(run.code()).as(run.toString()).isEqualTo(2);
    assertThat(run.errLines()).singleElement().asString().contains("plain http");
    assertThat(run.err()).doesNotContain(TOKEN);
  }

  @Test
  void debugShowsTheRequestLogAndTheStackTraceButNeverTheToken() {
    ProgramRun run = ProgramRun.against(sandbox, "status", "nosuch", "--debug");

    assertThat(run.code()).as(run.toString()).isEqualTo(1);
    assertThat(run.errLines())
        .anyMatch(
            line ->
                line.startsWith("# GET " + sandbox.baseUrl() + "/v1/document_sets/nosuch")
                    && line.contains("-> 404")
                    && line.contains(" ms"))
        .anyMatch(line -> line.contains("Authorization: Bearer <redacted>"))
        .anyMatch(line -> line.startsWith("error: ") && line.contains("404"))
        .anyMatch(line -> line.startsWith("\tat io.formation."));
    assertThat(run.out() + run.err()).doesNotContain(TOKEN);
  }

  @Test
  void debugLogsEveryRequestOfAQuickstartAndNeverTheToken() {
    ProgramRun run = ProgramRun.against(sandbox, "quickstart", "--autofill", "--debug");

    assertThat(run.code()).as(run.toString()).isZero();
    assertThat(run.errLines()).isNotEmpty().allMatch(line -> line.startsWith("# "));
    assertThat(run.errLines())
        .anyMatch(line -> line.startsWith("# POST ") && line.contains("-> 201"))
        .anyMatch(line -> line.startsWith("# PUT ") && line.contains("-> 200"))
        .anyMatch(line -> line.startsWith("# wait for document set ") && line.contains("complete"));
    assertThat(run.out() + run.err()).doesNotContain(TOKEN);
    assertThat(sandbox.requests()).isNotEmpty().allMatch(request -> request.authorized());
  }
}
