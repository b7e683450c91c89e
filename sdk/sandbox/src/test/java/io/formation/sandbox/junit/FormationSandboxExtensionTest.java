package io.formation.sandbox.junit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import io.formation.sandbox.FormationSandbox;
import io.formation.sandbox.SandboxOptions;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.Socket;
import java.net.URI;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.platform.launcher.Launcher;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;
import org.junit.platform.launcher.listeners.SummaryGeneratingListener;
import org.junit.platform.launcher.listeners.TestExecutionSummary;

/**
 * Runs small test classes that use the extension through the JUnit Platform, then checks which
 * sandboxes they saw and that each was closed afterwards. The classes below are nested and static,
 * so the build's own test run skips them; only this test launches them.
 */
final class FormationSandboxExtensionTest {
  static final List<FormationSandbox> SEEN = new CopyOnWriteArrayList<>();

  @Test
  void staticFieldShareOneSandboxAcrossTheClassAndCloseItAfterwards() {
    TestExecutionSummary summary = run(StaticField.class);

    assertThat(summary.getTestsSucceededCount()).isEqualTo(2);
    assertThat(summary.getTotalFailureCount()).isZero();
    assertThat(SEEN).hasSize(2);
    assertThat(SEEN.get(0)).isSameAs(SEEN.get(1));
    assertClosed(SEEN.get(0));
  }

  @Test
  void optionsGivenToTheExtensionAreTheSandboxes() {
    run(StaticField.class);

    assertThat(SEEN.get(0).token()).isEqualTo("extension-token");
    assertThat(SEEN.get(0).options().review()).isTrue();
  }

  @Test
  void instanceFieldGivesEveryTestItsOwnSandbox() {
    TestExecutionSummary summary = run(InstanceField.class);

    assertThat(summary.getTestsSucceededCount()).isEqualTo(2);
    assertThat(SEEN).hasSize(2);
    assertThat(SEEN.get(0)).isNotSameAs(SEEN.get(1));
    SEEN.forEach(FormationSandboxExtensionTest::assertClosed);
  }

  @Test
  void extendWithInjectsADefaultSandboxIntoConstructorsAndMethods() {
    TestExecutionSummary summary = run(Declarative.class);

    assertThat(summary.getTestsSucceededCount()).isEqualTo(1);
    assertThat(summary.getTotalFailureCount()).isZero();
    assertThat(SEEN).hasSize(2);
    assertThat(SEEN.get(0)).isSameAs(SEEN.get(1));
    assertThat(SEEN.get(0).token()).isEqualTo(SandboxOptions.DEFAULT_TOKEN);
    assertClosed(SEEN.get(0));
  }

  @Test
  void sandboxIsNotAvailableOutsideATest() {
    FormationSandboxExtension extension = FormationSandboxExtension.withDefaults();

    assertThatThrownBy(extension::get).isInstanceOf(IllegalStateException.class);
  }

  private static TestExecutionSummary run(Class<?> testClass) {
    SEEN.clear();
    Launcher launcher = LauncherFactory.create();
    SummaryGeneratingListener listener = new SummaryGeneratingListener();
    launcher.execute(
        LauncherDiscoveryRequestBuilder.request().selectors(selectClass(testClass)).build(),
        listener);
    return listener.getSummary();
  }

  private static void assertClosed(FormationSandbox sandbox) {
    int port = URI.create(sandbox.baseUrl()).getPort();
    assertThatThrownBy(
            () -> {
              try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), port)) {
                socket.getInputStream();
              } catch (IOException e) {
                throw new UncheckedIOException(e);
              }
            })
        .isInstanceOf(UncheckedIOException.class);
  }

  @TestMethodOrder(MethodOrderer.MethodName.class)
  static final class StaticField {
    @RegisterExtension
    static FormationSandboxExtension sandbox =
        FormationSandboxExtension.withOptions(
            SandboxOptions.defaults().withToken("extension-token").withReview(true));

    @Test
    void a() {
      SEEN.add(sandbox.get());
      assertThat(sandbox.baseUrl()).isEqualTo(sandbox.get().baseUrl());
      assertThat(sandbox.token()).isEqualTo("extension-token");
    }

    @Test
    void b(FormationSandbox injected) {
      assertThat(injected).isSameAs(sandbox.get());
      SEEN.add(injected);
    }
  }

  @TestMethodOrder(MethodOrderer.MethodName.class)
  static final class InstanceField {
    @RegisterExtension FormationSandboxExtension sandbox = FormationSandboxExtension.withDefaults();

    @Test
    void a(FormationSandbox injected) {
      assertThat(injected).isSameAs(sandbox.get());
      SEEN.add(injected);
    }

    @Test
    void b() {
      SEEN.add(sandbox.get());
    }
  }

  @ExtendWith(FormationSandboxExtension.class)
  static final class Declarative {
    Declarative(FormationSandbox sandbox) {
      SEEN.add(sandbox);
    }

    @Test
    void injected(FormationSandbox sandbox) {
      SEEN.add(sandbox);
    }
  }
}
