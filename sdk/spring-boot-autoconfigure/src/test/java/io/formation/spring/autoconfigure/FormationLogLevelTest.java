package io.formation.spring.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import io.formation.sdk.Teams;
import mockwebserver3.MockWebServer;
import mockwebserver3.junit5.StartStop;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Configuration;

/**
 * The SDK's log lines go through the application's logging system (Logback here), switched by
 * {@code logging.level.io.formation.sdk} or by the SDK's own {@code FORMATION_LOG} switch.
 */
@ExtendWith(OutputCaptureExtension.class)
class FormationLogLevelTest {
  @StartStop final MockWebServer server = new MockWebServer();

  @Configuration(proxyBeanMethods = false)
  @ImportAutoConfiguration(FormationAutoConfiguration.class)
  static class Application {}

  @Test
  void loggingLevelIoFormationSdkTurnsTheSdksLinesOnInTheApplicationsLog(CapturedOutput output) {
    callTheServiceWith("--logging.level.io.formation.sdk=debug");

    assertThat(output).containsPattern("DEBUG \\d+ --- \\[.*\\] io\\.formation\\.sdk\\s+: ");
  }

  @Test
  void theSdksOwnSwitchIsALevelOfTheApplicationsLogging(CapturedOutput output) {
    callTheServiceWith("--formation.log=debug");

    assertThat(output).containsPattern("DEBUG \\d+ --- \\[.*\\] io\\.formation\\.sdk\\s+: ");
    assertThat(output).doesNotContain("[formation debug]");
  }

  @Test
  void aLevelTheApplicationConfiguresWinsOverTheSwitch(CapturedOutput output) {
    callTheServiceWith("--formation.log=debug", "--logging.level.io.formation.sdk=warn");

    assertThat(output).doesNotContainPattern("DEBUG \\d+ --- \\[.*\\] io\\.formation\\.sdk");
  }

  @Test
  void withoutEitherTheSdkIsQuiet(CapturedOutput output) {
    callTheServiceWith();

    assertThat(output).doesNotContain("io.formation.sdk ");
  }

  private void callTheServiceWith(String... args) {
    server.enqueue(Fixtures.ok("teams.json"));
    SpringApplication application = new SpringApplication(Application.class);
    application.setWebApplicationType(WebApplicationType.NONE);
    String[] all = new String[args.length + 2];
    all[0] = "--formation.base-url=" + server.url("/");
    all[1] = "--formation.access-token=tok-never-logged";
    System.arraycopy(args, 0, all, 2, args.length);
    try (ConfigurableApplicationContext context = application.run(all)) {
      context.getBean(Teams.class).list().pages().iterator().next();
    }
  }
}
