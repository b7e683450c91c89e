package io.formation.examples.web;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.formation.sandbox.FormValidator;
import io.formation.sandbox.FormationSandbox;
import io.formation.sandbox.SandboxOptions;
import io.formation.sandbox.SandboxTemplates;
import io.formation.sandbox.Violation;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.logging.Level;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.openqa.selenium.By;
import org.openqa.selenium.Keys;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.logging.LogEntry;
import org.openqa.selenium.logging.LogType;
import org.openqa.selenium.logging.LoggingPreferences;
import org.openqa.selenium.support.ui.Select;
import org.openqa.selenium.support.ui.WebDriverWait;
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
@Timeout(value = 5, unit = TimeUnit.MINUTES) // a guard against a hang, not a measure of speed
class BrowserFlowTest {
  private static final String CHROMIUM = System.getProperty("chromium.binary", "/usr/bin/chromium");
  private static final String CHROMEDRIVER =
      System.getProperty("chromedriver.binary", "/usr/bin/chromedriver");
  private static final Duration PATIENCE = Duration.ofSeconds(60);
  private static final Path SCREENSHOTS = Path.of("target", "screenshots");

  @LocalServerPort int port;
  @Autowired FormationSandbox sandbox;
  @Autowired TestClock clock;
  @Autowired SandboxOptions options;

  private Path profile;
  private ChromeDriverService service;
  private WebDriver browser;

  @BeforeEach
  void openBrowser() throws IOException {
    profile = Files.createTempDirectory("formation-chromium-");
    ChromeOptions chrome = new ChromeOptions();
    chrome.setBinary(CHROMIUM);
    chrome.addArguments(
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        "--lang=en-US",
        "--window-size=1200,1900",
        "--user-data-dir=" + profile);
    LoggingPreferences logs = new LoggingPreferences();
    logs.enable(LogType.BROWSER, Level.ALL);
    chrome.setCapability(ChromeOptions.LOGGING_PREFS, logs);
    // Given the driver, Selenium starts it as is and never asks Selenium Manager for one.
    service =
        new ChromeDriverService.Builder().usingDriverExecutable(new File(CHROMEDRIVER)).build();
    browser = new ChromeDriver(service, chrome);
  }

  @AfterEach
  void closeBrowser() throws IOException {
    try {
      // Where the page stood at the end, which is what a failure needs to be understood.
      screenshot("last");
      Files.writeString(SCREENSHOTS.resolve("last.html"), browser.getPageSource());
      browser.quit();
    } finally {
      service.stop();
      try (Stream<Path> files = Files.walk(profile)) {
        files.sorted(Comparator.reverseOrder()).map(Path::toFile).forEach(File::delete);
      }
    }
  }

  @Test
  void aPersonFillsEveryFormFixesWhatTheServiceRejectsAndFollowsTheFormationToComplete()
      throws IOException {
    browser.get("http://localhost:" + port + "/");
    click(By.xpath("//button[text()='Start']"));
    waitUntil(b -> b.findElements(By.cssSelector("section[data-form]")).size() == 5);

    type("company", ".root_properties_name", "Acme Robotics");
    choose("company", ".root_properties_suffix", "Inc.");
    type("company", ".root_properties_website", "https://acme.example");
    submit("company");
    submit("purpose"); // the schema's default purpose, filled in by the page
    waitUntilDone("company");
    waitUntilDone("purpose");

    // A director's email the service does not accept: its error appears at that very field.
    click(inForm("people", ".root_properties_directors .button-add"));
    click(inForm("people", ".root_properties_officers .button-add"));
    String director = ".root_properties_directors .children > div:nth-child(1) ";
    String officer = ".root_properties_officers .children > div:nth-child(1) ";
    type("people", director + ".root_properties_name", "Ada Lovelace");
    type("people", director + ".root_properties_email", "ada.lovelace");
    type("people", officer + ".root_properties_name", "Ada Lovelace");
    choose("people", officer + ".root_properties_title", "CEO");
    type("people", officer + ".root_properties_email", "ada@example.com");
    submit("people");
    String emailError = director + ".root_properties_email .validation_error";
    waitUntil(b -> !b.findElements(inForm("people", emailError)).isEmpty());
    assertThat(text(inForm("people", emailError))).contains(serviceMessage("/directors/0/email"));
    assertThat(formClasses("people")).contains("open");
    screenshot("mid-flow");

    type("people", director + ".root_properties_email", "ada@example.com");
    waitUntil(b -> b.findElements(inForm("people", emailError)).isEmpty());
    submit("people");
    submit("stock"); // the schema's defaults
    type("registered_agent", ".root_properties_name", "Delaware Registered Agents LLC");
    type("registered_agent", ".root_properties_address_properties_street", "1000 N King St");
    type("registered_agent", ".root_properties_address_properties_city", "Wilmington");
    choose("registered_agent", ".root_properties_address_properties_state", "DE");
    type("registered_agent", ".root_properties_address_properties_zip", "19801");
    type("registered_agent", ".root_properties_email", "agent@example.com");
    date("registered_agent", ".root_properties_service_start", "01022026", "2026-01-02");
    submit("registered_agent");
    for (String form : List.of("people", "stock", "registered_agent")) {
      waitUntilDone(form);
    }

    // Every form accepted: the page follows the set, which stays input_needed while processing.
    waitUntil(b -> !b.findElements(By.cssSelector(".progress .badge.live")).isEmpty());
    step("input_needed", "signature_requests_needed");
    step("signature_requests_needed", "awaiting_payment");

    // The service's review sends the set back with the people form reopened, an email removed.
    clock.advance(options.stepDelay().plusMillis(1));
    waitUntil(b -> !b.findElements(inForm("people", ".badge.attention")).isEmpty());
    assertThat(text(By.cssSelector(".notice"))).contains("Directors and officers");
    assertThat(text(inForm("people", emailError))).isNotBlank();
    assertThat(formClasses("company")).contains("done");
    type("people", director + ".root_properties_email", "ada@example.com");
    submit("people");
    waitUntilDone("people");

    waitUntil(b -> !b.findElements(By.cssSelector(".progress .badge.live")).isEmpty());
    step("input_needed", "awaiting_payment");
    step("awaiting_payment", "payment_processing");
    assertThat(current().findElements(By.cssSelector(".badge.unlisted"))).hasSize(1);
    step("payment_processing", "filing_in_progress");
    step("filing_in_progress", "finalizing");
    step("finalizing", "complete");

    WebElement link = waitUntil(b -> b.findElement(By.cssSelector(".complete a.app-link")));
    String id =
        browser.findElement(By.cssSelector("[data-formation]")).getAttribute("data-formation");
    assertThat(link.getAttribute("href")).isEqualTo(sandbox.baseUrl() + "/app/document_sets/" + id);
    assertThat(shownStates())
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
    assertThat(browser.manage().logs().get(LogType.BROWSER).getAll())
        .filteredOn(entry -> entry.getLevel().intValue() >= Level.SEVERE.intValue())
        .extracting(LogEntry::getMessage)
        .singleElement()
        .asString()
        .contains("/forms/people", "status of 422");
    ((ChromeDriver) browser).executeScript("window.scrollTo(0, 0)");
    screenshot("complete");
  }

