package io.formation.examples.web;

import static org.assertj.core.api.Assertions.assertThat;

import io.formation.sandbox.FormationSandbox;
import io.formation.sandbox.SandboxOptions;
import io.formation.testkit.FakeTime;
import java.io.IOException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.openqa.selenium.By;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Import;

/**
 * The page never waits for what cannot come: a form reopened with Change never keeps it from
 * following the set, and a person whose cookie is gone (cleared, expired) meets a formation the
 * backend no longer knows for them with a visible state and a way on: their formations, or a new
 * start they choose; the page starts nothing by itself. (PersonFormationsTest shows the same while
 * the page follows progress.)
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
@Import(SandboxForTests.class)
class NeverStuckTest {
  @RegisterExtension static final HangGuard GUARD = HangGuard.of(SandboxForTests.PATIENCE);

  @LocalServerPort int port;
  @Autowired FormationSandbox sandbox;
  @Autowired FakeTime clock;
  @Autowired SandboxOptions options;

  @RegisterExtension final Browser page = Browser.open(Browser.DESKTOP, SandboxForTests.PATIENCE);

  @Test
  void changingAFormThenFinishingTheLastOneFollowsTheSetAndClosesTheChange() throws IOException {
    Fill.start(page, port);
    Fill.company(page);
    page.submit("company");
    page.submit("purpose");
    Fill.people(page, "ada@example.com");
    page.submit("people");
    page.submit("stock");
    for (String form : java.util.List.of("company", "purpose", "people", "stock")) {
      page.waitUntilDone(form);
    }

    // Changing a form and leaving it as it was: done again, with what the service accepted.
    page.click(Browser.inForm("purpose", "footer button.secondary"));
    page.replace("purpose", ".root_properties_purpose", "Something else entirely");
    page.click(By.xpath("//section[@data-form='purpose']//button[text()='Keep as it was']"));
    page.waitUntilDone("purpose");
    assertThat(page.input("purpose", ".root_properties_purpose").getDomProperty("value"))
        .startsWith("Any lawful act or activity");

    // Changing one and finishing the last: every form is accepted, so the page follows.
    page.click(Browser.inForm("company", "footer button.secondary"));
    page.waitFor(Browser.inForm("company", "footer button[type='submit']"));
    Fill.registeredAgent(page);
    page.submit("registered_agent");
    page.waitUntilDone("registered_agent");
    page.waitFor(By.cssSelector(".progress .badge.live"));
    assertThat(page.text(By.cssSelector(".progress"))).contains("Every form is sent");

    // The set moves on: the change can no longer be sent, and the page says so.
    page.waitUntil(b -> "input_needed".equals(page.currentState()));
    SandboxForTests.leave(clock, options, "input_needed");
    page.waitUntil(b -> "signature_requests_needed".equals(page.currentState()));
    page.waitUntilDone("company");
    assertThat(page.text(Browser.inForm("company", ".form-notice")))
        .contains("moved on before this change was sent");
    assertThat(page.present(Browser.inForm("company", "footer button"))).isFalse();
    page.screenshot("change-then-finish");
  }

  @Test
  void aSubmissionAfterTheCookieIsGoneShowsTheFormationOutOfReachWithAWayOn() throws IOException {
    int setsBefore = sandbox.documentSets().size();
    Fill.start(page, port);
    Fill.company(page);
    page.submit("company");
    page.waitUntilDone("company");
    String id = page.formationId();
    long sentBefore = submissions();

    page.driver.manage().deleteCookieNamed(People.COOKIE);
    page.submit("purpose");

    page.waitFor(By.cssSelector(".lost"));
    page.screenshot("lost-session");
    assertThat(page.text(By.cssSelector(".lost h2")))
        .isEqualTo("This browser no longer holds this formation");
    assertThat(page.text(By.cssSelector(".lost")))
        .contains(id, "cookie was cleared or has expired", "Nothing is started until you choose");
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
    startsAnotherWithOneClick(id, setsBefore + 2);
  }

  @Test
  void startingAgainFromALostOneIsOneDeliberateClickAndKeepsWhatWasTyped() throws IOException {
    Fill.start(page, port);
    String id = page.formationId();
    int setsBefore = sandbox.documentSets().size();

    page.driver.manage().deleteCookieNamed(People.COOKIE);
    Fill.company(page);
    page.replace("purpose", ".root_properties_purpose", "Software for robots");
    page.submit("company");
    page.waitFor(By.cssSelector(".lost"));
    assertThat(sandbox.documentSets()).hasSize(setsBefore);

    page.click(
        By.xpath(
            "//section[contains(@class,'lost')]//button[text()='Start again with what you"
                + " typed']"));

    page.waitUntil(b -> b.findElements(By.cssSelector("section[data-form]")).size() == 5);
    assertThat(page.formationId()).isNotEqualTo(id);
    assertThat(sandbox.documentSets()).hasSize(setsBefore + 1);
    // What was typed is there again, to check and submit to the new set.
    assertThat(page.input("company", ".root_properties_name").getDomProperty("value"))
        .isEqualTo("Acme Robotics");
    assertThat(page.input("purpose", ".root_properties_purpose").getDomProperty("value"))
        .isEqualTo("Software for robots");
    assertThat(page.formClasses("company")).contains("open");
    page.screenshot("started-again-with-what-was-typed");
    page.submit("company");
    page.waitUntilDone("company");
  }

  /** The form submissions the service received, from any test sharing this sandbox. */
  private long submissions() {
    return sandbox.requests().stream()
        .filter(r -> r.path().contains("/form_actions/") && !r.method().equals("GET"))
        .count();
  }

  /** Start, pressed once by the person, makes one new set, shown instead of the lost one. */
  private void startsAnotherWithOneClick(String lostId, int setsAfter) {
    page.click(By.xpath("//button[text()='Start']"));
    page.waitUntil(b -> b.findElements(By.cssSelector("section[data-form]")).size() == 5);
    assertThat(page.formationId()).isNotEqualTo(lostId);
    assertThat(sandbox.documentSets()).hasSize(setsAfter);
  }
}
