package io.formation.spring.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import io.formation.sdk.DocumentSets;
import io.formation.sdk.FormationClient;
import io.formation.sdk.model.DocumentSet;
import io.formation.sdk.model.DocumentSetState;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.MockClock;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.simple.SimpleConfig;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.Optional;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.junit5.StartStop;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

class FormationMetersTest {
  @StartStop final MockWebServer server = new MockWebServer();
  final MockClock clock = new MockClock();
  final SimpleMeterRegistry registry = new SimpleMeterRegistry(SimpleConfig.DEFAULT, clock);

  ApplicationContextRunner runner() {
    return new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(FormationAutoConfiguration.class))
        .withPropertyValues("formation.base-url=" + server.url("/"), "formation.access-token=tok");
  }

  @Test
  void withARegistryEveryAttemptIsTimedByOperationMethodOutcomeAndStatus() {
    server.enqueue(Fixtures.created("document_set.json"));
    server.enqueue(Fixtures.ok("document_set.json"));
    server.enqueue(Fixtures.ok("forms.json"));
    server.enqueue(new MockResponse.Builder().code(404).body("{}").build());
    runner()
        .withBean(MeterRegistry.class, () -> registry)
        .run(
            context -> {
              DocumentSets sets = context.getBean(DocumentSets.class);
              DocumentSet set = sets.create(DocumentSets.DELAWARE_CORPORATION);
              sets.get(set.id());
              sets.forms(set.id());
              try {
                sets.get("ds_gone");
              } catch (RuntimeException expected) {
                // counted below
              }
            });

    assertThat(timerCount("document_sets.create", "POST", "SUCCESS", "201")).isEqualTo(1);
    assertThat(timerCount("document_sets.get", "GET", "SUCCESS", "200")).isEqualTo(1);
    assertThat(timerCount("forms.list", "GET", "SUCCESS", "200")).isEqualTo(1);
    assertThat(timerCount("document_sets.get", "GET", "CLIENT_ERROR", "404")).isEqualTo(1);
    assertNoTagCarriesAnId();
  }

  @Test
  void withoutARegistryThereAreNoMeters() {
    runner().run(context -> assertThat(context).doesNotHaveBean(FormationMeters.class));
  }

  @Test
  void retriesAndThePausesBeforeThemAreCounted() {
    server.enqueue(new MockResponse.Builder().code(503).setHeader("Retry-After", "0").build());
    server.enqueue(Fixtures.ok("teams.json"));
    try (FormationClient client =
        FormationClient.builder()
            .baseUrl(server.url("/").toString())
            .accessToken("tok")
            .listener(new FormationMeters(registry))
            .build()) {
      client.teams().list().pages().iterator().next();
    }

    assertThat(
            registry
                .get("formation.client.retries")
                .tags("operation", "teams.list", "status", "503")
                .counter()
                .count())
        .isEqualTo(1);
    assertThat(
            registry
                .get("formation.client.retry.pauses")
                .tags("operation", "teams.list")
                .timer()
                .count())
        .isEqualTo(1);
    assertThat(timerCount("teams.list", "GET", "SERVER_ERROR", "503")).isEqualTo(1);
  }

  @Test
  void stateChangesAreCountedByStateAndUnknownStatesShareOneValue() {
    FormationMeters meters = new FormationMeters(registry);

    meters.stateChanged(set("ds_1", "filing_in_progress"));
    meters.stateChanged(set("ds_2", "filing_in_progress"));
    meters.stateChanged(set("ds_3", "something_new_" + System.nanoTime()));

    assertThat(stateChanges("filing_in_progress")).isEqualTo(2);
    assertThat(stateChanges("unknown")).isEqualTo(1);
  }

  @Test
  void waitsInFlightAreTheSetsPolledButNotYetComplete() {
    FormationMeters meters = new FormationMeters(registry);

    meters.polled(set("ds_1", "input_needed"));
    meters.polled(set("ds_2", "finalizing"));
    assertThat(activeWaits()).isEqualTo(2);

    meters.polled(set("ds_2", "complete"));
    assertThat(activeWaits()).isEqualTo(1);
  }

  @Test
  void aWaitThatStoppedPollingIsNoLongerCountedOnceStale() {
    FormationMeters meters = new FormationMeters(registry);
    meters.polled(set("ds_1", "finalizing"));

    clock.add(FormationMeters.STALE_AFTER.minusSeconds(1));
    assertThat(activeWaits()).isEqualTo(1);

    clock.add(Duration.ofSeconds(2));
    assertThat(activeWaits()).isZero();
  }

  @Test
  void setsThatStoppedPollingAreDroppedAsOthersArePolledEvenIfTheGaugeIsNeverRead() {
    FormationMeters meters = new FormationMeters(registry);
    for (int i = 0; i < 1_000; i++) {
      meters.polled(set("ds_old_" + i, "finalizing"));
    }

    clock.add(FormationMeters.STALE_AFTER.plusSeconds(1));
    meters.polled(set("ds_new", "finalizing"));

    assertThat(meters.entries()).isEqualTo(1);
  }

  @Test
  void theSetsHeldAreBoundedHoweverManyArePolledAtOnce() {
    FormationMeters meters = new FormationMeters(registry);
    for (int i = 0; i < FormationMeters.MAX_SETS + 1_000; i++) {
      meters.polled(set("ds_" + i, "finalizing"));
    }
    meters.polled(set("ds_0", "finalizing"));

    assertThat(meters.entries()).isEqualTo(FormationMeters.MAX_SETS);
    assertThat(activeWaits()).isEqualTo(FormationMeters.MAX_SETS);
  }

  @Test
  void anActionUrlIsNamedActionWhateverItsPath() {
    assertThat(FormationMeters.operation("PUT", "https://x.test/v1/opaque/f_company"))
        .isEqualTo("action");
    assertThat(FormationMeters.operation("POST", "https://x.test/v1/document_sets/ds_9/forms"))
        .isEqualTo("action");
    assertThat(FormationMeters.operation("GET", "https://x.test/prefix/v1/document_sets/ds_9"))
        .isEqualTo("document_sets.get");
  }

  private double timerCount(String operation, String method, String outcome, String status) {
    return registry
        .get("formation.client.requests")
        .tags("operation", operation, "method", method, "outcome", outcome, "status", status)
        .timer()
        .count();
  }

  private double stateChanges(String state) {
    return registry.get("formation.client.state.changes").tag("state", state).counter().count();
  }

  private double activeWaits() {
    return registry.get("formation.client.waits.active").gauge().value();
  }

  private void assertNoTagCarriesAnId() {
    for (Meter meter : registry.getMeters()) {
      for (Tag tag : meter.getId().getTags()) {
        assertThat(tag.getValue()).doesNotContain("ds_").doesNotContain("/");
      }
    }
  }

  private static DocumentSet set(String id, String state) {
    return new DocumentSet(
        id, DocumentSetState.of(state), Optional.empty(), JsonNodeFactory.instance.objectNode());
  }
}