  /** Waits until the page shows {@code shown} as the current state, then moves the set on. */
  private void step(String shown, String next) {
    waitUntil(b -> shown.equals(current().getAttribute("data-state")));
    SandboxForTests.leave(clock, options, shown);
    waitUntil(b -> next.equals(current().getAttribute("data-state")));
  }

  private WebElement current() {
    return browser.findElement(By.cssSelector(".progress li.current"));
  }

  private List<String> shownStates() {
    return browser.findElements(By.cssSelector(".progress li")).stream()
        .map(li -> li.getAttribute("data-state"))
        .toList();
  }

  /** The message the service gives for the value at this pointer of the people form. */
  private String serviceMessage(String pointer) {
    JsonNode people =
        SandboxTemplates.form(SandboxTemplates.DELAWARE_CORPORATION, "people")
            .orElseThrow()
            .jsonSchema();
    JsonNode sent;
    try {
      sent =
          new ObjectMapper()
              .readTree(
                  "{\"directors\": [{\"name\": \"Ada Lovelace\", \"email\": \"ada.lovelace\"}],"
                      + " \"officers\": [{\"name\": \"Ada Lovelace\", \"title\": \"CEO\","
                      + " \"email\": \"ada@example.com\"}]}");
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
    return FormValidator.validate(people, sent).stream()
        .filter(v -> v.pointer().equals(pointer))
        .map(Violation::message)
        .findFirst()
        .orElseThrow();
  }

  private static By inForm(String form, String css) {
    return By.cssSelector("section[data-form='" + form + "'] " + css);
  }

  private void type(String form, String control, String text) {
    WebElement input = waitUntil(b -> b.findElement(inForm(form, control + " input")));
    input.sendKeys(Keys.chord(Keys.CONTROL, "a"), Keys.DELETE);
    input.sendKeys(text);
  }

  private void date(String form, String control, String keys, String value) {
    WebElement input = waitUntil(b -> b.findElement(inForm(form, control + " input")));
    input.sendKeys(keys);
    waitUntil(
        b -> value.equals(b.findElement(inForm(form, control + " input")).getDomProperty("value")));
  }

  private void choose(String form, String control, String value) {
    new Select(waitUntil(b -> b.findElement(inForm(form, control + " select"))))
        .selectByValue(value);
  }

  private void submit(String form) {
    click(inForm(form, "footer button"));
  }

  private void waitUntilDone(String form) {
    waitUntil(b -> formClasses(form).contains("done"));
  }

  private String formClasses(String form) {
    return browser
        .findElement(By.cssSelector("section[data-form='" + form + "']"))
        .getAttribute("class");
  }

  private void click(By by) {
    waitUntil(b -> b.findElement(by)).click();
  }

  private String text(By by) {
    return waitUntil(b -> b.findElement(by)).getText();
  }

  private <T> T waitUntil(Function<WebDriver, T> condition) {
    return new WebDriverWait(browser, PATIENCE)
        .ignoring(StaleElementReferenceException.class)
        .until(condition);
  }

  private void screenshot(String name) throws IOException {
    Files.createDirectories(SCREENSHOTS);
    byte[] png = ((ChromeDriver) browser).getScreenshotAs(OutputType.BYTES);
    Files.write(SCREENSHOTS.resolve(name + ".png"), png);
  }
}
