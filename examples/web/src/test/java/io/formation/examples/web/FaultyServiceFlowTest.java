package io.formation.examples.web;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.formation.sandbox.Faults;
import io.formation.sandbox.FormationSandbox;
import io.formation.sandbox.SandboxDocumentSet;
import io.formation.sandbox.SandboxOptions;
import io.formation.sandbox.SandboxRequest;
import io.formation.sandbox.SandboxRequest.Fault;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.openqa.selenium.By;
import org.openqa.selenium.WebDriverException;
import org.openqa.selenium.WebElement;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;

/**
 * The whole flow, from Start to complete, in headless Chromium, with the service failing 30% and
 * then 50% of its requests: a third each answered {@code 429} with {@code Retry-After}, {@code
 * 503}, or dropped without an answer (half of those after the request took effect). The failures
 * are drawn from a seeded sequence, so the n-th request the service receives meets the same fate on
 * every run. Which call is the n-th can vary: once the page follows the set, with the number of
 * polls a machine's speed allows, and before, rarely, with the page's own retries. So every check
 * holds on any path, and the seeds were picked for what they do first: the first create fails with
 * a {@code 503}; with 30%, the last form's submission is taken but its answer is lost, and the set
 * has moved on by the time it is tried again. The sandbox runs on the real clock: a {@code 429}
 * holds until its {@code Retry-After} has passed, and the set moves on, through the review that
 * asks for the people form again, by itself.
 *
 * <p>A create dropped after it took effect would leave a second set at the service whatever the
 * page does: the interface lists no document sets to find it by, and the sandbox ignores the SDK's
 * {@code Idempotency-Key}. The seeds keep the creates clear of that fault.
 *
 * <p>A person types each form key by key and, whenever the page shows an error, takes the way on it
 * offers (Start again, Submit again, Try again now), until the set is complete. Then: exactly one
 * document set at the service; every submission the service took carries what was typed; every
 * fault kind was met, and errors were shown to the person and got past.
 *
 * <p>The sandbox sends no slow answers (it has no such fault), so none are tested here.
 */
class FaultyServiceFlowTest {
  /** The larger share of requests failing, whose waits are the longest. */
  private static final double MOST_FAILING = 0.5;

  @RegisterExtension
  static final HangGuard GUARD =
      HangGuard.of(Patience.page(FaultyService.options(MOST_FAILING, 0)));

  private static final ObjectMapper JSON = new ObjectMapper();

  /** How often a person tries one thing again before the test calls the page stuck. */
  private static final int PATIENCE = 25;

  @Nested
  @SpringBootTest(
      webEnvironment = WebEnvironment.RANDOM_PORT,
      properties = {
        "faulty-service.fraction=0.3",
        "faulty-service.seed=1246903",
        // Tracking's background polls would draw from the seeded faults in an order that
        // depends on timing; the page follows the set itself.
        "formation.tracking.enabled=false"
      })
  @Import(FaultyService.class)
  class WithThirtyPercentOfRequestsFailing {
    @LocalServerPort int port;
    @Autowired FormationSandbox sandbox;

    @Test
    void aPersonGetsThroughThirtyPercentFailuresWithOneDocumentSetHoldingWhatTheyTyped()
        throws IOException {
      Visitor visitor = new Visitor(port, sandbox, "faults-30");
      visitor.goesFromStartToComplete();
      // Seed 1246903, with one fault before the last form (the first listing of the forms loses
      // its answer and the SDK asks again), so that its requests come in the same order every run:
      // the registered agent's submission is taken but its answer lost; the SDK's retries meet a
      // 429 twice, and the backend tries again after the second Retry-After. Those two seconds are
      // the service's, whatever the retries' own backoff: the set leaves input_needed 1.5 s after
      // the submission and comes back to it for the review 1.4 s later; in between the form takes
      // no values, and the page hears 409. The page takes the form as accepted and follows the set
      // instead of offering a Submit that can only get 409 again.
      assertThat(visitor.tookTheValuesOf("registered_agent"))
          .as("the registered agent's submissions the service took %s", visitor.trace())
          .singleElement()
          .satisfies(taken -> assertThat(taken.fault()).hasValue(Fault.DROPPED));
      assertThat(visitor.submits.get("registered_agent"))
          .as("Submits of the registered agent")
          .isEqualTo(1);
      assertThat(visitor.acceptedWith.get("registered_agent"))
          .as("what the page said as it took the registered agent")
          .contains("its answer was lost");
    }
  }

