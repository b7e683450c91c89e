package io.formation.spring.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import io.formation.sdk.FormationClient;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import mockwebserver3.Dispatcher;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;
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

      assertThat(probe.check().status()).isEqualTo(HealthProbe.Status.UP);
      for (int second = 1; second < 60; second++) {
        nanos.set(second * 1_000_000_000L);
        assertThat(probe.check().status()).isEqualTo(HealthProbe.Status.UP);
      }
      assertThat(server.getRequestCount()).isEqualTo(1);

      nanos.set(60 * 1_000_000_000L);
      HealthProbe.Result down = probe.check();
      assertThat(down.status()).isEqualTo(HealthProbe.Status.DOWN);
      assertThat(down.detail()).isEqualTo("the service answered 503");
      assertThat(server.getRequestCount()).isEqualTo(2);
    }
  }

  @Test
  void aCheckWhileAnotherWaitsForASlowServiceAnswersAtOnceWithTheLastResult() throws Exception {
    CountDownLatch asked = new CountDownLatch(1);
    CountDownLatch answer = new CountDownLatch(1);
    server.setDispatcher(
        new Dispatcher() {
          @Override
          public MockResponse dispatch(RecordedRequest request) throws InterruptedException {
            if (server.getRequestCount() > 1) {
              asked.countDown();
              answer.await();
            }
            return Fixtures.ok("teams.json");
          }
        });
    AtomicLong nanos = new AtomicLong();
    ExecutorService callers = Executors.newFixedThreadPool(2);
    try (FormationClient client =
        FormationClient.builder().baseUrl(server.url("/").toString()).accessToken("t").build()) {
      HealthProbe probe = new HealthProbe(client, nanos::get);
      assertThat(probe.check().status()).isEqualTo(HealthProbe.Status.UP);
      nanos.set(HealthProbe.AT_MOST_EVERY.toNanos());

      Future<HealthProbe.Result> slow = callers.submit(probe::check);
      assertThat(asked.await(30, TimeUnit.SECONDS)).isTrue();
      Future<HealthProbe.Result> meanwhile = callers.submit(probe::check);

      // Generous: it only fails if the check waits for the held answer.
      assertThat(meanwhile.get(30, TimeUnit.SECONDS).status()).isEqualTo(HealthProbe.Status.UP);
      assertThat(slow.isDone()).isFalse();
      answer.countDown();
      assertThat(slow.get(30, TimeUnit.SECONDS).status()).isEqualTo(HealthProbe.Status.UP);
      assertThat(server.getRequestCount()).isEqualTo(2);
    } finally {
      answer.countDown();
      callers.shutdownNow();
    }
  }

  @Test
  void theFirstCheckWhileAnotherIsUnderWayIsUnknownRatherThanWaiting() throws Exception {
    CountDownLatch asked = new CountDownLatch(1);
    CountDownLatch answer = new CountDownLatch(1);
    server.setDispatcher(
        new Dispatcher() {
          @Override
          public MockResponse dispatch(RecordedRequest request) throws InterruptedException {
            asked.countDown();
            answer.await();
            return Fixtures.ok("teams.json");
          }
        });
    ExecutorService callers = Executors.newFixedThreadPool(2);
    try (FormationClient client =
        FormationClient.builder().baseUrl(server.url("/").toString()).accessToken("t").build()) {
      HealthProbe probe = new HealthProbe(client, () -> 0L);

      Future<HealthProbe.Result> slow = callers.submit(probe::check);
      assertThat(asked.await(30, TimeUnit.SECONDS)).isTrue();
      Future<HealthProbe.Result> meanwhile = callers.submit(probe::check);

      assertThat(meanwhile.get(30, TimeUnit.SECONDS).status())
          .isEqualTo(HealthProbe.Status.UNKNOWN);
      answer.countDown();
      assertThat(slow.get(30, TimeUnit.SECONDS).status()).isEqualTo(HealthProbe.Status.UP);
    } finally {
      answer.countDown();
      callers.shutdownNow();
    }
  }

  @Test
  void aRateLimitedServiceIsNotDownWhetherTheServiceOrTheClientsOwnPauseSaysSo() throws Exception {
    server.enqueue(new MockResponse.Builder().code(429).setHeader("Retry-After", "3600").build());
    AtomicLong nanos = new AtomicLong();
    try (FormationClient client =
        FormationClient.builder().baseUrl(server.url("/").toString()).accessToken("t").build()) {
      HealthProbe probe = new HealthProbe(client, nanos::get);

      HealthProbe.Result answered = probe.check();
      nanos.set(HealthProbe.AT_MOST_EVERY.toNanos());
      HealthProbe.Result paused = probe.check();

      assertThat(answered.status()).isEqualTo(HealthProbe.Status.UP);
      assertThat(answered.detail()).isEqualTo("the service is rate-limiting this token");
      // The client's own pause after the Retry-After: refused without asking the service.
      assertThat(server.getRequestCount()).isEqualTo(1);
      assertThat(paused).isEqualTo(answered);
    }
  }

  @Test
  void theHealthIndicatorReportsARateLimitedServiceAsUp() {
    server.enqueue(new MockResponse.Builder().code(429).build());
    runner()
        .withPropertyValues("management.health.formation.enabled=true")
        .run(
            context -> {
              HealthIndicator health =
                  context.getBean("formationHealthIndicator", HealthIndicator.class);
              assertThat(health.health().getStatus()).isEqualTo(Status.UP);
            });
  }
}
