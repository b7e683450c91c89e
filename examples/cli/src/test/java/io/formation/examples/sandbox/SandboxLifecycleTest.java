package io.formation.examples.sandbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Starting, serving from named daemon threads, and stopping. */
final class SandboxLifecycleTest {

  @Test
  void sandboxListensOnLoopbackWithoutATrailingSlash() {
    try (Sandbox sandbox = Sandbox.start()) {
      assertThat(sandbox.baseUrl()).matches("http://127\\.0\\.0\\.1:[0-9]+");
      assertThat(sandbox.token()).isEqualTo("sandbox-token");
    }
  }

  @Test
  void twoSandboxesRunSideBySideOnDifferentPorts() {
    try (Sandbox first = Sandbox.start();
        Sandbox second = Sandbox.start()) {
      assertThat(first.baseUrl()).isNotEqualTo(second.baseUrl());
      assertThat(new SandboxHttp(first).get("/v1/teams").status()).isEqualTo(200);
      assertThat(new SandboxHttp(second).get("/v1/teams").status()).isEqualTo(200);
    }
  }

  @Test
  void requestsAreServedByNamedDaemonThreads() {
    try (Sandbox sandbox = Sandbox.start()) {
      new SandboxHttp(sandbox).get("/v1/teams");

      assertThat(sandboxThreads())
          .isNotEmpty()
          .allSatisfy(thread -> assertThat(thread.isDaemon()).isTrue());
    }
  }

  @Test
  void closeStopsTheServerAndItsThreads() {
    Sandbox sandbox = Sandbox.start();
    SandboxHttp http = new SandboxHttp(sandbox);
    http.get("/v1/teams");

    long started = System.nanoTime();
    sandbox.close();

    assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(2));
    assertThat(sandboxThreads()).isEmpty();
    assertThatThrownBy(() -> http.get("/v1/teams")).isInstanceOf(UncheckedIOException.class);
  }

  @Test
  void closingTwiceIsHarmless() {
    Sandbox sandbox = Sandbox.start();
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
  }

  @Test
  void defaultOptionsMatchTheDocumentedValues() {
    SandboxOptions defaults = SandboxOptions.defaults();

    assertThat(defaults.token()).isEqualTo("sandbox-token");
    assertThat(defaults.teamCount()).isEqualTo(120);
    assertThat(defaults.stepDelay()).isEqualTo(Duration.ofMillis(700));
  }

  private static List<Thread> sandboxThreads() {
    return Thread.getAllStackTraces().keySet().stream()
        .filter(thread -> thread.getName().startsWith("formation-sandbox-"))
        .filter(Thread::isAlive)
        .toList();
  }
}