  @Nested
  @SpringBootTest(
      webEnvironment = WebEnvironment.RANDOM_PORT,
      properties = {
        "faulty-service.fraction=" + MOST_FAILING,
        "faulty-service.seed=6243",
        // Tracking's background polls would draw from the seeded faults in an order that
        // depends on timing; the page follows the set itself.
        "formation.tracking.enabled=false"
      })
  @Import(FaultyService.class)
  class WithHalfOfRequestsFailing {
    @LocalServerPort int port;
    @Autowired FormationSandbox sandbox;

    @Test
    void aPersonGetsThroughHalfTheRequestsFailingWithOneDocumentSetHoldingWhatTheyTyped()
        throws IOException {
      new Visitor(port, sandbox, "faults-50").goesFromStartToComplete();
    }
  }

  /**
   * The sandbox failing a fraction of requests, evenly split between the kinds it has. Imported,
   * not a {@code @TestConfiguration}: Spring would take one nested here as the default
   * configuration of every nested test class.
   */
  static class FaultyService {
    @Bean
    SandboxOptions sandboxOptions(
        @Value("${faulty-service.fraction}") double fraction,
        @Value("${faulty-service.seed}") long seed) {
      return options(fraction, seed);
    }

    static SandboxOptions options(double fraction, long seed) {
      return SandboxOptions.defaults()
          .withToken(SandboxForTests.TOKEN)
          .withReview(true)
          .withFaults(Faults.evenly(fraction).withSeed(seed));
    }
  }

  /**
   * What the person types into each form: every field, defaults typed over, as the service must
   * hold it.
   */
  private static final Map<String, String> TYPED =
      Map.of(
          "company",
          "{\"name\": \"Acme Robotics\", \"suffix\": \"Inc.\", \"website\": \"https://acme.example\"}",
          "purpose",
          "{\"purpose\": \"Software for robots\"}",
          "people",
          "{\"directors\": [{\"name\": \"Ada Lovelace\", \"email\": \"ada@example.com\"}],"
              + " \"officers\": [{\"name\": \"Ada Lovelace\", \"title\": \"CEO\","
              + " \"email\": \"ada@example.com\"}]}",
          "stock",
          "{\"authorized_shares\": 5000000, \"par_value\": 0.0001}",
          "registered_agent",
          "{\"name\": \"Delaware Registered Agents LLC\", \"address\": {\"street\": \"1000 N King"
              + " St\", \"city\": \"Wilmington\", \"state\": \"DE\", \"zip\": \"19801\"},"
              + " \"email\": \"agent@example.com\", \"service_start\": \"2026-01-02\"}");

  /**
   * Counts, in the page, each submission that came back (a form leaving "sending") and each problem
   * shown, so that the test knows an answer is a new one without racing the page.
   */
  private static final String WATCH =
      "window.seen = {settled: {}, problems: 0};"
          + "new MutationObserver(records => records.forEach(r => {"
          + "  if (r.type === 'attributes') {"
          + "    const form = r.target.dataset && r.target.dataset.form;"
          + "    if (form && (r.oldValue || '').includes('sending')"
          + "        && !r.target.className.includes('sending')) {"
          + "      window.seen.settled[form] = (window.seen.settled[form] || 0) + 1;"
          + "    }"
          + "  } else {"
          + "    r.addedNodes.forEach(n => {"
          + "      if (n.nodeType === 1 && (n.matches('.problem') || n.querySelector('.problem')))"
          + "        window.seen.problems++;"
          + "    });"
          + "  }"
          + "})).observe(document.body, {subtree: true, childList: true, attributes: true,"
          + "  attributeFilter: ['class'], attributeOldValue: true});";

  /** One person at the page, their browser, and what they met on the way. */
  private static final class Visitor {
    private final int port;
    private final FormationSandbox sandbox;
    private final String name;
    final List<String> errorsMet = new ArrayList<>();

    /** How many times the person pressed each form's Submit. */
    final Map<String, Integer> submits = new LinkedHashMap<>();

    /** What the page said in each form as it last accepted it; empty when nothing. */
    final Map<String, String> acceptedWith = new LinkedHashMap<>();

    private Browser page;

    Visitor(int port, FormationSandbox sandbox, String name) {
      this.port = port;
      this.sandbox = sandbox;
      this.name = name;
    }

