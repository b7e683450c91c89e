package com.example.partner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

/** A bad formation.* property stops the application with a report naming it, never the token. */
@ExtendWith(OutputCaptureExtension.class)
class StartupFailureTest {
  static final String TOKEN = "tok-7d02e4-never-shown";

  @Test
  void aMissingBaseUrlIsNamed(CapturedOutput output) {
    assertFailsToStart("--formation.access-token=" + TOKEN);

    assertThat(output)
        .contains("APPLICATION FAILED TO START")
        .contains("'formation.base-url'")
        .doesNotContain(TOKEN);
  }

  @Test
  void aMalformedBaseUrlIsNamed(CapturedOutput output) {
    assertFailsToStart("--formation.base-url=api.example.com", "--formation.access-token=" + TOKEN);

    assertThat(output).contains("'formation.base-url'").doesNotContain(TOKEN);
  }

  @Test
  void aBlankTokenIsNamed(CapturedOutput output) {
    assertFailsToStart(
        "--formation.base-url=https://api.example.com", "--formation.access-token= ");

    assertThat(output).contains("'formation.access-token'");
  }

  @Test
  void aTokenLeftAsThePlaceholderOfAnUnsetVariableIsNamedWithTheVariable(CapturedOutput output) {
    assumeTrue(System.getenv("FORMATION_ACCESS_TOKEN") == null, "FORMATION_ACCESS_TOKEN is unset");

    // The docs' own line: Spring leaves a placeholder it cannot resolve as it is.
    assertFailsToStart(
        "--formation.base-url=https://api.example.com",
        "--formation.access-token=${FORMATION_ACCESS_TOKEN}");

    assertThat(output)
        .contains("APPLICATION FAILED TO START")
        .contains("'formation.access-token'")
        .contains("set the environment variable FORMATION_ACCESS_TOKEN");
  }

  @Test
  void aNegativeTimeoutIsNamed(CapturedOutput output) {
    assertFailsToStart(
        "--formation.base-url=https://api.example.com",
        "--formation.access-token=" + TOKEN,
        "--formation.connect-timeout=-1s");

    assertThat(output).contains("'formation.connect-timeout'").doesNotContain(TOKEN);
  }

  private static void assertFailsToStart(String... args) {
    SpringApplication application = new SpringApplication(PartnerApplication.class);
    application.setWebApplicationType(WebApplicationType.NONE);
    assertThatThrownBy(() -> application.run(args).close()).isNotNull();
  }
}
