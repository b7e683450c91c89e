package io.formation.examples.web;

import static org.assertj.core.api.Assertions.assertThat;

import io.formation.sandbox.SandboxOptions;
import io.formation.testkit.FakeTime;
import java.io.IOException;
import java.util.List;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Import;

/**
 * The end is in sight, on a desktop window and on a 390×844 phone: as the last form is accepted the
 * progress comes into view, its "Following" badge in the window while the page follows; when the
 * set completes, the completion does. The screenshots the README shows are taken on the way: the
 * start, a form with errors, the progress and the completion, on both sizes.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
@Import(SandboxForTests.class)
class TheEndInSightTest {
  @RegisterExtension static final HangGuard GUARD = HangGuard.of(SandboxForTests.PATIENCE);

  @LocalServerPort int port;
  @Autowired FakeTime clock;
  @Autowired SandboxOptions options;

  private Browser page;

  @ParameterizedTest
  @ValueSource(strings = {"desktop", "phone"})
  void theProgressThenTheCompletionComeIntoViewAsTheyHappen(String size) throws IOException {
    Dimension window = size.equals("phone") ? Browser.PHONE : Browser.DESKTOP;
    // How wide the README shows each screenshot, in pixels.
    int readme = size.equals("phone") ? 240 : 480;
    try (Browser browser = new Browser(window, SandboxForTests.PATIENCE)) {
      page = browser;
      page.open("http://localhost:" + port + "/");
      page.waitFor(By.xpath("//button[text()='Start']"));
      page.screenshot(size + "-start", readme);
      page.click(By.xpath("//button[text()='Start']"));
      page.waitUntil(b -> b.findElements(By.cssSelector("section[data-form]")).size() == 5);
      recordAcceptedBesideInputNeeded();

      Fill.company(page);
      page.replace("company", ".root_properties_website", "acme-robotics");
      page.submit("company");
      page.waitFor(Browser.inForm("company", ".error-summary"));
      page.script("document.querySelector(\"section[data-form='company']\").scrollIntoView()");
      page.screenshot(size + "-errors", readme);
      page.replace("company", ".root_properties_website", "https://acme.example");
      page.submit("company");
      page.waitUntilDone("company");
      page.submit("purpose");
      Fill.people(page, "ada@example.com");
      page.submit("people");
      page.submit("stock");
      Fill.registeredAgent(page);
      page.submit("registered_agent");
      page.waitUntilDone("registered_agent");

      page.waitFor(By.cssSelector(".progress .badge.live"));
      page.waitUntil(b -> inView(".progress h2") && inView(".progress .badge.live"));
      page.screenshot(size + "-progress", readme);

      step("input_needed", "signature_requests_needed");
      step("signature_requests_needed", "awaiting_payment");
      clock.advance(options.stepDelay().plusMillis(1));
      page.waitFor(Browser.inForm("people", ".badge.attention"));
      page.replace("people", Fill.DIRECTOR + ".root_properties_email", "ada@example.com");
      page.submit("people");
      page.waitUntilDone("people");
      page.waitFor(By.cssSelector(".progress .badge.live"));
      page.waitUntil(b -> inView(".progress .badge.live"));
      for (List<String> move :
          List.of(
              List.of("input_needed", "awaiting_payment"),
              List.of("awaiting_payment", "payment_processing"),
              List.of("payment_processing", "filing_in_progress"),
              List.of("filing_in_progress", "finalizing"))) {
        step(move.get(0), move.get(1));
        assertThat(inView(".progress .badge.live")).as("following, in " + move.get(1)).isTrue();
      }
      page.waitUntil(b -> "finalizing".equals(page.currentState()));
      SandboxForTests.leave(clock, options, "finalizing");

      page.waitFor(By.cssSelector(".complete a.app-link"));
      page.waitUntil(b -> inView(".complete h2") && inView(".complete a.app-link"));
      assertThat(page.focused()).isEqualTo("complete-title");
      page.screenshot(size + "-complete", readme);
      assertThat(page.script("return window.acceptedBesideInputNeeded"))
          .as("pages that said every form is accepted beside the state input_needed")
          .isEqualTo(0L);
    }
  }

  /**
   * From now on, counts each state of the page, as every change leaves it, that says every form is
   * accepted while the state it shows is input_needed.
   */
  private void recordAcceptedBesideInputNeeded() {
    page.script(
        "window.acceptedBesideInputNeeded = 0;"
            + "const look = () => {"
            + "  const current = document.querySelector('.progress li.current');"
            + "  const summary = document.querySelector('.progress .hint');"
            + "  if (current && current.dataset.state === 'input_needed' && summary"
            + "      && summary.textContent.includes('Every form is accepted'))"
            + "    window.acceptedBesideInputNeeded++; };"
            + "new MutationObserver(look).observe(document.body,"
            + "    {subtree: true, childList: true, characterData: true, attributes: true});"
            + "look();");
  }

  /** Whether the element is wholly inside the window. */
  private boolean inView(String css) {
    return (Boolean)
        page.script(
            "const e = document.querySelector(arguments[0]); if (!e) return false;"
                + "const r = e.getBoundingClientRect();"
                + "return r.top >= 0 && r.bottom <= window.innerHeight && r.height > 0;",
            css);
  }

  private void step(String shown, String next) {
    page.waitUntil(b -> shown.equals(page.currentState()));
    SandboxForTests.leave(clock, options, shown);
    page.waitUntil(b -> next.equals(page.currentState()));
  }
}