    void goesFromStartToComplete() throws IOException {
      try (Browser browser = new Browser(Browser.DESKTOP, Patience.page(sandbox.options()))) {
        page = browser;
        page.open("http://localhost:" + port + "/");
        page.waitFor(By.xpath("//button[text()='Start']"));
        page.script(WATCH);

        int starts = starts();
        Fill.company(page);
        submitsUntilAccepted("company");
        page.replace("purpose", ".root_properties_purpose", "Software for robots");
        submitsUntilAccepted("purpose");
        Fill.people(page, "ada@example.com");
        submitsUntilAccepted("people");
        page.replace("stock", ".root_properties_authorized_shares", "5000000");
        page.replace("stock", ".root_properties_par_value", "0.0001");
        submitsUntilAccepted("stock");
        Fill.registeredAgent(page);
        submitsUntilAccepted("registered_agent");

        // The service's review asks for the people form again, a director's email removed.
        waitsThroughProblems(() -> page.present(inForm("people", ".badge.attention")));
        page.screenshot(name + "-asked-again");
        page.replace("people", Fill.DIRECTOR + ".root_properties_email", "ada@example.com");
        submitsUntilAccepted("people");

        waitsThroughProblems(() -> page.present(By.cssSelector(".complete a.app-link")));
        page.script("window.scrollTo(0, 0)");
        page.screenshot(name + "-complete");
        String id = page.formationId();

        assertThat(sandbox.documentSets()).extracting(SandboxDocumentSet::id).containsExactly(id);
        assertThat(sandbox.documentSet(id).orElseThrow().isComplete()).isTrue();
        assertThat(took("POST", "/v1/document_sets")).as("creates the service took").hasSize(1);
        everySubmissionTheServiceTookCarriesWhatWasTyped(id);
        assertThat(sandbox.requests())
            .as("faults the service injected")
            .extracting(r -> r.fault().orElse(null))
            .contains(Fault.RATE_LIMITED, Fault.UNAVAILABLE, Fault.DROPPED);
        // Both seeds make the first create fail with a 503: the backend tried again, not the
        // person, who pressed Start once.
        assertThat(
                sandbox.requests().stream()
                    .filter(r -> r.method().equals("POST") && r.path().equals("/v1/document_sets"))
                    .findFirst()
                    .flatMap(SandboxRequest::fault))
            .as("the first create")
            .isPresent();
        assertThat(starts).as("Starts pressed").isEqualTo(1);
        // What the person met says what happened and what to do, never a status code.
        assertThat(errorsMet).noneMatch(error -> error.matches("(?s).*\\b[1-5]\\d\\d\\b.*"));
      }
    }

    /**
     * Clicks Start until a set is made and its forms are shown, Start again being the way on;
     * returns how many times.
     */
    private int starts() throws IOException {
      for (int attempt = 1; attempt <= PATIENCE; attempt++) {
        long problems = problemsShown();
        page.click(By.xpath("//button[text()='Start']"));
        waitsThroughProblems(
            () ->
                page.driver.findElements(By.cssSelector("section[data-form]")).size() == 5
                    || (problemsShown() > problems && startIsOffered()));
        if (!startIsOffered()) {
          return attempt;
        }
        met(page.text(By.cssSelector(".problem")));
      }
      throw new AssertionError("no set was started after " + PATIENCE + " Starts");
    }

    private boolean startIsOffered() {
      List<WebElement> start = page.driver.findElements(By.xpath("//button[text()='Start']"));
      return !start.isEmpty() && start.get(0).isEnabled();
    }

    /**
     * Submits the form until the service accepts it. Each failure shows an error in the form, which
     * keeps what was typed and offers Submit again.
     */
    private void submitsUntilAccepted(String form) throws IOException {
      By submit = inForm(form, "footer button[type='submit']");
      for (int attempt = 1; attempt <= PATIENCE; attempt++) {
        long settled = settled(form);
        page.submit(form);
        submits.merge(form, 1, Integer::sum);
        page.waitUntil(b -> settled(form) > settled);
        if (page.formClasses(form).contains("done")) {
          By notice = inForm(form, ".form-notice");
          acceptedWith.put(form, page.present(notice) ? page.text(notice) : "");
          return;
        }
        assertThat(page.formClasses(form)).as(form + " after a failed submission").contains("open");
        met(page.text(inForm(form, ".error-summary")));
        WebElement again = page.driver.findElement(submit);
        assertThat(again.isEnabled()).as("Submit offered again").isTrue();
      }
      throw new AssertionError(form + " was not accepted after " + PATIENCE + " submissions");
    }

