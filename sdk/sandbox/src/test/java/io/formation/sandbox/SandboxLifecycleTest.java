package io.formation.sandbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Starting, serving from named daemon threads, and stopping. */
final class SandboxLifecycleTest {

  @Test
  void sandboxListensOnLoopbackWithoutATrailingSlash() {
    try (FormationSandbox sandbox = FormationSandbox.start()) {
      assertThat(sandbox.baseUrl()).matches("http://127\\.0\\.0\\.1:[0-9]+");
      assertThat(sandbox.token()).isEqualTo("sandbox-token");
    }
  }

  @Test
  void twoSandboxesRunSideBySideOnDifferentPorts() {
    try (FormationSandbox first = FormationSandbox.start();
        FormationSandbox second = FormationSandbox.start()) {
      assertThat(first.baseUrl()).isNotEqualTo(second.baseUrl());
      assertThat(new SandboxHttp(first).get("/v1/teams").status()).isEqualTo(200);
      assertThat(new SandboxHttp(second).get("/v1/teams").status()).isEqualTo(200);
    }
  }

  @Test
  void requestsAreServedByNamedDaemonThreads() {
    try (FormationSandbox sandbox = FormationSandbox.start()) {
      new SandboxHttp(sandbox).get("/v1/teams");

      assertThat(sandboxThreads())
          .isNotEmpty()
          .allSatisfy(thread -> assertThat(thread.isDaemon()).isTrue());
    }
  }

  @Test
  void closeStopsTheServerAndItsThreads() {
    FormationSandbox sandbox = FormationSandbox.start();
    SandboxHttp http = new SandboxHttp(sandbox);
    http.get("/v1/teams");

    sandbox.close();

    assertThat(sandboxThreads()).isEmpty();
    assertThatThrownBy(() -> http.get("/v1/teams")).isInstanceOf(UncheckedIOException.class);
  }

  @Test
  void closingTwiceIsHarmless() {
    FormationSandbox sandbox = FormationSandbox.start();
    sandbox.close();
    sandbox.close();
  }

  @Test
  void optionsRejectNonsense() {
    SandboxOptions defaults = SandboxOptions.defaults();

    assertThatThrownBy(() -> defaults.withToken("two words"))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> defaults.withTeamCount(-1))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> defaults.withStepDelay(Duration.ofMillis(-1)))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> defaults.withProcessingLag(Duration.ofMillis(-1)))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> defaults.withProgression(List.of("finalizing")))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> defaults.withProgression(List.of("input_needed", "complete")))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> defaults.withProgression(List.of("complete", "complete")))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(
            () -> defaults.withProgression(List.of("finalizing", "complete")).withReview(true))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> defaults.withPort(70_000))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> Faults.none().withRateLimited(1.5))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> Faults.none().withRateLimited(0.6).withDropped(0.6))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> Faults.none().withRetryAfter(Duration.ofSeconds(-1)))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void defaultOptionsMatchTheDocumentedValues() {
    SandboxOptions defaults = SandboxOptions.defaults();

    assertThat(defaults.token()).isEqualTo("sandbox-token");
    assertThat(defaults.teamCount()).isEqualTo(120);
    assertThat(defaults.stepDelay()).isEqualTo(Duration.ofMillis(700));
    assertThat(defaults.processingLag()).isEqualTo(Duration.ofMillis(1500));
    assertThat(defaults.progression()).isEqualTo(SandboxOptions.DEFAULT_PROGRESSION);
    assertThat(defaults.review()).isFalse();
    assertThat(defaults.faults()).isEqualTo(Faults.none());
    assertThat(defaults.faults().retryAfter()).isEqualTo(Duration.ofSeconds(1));
    assertThat(defaults.port()).isZero();
  }

  @Test
  void optionsNeverShowTheToken() {
    assertThat(SandboxOptions.defaults().withToken("very-secret").toString())
        .doesNotContain("very-secret");
  }

  @Test
  void sandboxListensOnTheChosenPort() throws IOException {
    int port;
    try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      port = probe.getLocalPort();
    }
    try (FormationSandbox sandbox =
        FormationSandbox.start(SandboxOptions.defaults().withPort(port))) {
      assertThat(sandbox.baseUrl()).isEqualTo("http://127.0.0.1:" + port);
      assertThat(new SandboxHttp(sandbox).get("/v1/teams").status()).isEqualTo(200);
    }
  }

  @Test
  void portInUseFailsToStart() {
    try (FormationSandbox first = FormationSandbox.start()) {
      int port = Integer.parseInt(first.baseUrl().substring(first.baseUrl().lastIndexOf(':') + 1));
      assertThatThrownBy(() -> FormationSandbox.start(SandboxOptions.defaults().withPort(port)))
          .isInstanceOf(UncheckedIOException.class);
    }
  }

  private static List<Thread> sandboxThreads() {
    return Thread.getAllStackTraces().keySet().stream()
        .filter(thread -> thread.getName().startsWith("formation-sandbox-"))
        .filter(Thread::isAlive)
        .toList();
  }
}
