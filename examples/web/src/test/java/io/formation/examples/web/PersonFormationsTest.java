package io.formation.examples.web;

import static org.assertj.core.api.Assertions.assertThat;

import io.formation.sandbox.FormationSandbox;
import io.formation.sandbox.SandboxOptions;
import io.formation.testkit.FakeTime;
import io.formation.tracking.FormationTracker;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.openqa.selenium.By;
import org.openqa.selenium.WindowType;
import org.openqa.selenium.support.ui.FluentWait;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * A person's formations are theirs: after a reload, on back and forward, in a second tab and after
 * a restart of the backend. The backend runs here as it runs in production, started and stopped by
 * the test on one port, over one sandbox and one database file (HSQLDB, as by default) that outlive
 * it.
 */
class PersonFormationsTest {
  @RegisterExtension
  static final HangGuard GUARD =
      HangGuard.of(Patience.page(options(new FakeTime(SandboxForTests.START))));

  /** Short, so that a closed tab's stream ends within a second (two heartbeats), in real time. */
  private static final String HEARTBEAT = "PT0.5S";

  private final FakeTime clock = new FakeTime(SandboxForTests.START);
  private final SandboxOptions options = options(clock);
  private FormationSandbox sandbox;
  private Path database;
  private ConfigurableApplicationContext backend;
  private int port;
  private Browser page;

  @BeforeEach
  void startEverything() throws IOException {
    sandbox = FormationSandbox.start(options);
    database = Files.createTempDirectory("formation-web-db-").resolve("formations");
    backend = startBackend(0);
    port = Integer.parseInt(backend.getEnvironment().getProperty("local.server.port"));
    page = new Browser(Browser.DESKTOP, Patience.page(options));
  }

  @AfterEach
  void stopEverything() throws IOException {
    try {
      page.close();
    } finally {
      if (backend != null) {
        backend.close();
      }
      sandbox.close();
    }
  }

  @Test
  void aReloadBackAndForwardAndASecondTabShowTheSameFormationAndCreateNoOther() {
    String id = startAndSubmitTheCompany();

    page.driver.navigate().refresh();
    shows(id);

    page.open("http://localhost:" + port + "/api/formations");
    page.driver.navigate().back();
    shows(id);

    String first = page.driver.getWindowHandle();
    page.driver.switchTo().newWindow(WindowType.TAB);
    page.open("http://localhost:" + port + "/");
    shows(id);
    page.driver.close();
    page.driver.switchTo().window(first);

    assertThat(sandbox.documentSets()).hasSize(1);
    // Starting again is there, as a choice; it is not the only way on.
    assertThat(page.text(By.cssSelector(".formations"))).contains(id, "input needed");
    assertThat(page.present(By.xpath("//button[text()='Start another formation']"))).isTrue();
  }

  @Test
  void afterABackendRestartTheFormationGoesOnAndItsProgressResumes() throws IOException {
    String id = startAndSubmitTheCompany();

    restartBackend();
    page.submit("purpose");
    page.waitUntilDone("purpose");
    Fill.people(page, "ada@example.com");
    page.submit("people");
    page.submit("stock");
    Fill.registeredAgent(page);
    page.submit("registered_agent");
    page.waitFor(By.cssSelector(".progress .badge.live"));
    page.waitUntil(b -> "input_needed".equals(page.currentState()));

    // The backend goes away while the page follows: the page says so, and carries on once the
    // backend is back, from the state the set is in by then, without repeating one.
    backend.close();
    backend = null;
    page.waitFor(By.cssSelector(".offline"));
    page.screenshot("backend-away");
    SandboxForTests.leave(clock, options, "input_needed");
    backend = startBackend(port);
    page.waitUntil(b -> "signature_requests_needed".equals(page.currentState()));
    page.waitUntil(b -> !page.present(By.cssSelector(".offline")));
    assertThat(page.shownStates()).containsExactly("input_needed", "signature_requests_needed");
    assertThat(page.formationId()).isEqualTo(id);
    assertThat(sandbox.documentSets()).hasSize(1);
  }