    /**
     * Waits until the condition holds, taking the way on of any problem the page shows meanwhile:
     * each one either offers a button or says the page tries again by itself.
     */
    private void waitsThroughProblems(BooleanSupplier condition) {
      page.waitUntil(
          b -> {
            if (condition.getAsBoolean()) {
              return true;
            }
            for (WebElement problem : b.findElements(By.cssSelector(".problem"))) {
              String text = problem.getText();
              List<WebElement> ways = problem.findElements(By.tagName("button"));
              assertThat(!ways.isEmpty() || text.contains("again…") || startIsOffered())
                  .as("a way on from: " + text)
                  .isTrue();
              for (WebElement way : ways) {
                met(text);
                try {
                  way.click();
                } catch (WebDriverException gone) {
                  // The page tried again by itself in the meantime: the button went with it.
                }
              }
            }
            return false;
          });
    }

    private void met(String error) {
      try {
        if (errorsMet.isEmpty()) {
          page.screenshot(name + "-error");
        }
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      errorsMet.add(error);
    }

    /**
     * The requests the service received, each with its answer or fault, for a failure's message.
     */
    String trace() {
      StringBuilder trace = new StringBuilder();
      for (SandboxRequest r : sandbox.requests()) {
        String what =
            r.path()
                .replaceAll("form_actions/.*", "form_actions/…")
                .replaceAll("ds_[a-z0-9]+", "…");
        trace.append(
            String.format(
                "%n  %s %s %s",
                r.method(),
                what,
                r.fault()
                    .map(f -> f + (r.processed() ? " (processed)" : ""))
                    .orElse(String.valueOf(r.status().orElse(0)))));
      }
      return trace.toString();
    }

    private long settled(String form) {
      Object count = page.script("return window.seen.settled[arguments[0]] || 0", form);
      return ((Number) count).longValue();
    }

    private long problemsShown() {
      return ((Number) page.script("return window.seen.problems")).longValue();
    }

    /** The requests that took effect at the service: answered 2xx, or dropped after processing. */
    private List<SandboxRequest> took(String method, String pathStart) {
      return sandbox.requests().stream()
          .filter(r -> r.method().equals(method) && r.path().startsWith(pathStart))
          .filter(
              r ->
                  r.status().isPresent()
                      ? r.status().getAsInt() / 100 == 2
                      : r.fault().orElse(null) == Fault.DROPPED && r.processed())
          .toList();
    }

    /** The submissions of what was typed into this form that took effect at the service. */
    List<SandboxRequest> tookTheValuesOf(String form) throws IOException {
      JsonNode typed = JSON.readTree(TYPED.get(form));
      List<SandboxRequest> taken = new ArrayList<>();
      for (SandboxRequest request : took("PUT", "/v1/form_actions/")) {
        if (JSON.readTree(request.body()).equals(typed)) {
          taken.add(request);
        }
      }
      return taken;
    }

    private void everySubmissionTheServiceTookCarriesWhatWasTyped(String id) throws IOException {
      Map<String, JsonNode> typed = new LinkedHashMap<>();
      for (Map.Entry<String, String> entry : TYPED.entrySet()) {
        typed.put(entry.getKey(), JSON.readTree(entry.getValue()));
      }
      List<JsonNode> taken = new ArrayList<>();
      for (SandboxRequest request : took("PUT", "/v1/form_actions/")) {
        taken.add(JSON.readTree(request.body()));
      }
      // Action urls name no form: each body must be what was typed into one of them.
      assertThat(taken).isNotEmpty().allSatisfy(body -> assertThat(typed).containsValue(body));
      assertThat(taken).containsAll(typed.values());
      // Read again as this test reads JSON, so that numbers compare by what they say.
      Map<String, JsonNode> held = new LinkedHashMap<>();
      for (Map.Entry<String, JsonNode> entry :
          sandbox.documentSet(id).orElseThrow().values().entrySet()) {
        held.put(entry.getKey(), JSON.readTree(entry.getValue().toString()));
      }
      assertThat(held).as("what the service holds").isEqualTo(typed);
    }
  }

  private static By inForm(String form, String css) {
    return Browser.inForm(form, css);
  }
}
