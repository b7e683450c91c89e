package io.formation.examples.web;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.formation.examples.web.PageClient.Event;
import io.formation.examples.web.PageClient.Events;
import io.formation.examples.web.PageClient.Received;
import io.formation.sandbox.FormationSandbox;
import io.formation.sandbox.SandboxForm;
import io.formation.sandbox.SandboxOptions;
import io.formation.sandbox.SandboxTemplates;
import io.formation.testkit.FakeTime;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.openqa.selenium.By;
import org.openqa.selenium.WindowType;
import org.openqa.selenium.support.ui.FluentWait;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Import;

/**
 * What one person can ask of the backend, and through it of the service, is bounded: a few starts a
 * day, a few event streams at once (here three and one), and listing their formations reads the
 * database only. A refusal says in plain words what to do, and the page shows it. Tracking is off,
 * so every request the sandbox receives is one a person's call made.
 */
@SpringBootTest(
    webEnvironment = WebEnvironment.RANDOM_PORT,
    properties = {
      "formation.tracking.enabled=false",
      "formation-web.limits.starts=3",
      "formation-web.limits.streams=1",
      // A closed stream's slot is free once a heartbeat fails to reach it.
      "formation-web.heartbeat=PT0.5S"
    })
@Import(SandboxForTests.class)
class LimitsTest {
  @RegisterExtension static final HangGuard GUARD = HangGuard.of(SandboxForTests.PATIENCE);

  private static final ObjectMapper JSON = new ObjectMapper();

  @LocalServerPort int port;
  @Autowired FormationSandbox sandbox;
  @Autowired PersonFormations formations;
  @Autowired ProgressStream progress;
  @Autowired FakeTime clock;
  @Autowired SandboxOptions options;

  @Test
  void listingAPersonsFormationsAsksTheServiceNothingAndShowsTheLastStateSeen() {
    PageClient page = new PageClient(port);
    List<String> ids = new ArrayList<>();
    for (int i = 1; i <= 3; i++) {
      Received started =
          page.postJson("/api/formations", "{\"startKey\": \"list-start-" + i + "\"}");
      assertThat(started.status()).isEqualTo(201);
      ids.add(json(started).path("id").asText());
    }
    // As tracking or a page's stream writes what it saw.
    formations.seen(ids.get(0), "awaiting_payment");
    int before = sandbox.requests().size();

    JsonNode listed = json(page.get("/api/formations"));

    assertThat(sandbox.requests()).hasSize(before);
    assertThat(listed).hasSize(3);
    assertThat(listed.findValuesAsText("id")).containsExactly(ids.get(2), ids.get(1), ids.get(0));
    assertThat(listed.get(2).path("state").asText()).isEqualTo("awaiting_payment");
    assertThat(listed.get(2).path("known").asBoolean()).isTrue();
    assertThat(listed.get(0).path("state").asText()).isEqualTo("input_needed");
    assertThat(listed.get(0).path("appLink").asText())
        .isEqualTo(sandbox.baseUrl() + "/app/document_sets/" + ids.get(2));
  }

  @Test
  void startsBeyondAPersonsAllowanceAreRefusedWith429AndWhenToTryAgainYetARepeatIsAnswered() {
    PageClient page = new PageClient(port);
    for (int i = 1; i <= 3; i++) {
      assertThat(start(page, "allowance-start-" + i).status()).isEqualTo(201);
    }
    int creates = creates();

    Received refused = start(page, "allowance-start-4");

    assertThat(refused.status()).isEqualTo(429);
    assertThat(refused.headers()).contains("content-type: application/problem+json");
    long retryAfter =
        refused.headers().stream()
            .filter(h -> h.startsWith("retry-after: "))
            .mapToLong(h -> Long.parseLong(h.substring("retry-after: ".length())))
            .findFirst()
            .orElseThrow();
    assertThat(retryAfter)
        .isBetween(Duration.ofHours(23).toSeconds(), Duration.ofDays(1).toSeconds());
    assertThat(json(refused).path("detail").asText())
        .isEqualTo(
            "You have started 3 formations in the past 24 hours, the most one person can. You"
                + " can start another in 24 hours.");
    assertThat(creates()).isEqualTo(creates);
    // The same start sent again is no new start: its set is answered.
    assertThat(start(page, "allowance-start-1").status()).isEqualTo(200);
    // Another person has an allowance of their own.
    assertThat(start(new PageClient(port), "allowance-start-1").status()).isEqualTo(201);
  }

