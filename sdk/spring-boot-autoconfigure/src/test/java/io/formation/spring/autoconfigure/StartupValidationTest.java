package io.formation.spring.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Configuration;

/**
 * A bad {@code formation.*} value stops the application at startup with Spring Boot's failure
 * report naming the property and the reason, and never showing the token.
 */
@ExtendWith(OutputCaptureExtension.class)
class StartupValidationTest {
  static final String TOKEN = "tok-3c1f9a-secret";

  @Configuration(proxyBeanMethods = false)
  @ImportAutoConfiguration(FormationAutoConfiguration.class)
  static class Application {}

  @Test
  void aMissingBaseUrlNamesTheProperty(CapturedOutput output) {
    InvalidFormationPropertyException failure = startWith("--formation.access-token=" + TOKEN);

    assertThat(failure.property()).isEqualTo("formation.base-url");
    assertThat(output)
        .contains("APPLICATION FAILED TO START")
        .contains("formation.base-url")
        .contains("The service's base URL is required")
        .doesNotContain(TOKEN);
  }

  @Test
  void aMalformedBaseUrlNamesThePropertyAndTheSdksReason(CapturedOutput output) {
    InvalidFormationPropertyException failure =
        startWith("--formation.base-url=not a url", "--formation.access-token=" + TOKEN);

    assertThat(failure.property()).isEqualTo("formation.base-url");
    assertThat(output)
        .contains("formation.base-url")
        .contains("base URL is not an http(s) URL")
        .doesNotContain(TOKEN);
  }

  @Test
  void plainHttpToAnotherHostNamesTheBaseUrl(CapturedOutput output) {
    InvalidFormationPropertyException failure =
        startWith("--formation.base-url=http://api.example.com", "--formation.access-token=t");

    assertThat(failure.property()).isEqualTo("formation.base-url");
    assertThat(output).contains("uses plain http for a host that is not loopback");
  }

  @Test
  void aBlankTokenNamesThePropertyWithoutShowingIt(CapturedOutput output) {
    InvalidFormationPropertyException failure =
        startWith("--formation.base-url=https://api.example.com", "--formation.access-token=   ");

    assertThat(failure.property()).isEqualTo("formation.access-token");
    assertThat(output).contains("formation.access-token").contains("must not be blank");
  }

  @Test
  void aMissingTokenSaysWhereOneComesFrom(CapturedOutput output) {
    InvalidFormationPropertyException failure =
        startWith("--formation.base-url=https://api.example.com");

    assertThat(failure.property()).isEqualTo("formation.access-token");
    assertThat(output).contains("define a TokenProvider bean");
  }

  @Test
  void aTokenThatIsAnUnresolvedPlaceholderNamesThePropertyAndTheVariable(CapturedOutput output) {
    assumeTrue(System.getenv("FORMATION_ACCESS_TOKEN") == null, "FORMATION_ACCESS_TOKEN is unset");

    // The docs' own line, with the variable unset: Spring leaves the placeholder as it is.
    InvalidFormationPropertyException failure =
        startWith(
            "--formation.base-url=https://api.example.com",
            "--formation.access-token=${FORMATION_ACCESS_TOKEN}");

    assertThat(failure.property()).isEqualTo("formation.access-token");
    assertThat(output)
        .contains("APPLICATION FAILED TO START")
        .contains(
            "formation.access-token is the placeholder ${FORMATION_ACCESS_TOKEN}, and nothing"
                + " resolves it: set the environment variable FORMATION_ACCESS_TOKEN");
  }

  @Test
  void aBaseUrlThatIsAnUnresolvedPlaceholderNamesThePropertyAndTheVariable(CapturedOutput output) {
    assumeTrue(System.getenv("FORMATION_BASE_URL") == null, "FORMATION_BASE_URL is unset");

    InvalidFormationPropertyException failure =
        startWith(
            "--formation.base-url=${FORMATION_BASE_URL}", "--formation.access-token=" + TOKEN);

    assertThat(failure.property()).isEqualTo("formation.base-url");
    assertThat(output)
        .contains("set the environment variable FORMATION_BASE_URL")
        .doesNotContain(TOKEN);
  }

  @Test
  void aTokenThatCannotBeSentIsRefusedWithoutShowingIt(CapturedOutput output) {
    String unsendable = TOKEN + "\u0001";
    InvalidFormationPropertyException failure =
        startWith(
            "--formation.base-url=https://api.example.com",
            "--formation.access-token=" + unsendable);

    assertThat(failure.property()).isEqualTo("formation.access-token");
    assertThat(output)
        .contains("formation.access-token")
        .contains("not allowed in an HTTP header")
        .doesNotContain(TOKEN);
  }

  @Test
  void aNegativeTimeoutNamesTheProperty(CapturedOutput output) {
    InvalidFormationPropertyException failure =
        startWith(
            "--formation.base-url=https://api.example.com",
            "--formation.access-token=" + TOKEN,
            "--formation.read-timeout=-5s");

    assertThat(failure.property()).isEqualTo("formation.read-timeout");
    assertThat(output)
        .contains("formation.read-timeout")
        .contains("readTimeout must be between 0 and")
        .doesNotContain(TOKEN);
  }

  @Test
  void halfARequestBudgetNamesTheMissingHalf() {
    InvalidFormationPropertyException failure =
        startWith(
            "--formation.base-url=https://api.example.com",
            "--formation.access-token=" + TOKEN,
            "--formation.request-budget.requests-per-second=5");

    assertThat(failure.property()).isEqualTo("formation.request-budget.burst");
  }

  private static InvalidFormationPropertyException startWith(String... args) {
    SpringApplication application = new SpringApplication(Application.class);
    application.setWebApplicationType(WebApplicationType.NONE);
    Throwable thrown = catchThrowable(() -> application.run(args).close());
    assertThat(thrown).as("the application failed to start").isNotNull();
    Throwable cause = thrown;
    while (cause != null && !(cause instanceof InvalidFormationPropertyException)) {
      cause = cause.getCause();
    }
    assertThat(cause).as("the property's failure, in %s", thrown).isNotNull();
    return (InvalidFormationPropertyException) cause;
  }
}
