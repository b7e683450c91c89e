package io.formation.examples.web;

import static org.assertj.core.api.Assertions.assertThat;

import io.formation.sandbox.FormationSandbox;
import io.formation.sandbox.SandboxOptions;
import io.formation.sandbox.SandboxRequest;
import io.formation.spring.autoconfigure.FormationProperties;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.ApplicationContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * With {@code formation.base-url} and {@code formation.access-token} set (as FORMATION_BASE_URL and
 * FORMATION_ACCESS_TOKEN would), the application calls that service and starts no sandbox. The
 * service here is a sandbox the test runs itself, standing in for the real one.
 */
@ExtendWith(OutputCaptureExtension.class)
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
class ConfiguredServiceTest {
  private static final String TOKEN = "tok-" + UUID.randomUUID();
  private static final FormationSandbox SERVICE =
      FormationSandbox.start(SandboxOptions.defaults().withToken(TOKEN));

  @DynamicPropertySource
  static void service(DynamicPropertyRegistry registry) {
    registry.add("formation.base-url", SERVICE::baseUrl);
    registry.add("formation.access-token", () -> TOKEN);
  }

  @AfterAll
  static void stopService() {
    SERVICE.close();
  }

  @LocalServerPort int port;
  @Autowired ApplicationContext context;

  @Test
  void theConfiguredServiceIsCalledWithTheConfiguredToken() {
    PageClient page = new PageClient(port);

    PageClient.Received started = page.postJson("/api/formations", "{}");

    assertThat(started.status()).isEqualTo(201);
    assertThat(SERVICE.documentSets()).hasSize(1);
    assertThat(SERVICE.requests()).isNotEmpty().allMatch(SandboxRequest::authorized);
  }

  @Test
  void noSandboxIsStarted(CapturedOutput output) {
    assertThat(context.getBeansOfType(FormationSandbox.class)).isEmpty();
    assertThat(output).doesNotContain("Formation sandbox");
  }

  @Test
  void theLogSaysWhereToOpenThePageAndNeverShowsTheToken(CapturedOutput output) {
    assertThat(output).contains("Open http://localhost:" + port);
    assertThat(context.getBean(FormationProperties.class).toString())
        .contains(SERVICE.baseUrl())
        .doesNotContain(TOKEN);
    assertThat(output).doesNotContain(TOKEN);
  }
}
