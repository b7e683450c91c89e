package io.formation.examples.web;

import static org.assertj.core.api.Assertions.assertThat;

import io.formation.sandbox.FormationSandbox;
import io.formation.sandbox.SandboxOptions;
import io.formation.testkit.FakeTime;
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

/** A form reopened with Change never keeps the page from following the set. */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
@Import(SandboxForTests.class)
@Timeout(value = 5, unit = TimeUnit.MINUTES) // a guard against a hang, not a measure of speed
class NeverStuckTest {
  @LocalServerPort int port;
  @Autowired FormationSandbox sandbox;
  @Autowired FakeTime clock;
  @Autowired SandboxOptions options;

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
  void changingAFormThenFinishingTheLastOneFollowsTheSetAndClosesTheChange() throws IOException {
    page.open("http://localhost:" + port + "/");
    page.click(By.xpath("//button[text()='Start']"));
    page.waitUntil(b -> b.findElements(By.cssSelector("section[data-form]")).size() == 5);
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
    assertThat(page.text(By.cssSelector(".progress"))).contains("Every form is accepted");

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
}
