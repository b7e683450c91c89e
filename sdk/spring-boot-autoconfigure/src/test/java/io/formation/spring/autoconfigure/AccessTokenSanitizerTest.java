package io.formation.spring.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.boot.actuate.endpoint.SanitizableData;
import org.springframework.boot.actuate.endpoint.Sanitizer;
import org.springframework.boot.actuate.endpoint.SanitizingFunction;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.core.env.MapPropertySource;

/**
 * The token is masked by Actuator's sanitizer even when the endpoints are told to show values (the
 * Boot 3.5 and 4 consumer projects check it through the real configprops and env endpoints).
 */
class AccessTokenSanitizerTest {
  static final String TOKEN = "tok-51d0c2-secret";

  final ApplicationContextRunner runner =
      new ApplicationContextRunner()
          .withConfiguration(AutoConfigurations.of(FormationAutoConfiguration.class))
          .withPropertyValues(
              "formation.base-url=https://api.example.com", "formation.access-token=" + TOKEN);

  @Test
  void theTokenIsMaskedUnderEverySpellingOfItsKeyEvenWhenValuesAreShown() {
    runner.run(
        context -> {
          Sanitizer sanitizer =
              new Sanitizer(
                  context.getBeanProvider(SanitizingFunction.class).orderedStream().toList());

          for (String key :
              List.of(
                  "formation.access-token",
                  "formation.accessToken",
                  "FORMATION_ACCESS_TOKEN",
                  "formation.access_token")) {
            assertThat(sanitizer.sanitize(data(key, "whatever-it-is"), true))
                .as(key)
                .isEqualTo(SanitizableData.SANITIZED_VALUE);
          }
        });
  }

  @Test
  void aValueThatHoldsTheTokenIsMaskedWhateverItsKey() {
    runner.run(
        context -> {
          Sanitizer sanitizer =
              new Sanitizer(
                  context.getBeanProvider(SanitizingFunction.class).orderedStream().toList());

          assertThat(sanitizer.sanitize(data("PARTNER_SECRET", TOKEN), true))
              .isEqualTo(SanitizableData.SANITIZED_VALUE);
          assertThat(sanitizer.sanitize(data("app.auth", "Bearer " + TOKEN), true))
              .isEqualTo(SanitizableData.SANITIZED_VALUE);
        });
  }

  @Test
  void otherValuesAreShownAsTheEndpointsAreTold() {
    runner.run(
        context -> {
          Sanitizer sanitizer =
              new Sanitizer(
                  context.getBeanProvider(SanitizingFunction.class).orderedStream().toList());

          assertThat(
                  sanitizer.sanitize(data("formation.base-url", "https://api.example.com"), true))
              .isEqualTo("https://api.example.com");
          assertThat(sanitizer.sanitize(data("formation.access-token-hint", "x"), true))
              .isEqualTo("x");
          assertThat(sanitizer.sanitize(data("formation.user-agent", "acme/1.0"), true))
              .isEqualTo("acme/1.0");
        });
  }

  @Test
  void aShortTokenMasksTheValueThatIsItButNotEveryValueThatHoldsIt() {
    runner
        .withPropertyValues("formation.access-token=dev")
        .run(
            context -> {
              Sanitizer sanitizer =
                  new Sanitizer(
                      context.getBeanProvider(SanitizingFunction.class).orderedStream().toList());

              assertThat(sanitizer.sanitize(data("DEV_TOKEN", "dev"), true))
                  .isEqualTo(SanitizableData.SANITIZED_VALUE);
              assertThat(sanitizer.sanitize(data("spring.profiles.active", "devtools"), true))
                  .isEqualTo("devtools");
            });
  }

  private static SanitizableData data(String key, Object value) {
    return new SanitizableData(new MapPropertySource("test", Map.of(key, value)), key, value);
  }
}