  @Test
  void streamsBeyondAPersonsAllowanceAreRefusedInTheStreamAndAClosedOneFreesItsPlace() {
    PageClient page = new PageClient(port);
    String id = movingSet(page, "streams-start-1");

    try (Events first = page.events(id)) {
      assertThat(first.next().name()).isEqualTo("state");
      try (Events second = page.events(id)) {
        assertThat(second.status()).isEqualTo(200);
        Event refused = second.next();
        assertThat(refused.name()).isEqualTo("refused");
        JsonNode body = parse(refused.data());
        assertThat(body.path("status").asInt()).isEqualTo(429);
        assertThat(body.path("message").asText())
            .isEqualTo(
                "This browser already follows formations in 1 other tab or window, the most at once."
                    + " Close one, then choose Follow again.");
        assertThat(body.path("retryAfterSeconds").asLong()).isPositive();
      }
      // Another person follows all the same.
      PageClient other = new PageClient(port);
      try (Events theirs = other.events(movingSet(other, "streams-start-2"))) {
        assertThat(theirs.next().name()).isEqualTo("state");
      }
    }
    new FluentWait<>(progress)
        .withTimeout(Patience.of(options, progress.heartbeat().multipliedBy(2)))
        .pollingEvery(Duration.ofMillis(50))
        .until(p -> p.following() == 0);
    try (Events again = page.events(id)) {
      assertThat(again.next().name()).isEqualTo("state");
    }
  }

  @Test
  void thePageSaysInPlainWordsWhenAPersonFollowsOrStartsMoreThanAllowed() throws IOException {
    try (Browser page = new Browser(Browser.DESKTOP, SandboxForTests.PATIENCE)) {
      Fill.start(page, port);
      Fill.everyForm(page);
      page.waitUntil(b -> "input_needed".equals(page.currentState()));
      SandboxForTests.leave(clock, options, "input_needed");
      page.waitUntil(b -> "signature_requests_needed".equals(page.currentState()));

      // A second tab follows the same formation: one stream too many.
      page.driver.switchTo().newWindow(WindowType.TAB);
      page.open("http://localhost:" + port + "/");
      page.waitUntil(
          b ->
              page.present(By.cssSelector(".problem"))
                  && page.text(By.cssSelector(".problem")).contains("already follows formations"));
      assertThat(page.text(By.cssSelector(".problem")))
          .contains("Close one, then choose Follow again.");
      assertThat(page.present(By.xpath("//button[text()='Follow again']"))).isTrue();
      page.screenshot("too-many-streams");

      // Two more starts from this browser, then one more in the page: one start too many.
      Object statuses =
          page.driver.executeAsyncScript(
              "const done = arguments[arguments.length - 1];"
                  + "Promise.all([2, 3].map(i => fetch('/api/formations', {method: 'POST',"
                  + " headers: {'Content-Type': 'application/json'},"
                  + " body: JSON.stringify({startKey: 'page-start-' + i})}).then(r => r.status)))"
                  + ".then(done);");
      assertThat(statuses).isEqualTo(List.of(201L, 201L));
      page.click(By.xpath("//button[text()='Start another formation']"));
      page.click(By.xpath("//button[text()='Start']"));
      page.waitUntil(
          b -> page.text(By.cssSelector(".problem")).contains("You have started 3 formations"));
      assertThat(page.text(By.cssSelector(".problem")))
          .isEqualTo(
              "The formation could not be started: You have started 3 formations in the past 24"
                  + " hours, the most one person can. You can start another in 24 hours.");
      page.screenshot("too-many-starts");
    }
  }

  private static Received start(PageClient page, String startKey) {
    return page.postJson("/api/formations", "{\"startKey\": \"" + startKey + "\"}");
  }

  /** Starts a set with every form accepted and moves it out of input_needed, where it stays. */
  private String movingSet(PageClient page, String startKey) {
    String id = json(start(page, startKey)).path("id").asText();
    for (SandboxForm form : SandboxTemplates.forms(SandboxTemplates.DELAWARE_CORPORATION)) {
      Received submitted =
          page.postJson("/api/formations/" + id + "/forms/" + form.id(), form.example().toString());
      assertThat(submitted.status()).as(submitted.body()).isEqualTo(200);
    }
    SandboxForTests.leave(clock, options, "input_needed");
    return id;
  }

  private int creates() {
    return (int)
        sandbox.requests().stream()
            .filter(r -> r.method().equals("POST") && r.path().equals("/v1/document_sets"))
            .count();
  }

  private static JsonNode json(Received received) {
    return parse(received.body());
  }

  private static JsonNode parse(String json) {
    try {
      return JSON.readTree(json);
    } catch (IOException e) {
      throw new IllegalStateException("not JSON: " + json, e);
    }
  }
}