  @Test
  void aCookieGoneWhileThePageFollowsShowsTheFormationOutOfReachOnceTheStreamIsRefused()
      throws IOException {
    Fill.start(page, port);
    Fill.everyForm(page);
    page.waitFor(By.cssSelector(".progress .badge.live"));
    String id = page.formationId();

    // The stream drops with the restart; the browser opens it again without the cookie, and the
    // backend refuses it (404), which the page tells from a backend still away by its list.
    page.driver.manage().deleteCookieNamed(People.COOKIE);
    restartBackend();

    page.waitFor(By.cssSelector(".lost"));
    assertThat(page.text(By.cssSelector(".lost"))).contains(id);
    assertThat(page.present(By.xpath("//button[text()='Show your formations']"))).isTrue();
    // What was typed is still in the page, so starting again can bring it along.
    assertThat(page.present(By.xpath("//button[text()='Start again with what you typed']")))
        .isTrue();
    assertThat(page.present(By.xpath("//button[text()='Start again with empty forms']"))).isTrue();
    assertThat(page.present(By.cssSelector(".progress .badge.live"))).isFalse();
    assertThat(page.present(By.cssSelector(".offline"))).isFalse();
    assertThat(sandbox.documentSets()).hasSize(1);
    page.screenshot("lost-while-following");
  }

  @Test
  void theBackendStopsFollowingAClosedTabsFormation() {
    PageClient client = new PageClient(port);
    String id =
        client
            .postJson("/api/formations", "{\"startKey\": \"start-closed-tab\"}")
            .body()
            .replaceAll(".*\"id\":\"([^\"]+)\".*", "$1");
    ProgressStream progress = backend.getBean(ProgressStream.class);
    try (PageClient.Events events = client.events(id)) {
      assertThat(events.next().name()).isEqualTo("state");
      assertThat(progress.following()).isEqualTo(1);
    }
    // The set stays input_needed (the clock stands still), so no state change would tell the
    // backend the tab is gone: the heartbeat's failed write does.
    new FluentWait<>(progress)
        .withTimeout(Patience.of(options, Duration.parse(HEARTBEAT).multipliedBy(2)))
        .pollingEvery(Duration.ofMillis(100))
        .until(p -> p.following() == 0);
    // The formation is still followed, by tracking, which needs no tab.
    assertThat(backend.getBean(FormationTracker.class).tracked(id)).isPresent();
  }

  @Test
  void oneStartKeyMakesOneDocumentSetHoweverOftenItIsSent() {
    PageClient client = new PageClient(port);
    PageClient.Received first =
        client.postJson("/api/formations", "{\"startKey\": \"start-once-1\"}");
    PageClient.Received again =
        client.postJson("/api/formations", "{\"startKey\": \"start-once-1\"}");

    assertThat(first.status()).isEqualTo(201);
    assertThat(again.status()).isEqualTo(200);
    assertThat(again.body()).contains(sandbox.documentSets().get(0).id());
    assertThat(sandbox.documentSets()).hasSize(1);
  }

  private String startAndSubmitTheCompany() {
    Fill.start(page, port);
    Fill.company(page);
    page.submit("company");
    page.waitUntilDone("company");
    return page.formationId();
  }

  /** The page shows this formation, with the company accepted and the rest to fill in. */
  private void shows(String id) {
    page.waitUntil(b -> b.findElements(By.cssSelector("section[data-form]")).size() == 5);
    assertThat(page.formationId()).isEqualTo(id);
    page.waitUntilDone("company");
    assertThat(page.formClasses("purpose")).contains("open");
    assertThat(page.present(By.xpath("//button[text()='Start']"))).isFalse();
  }

  private void restartBackend() {
    backend.close();
    backend = startBackend(port);
  }

  private static SandboxOptions options(FakeTime clock) {
    return SandboxOptions.defaults().withToken(SandboxForTests.TOKEN).withClock(clock);
  }

  private ConfigurableApplicationContext startBackend(int onPort) {
    // As arguments: they win over every application.properties, as on a real command line.
    return new SpringApplicationBuilder(WebExample.class)
        .run(
            "--server.port=" + onPort,
            // Gone at once, as on a crash or a deploy, open event streams and all.
            "--server.shutdown=immediate",
            "--formation.base-url=" + sandbox.baseUrl(),
            "--formation.access-token=" + sandbox.token(),
            "--spring.datasource.url=jdbc:hsqldb:file:" + database + ";shutdown=true",
            "--formation-web.heartbeat=" + HEARTBEAT);
  }
}
