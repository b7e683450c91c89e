package io.formation.spring.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import io.formation.sdk.FormationClient;
import java.util.concurrent.atomic.AtomicLong;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.junit5.StartStop;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

class FormationHealthTest {
  @StartStop final MockWebServer server = new MockWebServer();

  ApplicationContextRunner runner() {
    return new ApplicationContextRunner()
        .withConfiguration(
            AutoConfigurations.of(
                FormationAutoConfiguration.class, FormationHealthAutoConfiguration.class))
        .withPropertyValues("formation.base-url=" + server.url("/"), "formation.access-token=tok");
  }

  @Test
  void theHealthContributorIsOffByDefault() {
    runner().run(context -> assertThat(context).doesNotHaveBean(HealthIndicator.class));
  }

  @Test
  void turnedOnItReportsWhetherTheServiceAnswers() throws Exception {
    server.enqueue(Fixtures.ok("teams.json"));
    runner()
        .withPropertyValues("management.health.formation.enabled=true")
        .run(
            context -> {
              HealthIndicator health =
                  context.getBean("formationHealthIndicator", HealthIndicator.class);
              assertThat(health.health().getStatus()).isEqualTo(Status.UP);
            });

    assertThat(server.takeRequest().getTarget()).startsWith("/v1/teams");
  }

  @Test
  void itAsksTheServiceAtMostOnceAMinuteHoweverOftenItIsPolled() throws Exception {
    server.enqueue(Fixtures.ok("teams.json"));
    server.enqueue(new MockResponse.Builder().code(503).build());
    AtomicLong nanos = new AtomicLong();
    try (FormationClient client =
        FormationClient.builder().baseUrl(server.url("/").toString()).accessToken("t").build()) {
      HealthProbe probe = new HealthProbe(client, nanos::get);

      assertThat(probe.check().up()).isTrue();
      for (int second = 1; second < 60; second++) {
        nanos.set(second * 1_000_000_000L);
        assertThat(probe.check().up()).isTrue();
      }
      assertThat(server.getRequestCount()).isEqualTo(1);

      nanos.set(60 * 1_000_000_000L);
      HealthProbe.Result down = probe.check();
      assertThat(down.up()).isFalse();
      assertThat(down.detail()).isEqualTo("the service answered 503");
      assertThat(server.getRequestCount()).isEqualTo(2);
    }
  }
}
