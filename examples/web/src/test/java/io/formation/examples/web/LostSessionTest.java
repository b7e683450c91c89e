package io.formation.examples.web;

import static org.assertj.core.api.Assertions.assertThat;

import io.formation.sandbox.FormationSandbox;
import java.io.IOException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.openqa.selenium.By;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Import;

/**
 * A person whose cookie is gone (cleared, expired) meets a formation the backend no longer knows
 * for them: the page says so, and offers their formations and a new start, starting nothing by
 * itself. (PersonFormationsTest shows the same while the page follows progress.)
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
@Import(SandboxForTests.class)
@Timeout(value = 5, unit = TimeUnit.MINUTES) // a guard against a hang, not a measure of speed
class LostSessionTest {
  @LocalServerPort int port;
  @Autowired FormationSandbox sandbox;

  private Browser page;

  @BeforeEach
  void openBrowser() throws IOException {
    page = new Browser(Browser.DESKTOP);
  }

  @AfterEach
  void closeBrowser() throws IOException {
    page.close();
  }

  @Test
  void aSubmissionAfterTheCookieIsGoneShowsTheFormationOutOfReachWithAWayOn() throws IOException {
    int setsBefore = sandbox.documentSets().size();
    page.open("http://localhost:" + port + "/");
    page.click(By.xpath("//button[text()='Start']"));
    page.waitUntil(b -> b.findElements(By.cssSelector("section[data-form]")).size() == 5);
    Fill.company(page);
    page.submit("company");
    page.waitUntilDone("company");
    String id = page.formationId();
    long sentBefore = submissions();

    page.driver.manage().deleteCookieNamed(Person.COOKIE);
    page.submit("purpose");

    page.waitFor(By.cssSelector(".lost"));
    page.screenshot("lost-session");
    assertThat(page.text(By.cssSelector(".lost"))).contains(id, "cannot be reached");
    assertThat(page.focused()).isEqualTo("lost-title");
    assertThat(page.present(By.cssSelector("section[data-form]"))).isFalse();
    assertThat(page.accessibilityViolations()).isEmpty();
    // Nothing was sent for the purpose, and nothing was started by the page itself.
    assertThat(submissions()).isEqualTo(sentBefore);
    assertThat(sandbox.documentSets()).hasSize(setsBefore + 1);

    // The person's formations, as the backend knows this browser now: none, so the Start page.
    page.click(By.xpath("//button[text()='Show your formations']"));
    page.waitFor(By.cssSelector(".welcome"));
    assertThat(page.present(By.cssSelector(".lost"))).isFalse();
    assertThat(sandbox.documentSets()).hasSize(setsBefore + 1);

    // Starting again is a choice the person makes: then, and only then, a new set.
    page.click(By.xpath("//button[text()='Start']"));
    page.waitUntil(b -> b.findElements(By.cssSelector("section[data-form]")).size() == 5);
    assertThat(page.formationId()).isNotEqualTo(id);
    assertThat(sandbox.documentSets()).hasSize(setsBefore + 2);
  }

  @Test
  void startingANewFormationFromALostOneIsOneDeliberateClick() {
    page.open("http://localhost:" + port + "/");
    page.click(By.xpath("//button[text()='Start']"));
    page.waitUntil(b -> b.findElements(By.cssSelector("section[data-form]")).size() == 5);
    String id = page.formationId();
    int setsBefore = sandbox.documentSets().size();

    page.driver.manage().deleteCookieNamed(Person.COOKIE);
    Fill.company(page);
    page.submit("company");
    page.click(
        By.xpath("//section[contains(@class,'lost')]//button[text()='Start a new formation']"));

    page.waitFor(By.cssSelector(".welcome"));
    assertThat(sandbox.documentSets()).hasSize(setsBefore);
    page.click(By.xpath("//button[text()='Start']"));
    page.waitUntil(b -> b.findElements(By.cssSelector("section[data-form]")).size() == 5);
    assertThat(page.formationId()).isNotEqualTo(id);
    assertThat(sandbox.documentSets()).hasSize(setsBefore + 1);
  }

  /** The form submissions the service received, from any test sharing this sandbox. */
  private long submissions() {
    return sandbox.requests().stream()
        .filter(r -> r.path().contains("/form_actions/") && !r.method().equals("GET"))
        .count();
  }
}
