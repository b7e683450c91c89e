package io.formation.examples.web;

import static org.assertj.core.api.Assertions.assertThat;

import io.formation.sandbox.FormationSandbox;
import io.formation.sandbox.SandboxOptions;
import io.formation.testkit.FakeTime;
import java.io.IOException;
import java.util.List;
import java.util.logging.Level;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.logging.LogEntry;
import org.openqa.selenium.logging.LogType;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Import;

/**
 * The whole flow in a real browser: headless Chromium driven by Debian's chromedriver (nothing is
 * downloaded), against the application on a random port with the embedded sandbox. The sandbox's
 * clock moves only when the page shows the state the set is in, so every state is seen, in order.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
@Import(SandboxForTests.class)
class BrowserFlowTest {
  @RegisterExtension static final HangGuard GUARD = HangGuard.of(SandboxForTests.PATIENCE);

  @LocalServerPort int port;
  @Autowired FormationSandbox sandbox;
  @Autowired FakeTime clock;
  @Autowired SandboxOptions options;

  @RegisterExtension final Browser page = Browser.open(Browser.DESKTOP, SandboxForTests.PATIENCE);

  @Test
  void aPersonFillsEveryFormFixesWhatTheServiceRejectsAndFollowsTheFormationToComplete()
      throws IOException {
    page.open("http://localhost:" + port + "/");
    page.waitFor(By.xpath("//button[text()='Start']"));
    assertThat(page.accessibilityViolations()).as("the start page").isEmpty();
    page.click(By.xpath("//button[text()='Start']"));
    page.waitUntil(b -> b.findElements(By.cssSelector("section[data-form]")).size() == 5);

    Fill.company(page);
    page.submit("company");
    page.submit("purpose"); // the schema's default purpose, filled in by the page
    page.waitUntilDone("company");
    page.waitUntilDone("purpose");

    // A director's email the service does not accept: its error appears at that very field, in
    // plain words naming the field, and in the form's error summary.
    Fill.people(page, "ada.lovelace");
    page.submit("people");
    String emailError = Fill.DIRECTOR + ".root_properties_email .validation_error";
    page.waitFor(inForm("people", emailError));
    assertThat(page.textContent(inForm("people", emailError)))
        .isEqualTo("Error: Enter email (Directors 1) in the correct format, like name@example.com");
    assertThat(page.text(inForm("people", ".error-summary li")))
        .isEqualTo("Enter email (Directors 1) in the correct format, like name@example.com");
    assertThat(page.formClasses("people")).contains("open");
    assertThat(page.accessibilityViolations()).as("the page with an error").isEmpty();
    page.screenshot("mid-flow");

    page.replace("people", Fill.DIRECTOR + ".root_properties_email", "ada@example.com");
    page.submit("people");
    page.submit("stock"); // the schema's defaults
    Fill.registeredAgent(page);
    page.submit("registered_agent");
    for (String form : List.of("people", "stock", "registered_agent")) {
      page.waitUntilDone(form);
    }

    // Every form accepted: the page follows the set, which stays input_needed while processing.
    page.waitFor(By.cssSelector(".progress .badge.live"));
    step("input_needed", "signature_requests_needed");
    step("signature_requests_needed", "awaiting_payment");

    // The service's review sends the set back with the people form reopened, an email removed.
    clock.advance(options.stepDelay().plusMillis(1));
    page.waitFor(inForm("people", ".badge.attention"));
    assertThat(page.text(By.cssSelector(".notice"))).contains("Directors and officers");
    assertThat(page.textContent(inForm("people", emailError)))
        .isEqualTo("Error: Enter email (Directors 1)");
    assertThat(page.formClasses("company")).contains("done");
    assertThat(page.accessibilityViolations()).as("the page asking again").isEmpty();
    page.screenshot("asked-again");
    page.replace("people", Fill.DIRECTOR + ".root_properties_email", "ada@example.com");
    page.submit("people");
    page.waitUntilDone("people");

    page.waitFor(By.cssSelector(".progress .badge.live"));
    step("input_needed", "awaiting_payment");
    step("awaiting_payment", "payment_processing");
    assertThat(page.driver.findElements(By.cssSelector(".progress li.current .badge.unlisted")))
        .hasSize(1);
    step("payment_processing", "filing_in_progress");
    step("filing_in_progress", "finalizing");
    step("finalizing", "complete");

    WebElement link = page.waitUntil(b -> b.findElement(By.cssSelector(".complete a.app-link")));
    String id = page.formationId();
    assertThat(link.getAttribute("href")).isEqualTo(sandbox.baseUrl() + "/app/document_sets/" + id);
    assertThat(page.shownStates())
        .containsExactly(
            "input_needed",
            "signature_requests_needed",
            "awaiting_payment",
            "input_needed",
            "awaiting_payment",
            "payment_processing",
            "filing_in_progress",
            "finalizing",
            "complete");
    assertThat(sandbox.documentSet(id).orElseThrow().isComplete()).isTrue();
    // No script error, and nothing the Content-Security-Policy had to refuse. Chromium also
    // reports each 4xx answer; the one 422 of the rejected email is expected.
    assertThat(page.driver.manage().logs().get(LogType.BROWSER).getAll())
        .filteredOn(entry -> entry.getLevel().intValue() >= Level.SEVERE.intValue())
        .extracting(LogEntry::getMessage)
        .singleElement()
        .asString()
        .contains("/forms/people", "status of 422");
    assertThat(page.accessibilityViolations()).as("the complete page").isEmpty();
    page.script("window.scrollTo(0, 0)");
    page.screenshot("complete");
  }

  /** Waits until the page shows {@code shown} as the current state, then moves the set on. */
  private void step(String shown, String next) {
    page.waitUntil(b -> shown.equals(page.currentState()));
    SandboxForTests.leave(clock, options, shown);
    page.waitUntil(b -> next.equals(page.currentState()));
  }

  private static By inForm(String form, String css) {
    return Browser.inForm(form, css);
  }
}
