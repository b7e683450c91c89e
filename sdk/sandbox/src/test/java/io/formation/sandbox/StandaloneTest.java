package io.formation.sandbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.offset;

import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** The sandbox as a program: its command line, what it prints, and a client that uses that. */
final class StandaloneTest {
  private static final HttpClient CLIENT = HttpClient.newHttpClient();

  @Test
  void noArgumentsMeanTheDefaults() {
    SandboxOptions options = Standalone.parse();

    assertThat(options.port()).isZero();
    assertThat(options.review()).isFalse();
    assertThat(options.faults()).isEqualTo(Faults.none());
    assertThat(options.processingLag()).isEqualTo(SandboxOptions.DEFAULT_PROCESSING_LAG);
  }

  @Test
  void everyOptionIsRead() {
    SandboxOptions options =
        Standalone.parse(
            "--port",
            "8123",
            "--review",
            "--faults",
            "0.3",
            "--seed",
            "99",
            "--retry-after",
            "2s",
            "--lag",
            "250ms",
            "--step",
            "PT0.1S",
            "--token",
            "local-token");

    assertThat(options.port()).isEqualTo(8123);
    assertThat(options.review()).isTrue();
    assertThat(options.faults().rateLimited()).isEqualTo(0.1, offset(1e-9));
    assertThat(options.faults().unavailable()).isEqualTo(0.1, offset(1e-9));
    assertThat(options.faults().dropped()).isEqualTo(0.1, offset(1e-9));
    assertThat(options.faults().seed()).isEqualTo(99);
    assertThat(options.faults().retryAfter()).isEqualTo(Duration.ofSeconds(2));
    assertThat(options.processingLag()).isEqualTo(Duration.ofMillis(250));
    assertThat(options.stepDelay()).isEqualTo(Duration.ofMillis(100));
    assertThat(options.token()).isEqualTo("local-token");
  }

  @ParameterizedTest
  @CsvSource({"0, 0", "1500ms, 1500", "2s, 2000", "1.5s, 1500", "PT0.7S, 700"})
  void durationsAreWrittenAsPeopleWriteThem(String text, long millis) {
    assertThat(Standalone.duration("--lag", text)).isEqualTo(Duration.ofMillis(millis));
  }

  @ParameterizedTest
  @ValueSource(
      strings = {"--port x", "--port", "--faults 2", "--faults x", "--lag soon", "--lag -1s", "-v"})
  void nonsenseIsRejectedWithTheOptionNamed(String line) {
    String[] args = line.split(" ");

    assertThatThrownBy(() -> Standalone.parse(args))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(args[0]);
  }

  @Test
  void startPrintsTheBaseUrlAndTokenThatARealClientThenUses() throws Exception {
    ByteArrayOutputStream printed = new ByteArrayOutputStream();
    try (FormationSandbox sandbox =
        Standalone.start(
            Standalone.parse("--token", "printed-token"),
            new PrintStream(printed, true, StandardCharsets.UTF_8))) {
      Map<String, String> variables = variables(printed.toString(StandardCharsets.UTF_8));

      assertThat(variables)
          .containsOnlyKeys("FORMATION_BASE_URL", "FORMATION_ACCESS_TOKEN")
          .containsEntry("FORMATION_BASE_URL", sandbox.baseUrl())
          .containsEntry("FORMATION_ACCESS_TOKEN", "printed-token");
      assertThat(teamsStatus(variables)).isEqualTo(200);
    }
  }

  /**
   * Runs {@code main} in a JVM of its own, from the module path as a partner would with {@code java
   * -p ... -m io.formation.sandbox/io.formation.sandbox.Standalone}, and talks to it.
   */
  @Test
  void mainServesFromTheModulePathUntilKilled() throws Exception {
    String modulePath = System.getProperty("jdk.module.path");
    assertThat(modulePath).as("the tests run on the module path").isNotBlank();
    Path java = Path.of(System.getProperty("java.home"), "bin", "java");
    Process process =
        new ProcessBuilder(
                java.toString(),
                "--module-path",
                modulePath,
                "--module",
                "io.formation.sandbox/io.formation.sandbox.Standalone",
                "--lag",
                "0")
            .redirectError(ProcessBuilder.Redirect.DISCARD)
            .start();
    try {
      BufferedReader out =
          new BufferedReader(
              new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
      List<String> lines = new ArrayList<>();
      for (int i = 0; i < 2; i++) {
        String line = out.readLine();
        assertThat(line).as("line %d of the program's output", i + 1).isNotNull();
        lines.add(line);
      }
      Map<String, String> variables = variables(String.join("\n", lines));

      assertThat(variables.get("FORMATION_BASE_URL")).matches("http://127\\.0\\.0\\.1:[0-9]+");
      assertThat(variables.get("FORMATION_ACCESS_TOKEN")).isEqualTo(SandboxOptions.DEFAULT_TOKEN);
      assertThat(teamsStatus(variables)).isEqualTo(200);
      assertThat(process.isAlive()).isTrue();
    } finally {
      process.destroy();
      process.waitFor();
    }
  }

  private static Map<String, String> variables(String printed) {
    Map<String, String> variables = new LinkedHashMap<>();
    printed
        .lines()
        .forEach(
            line -> {
              int equals = line.indexOf('=');
              variables.put(line.substring(0, equals), line.substring(equals + 1));
            });
    return variables;
  }

  private static int teamsStatus(Map<String, String> variables)
      throws IOException, InterruptedException {
    HttpRequest request =
        HttpRequest.newBuilder(URI.create(variables.get("FORMATION_BASE_URL") + "/v1/teams"))
            .header("Authorization", "Bearer " + variables.get("FORMATION_ACCESS_TOKEN"))
            .timeout(Duration.ofSeconds(30))
            .build();
    return CLIENT.send(request, HttpResponse.BodyHandlers.ofString()).statusCode();
  }
}
