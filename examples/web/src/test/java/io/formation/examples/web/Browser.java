package io.formation.examples.web;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.function.Function;
import java.util.logging.Level;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.Keys;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.Rectangle;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.interactions.Actions;
import org.openqa.selenium.logging.LogType;
import org.openqa.selenium.logging.LoggingPreferences;
import org.openqa.selenium.support.ui.Select;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * Headless Chromium driven by Debian's chromedriver (nothing is downloaded), with what the browser
 * tests do to the page as a person would: type key by key, choose, submit, wait for what the page
 * shows (never for a fixed time), and take screenshots into {@code target/screenshots}.
 */
final class Browser implements AutoCloseable, AfterEachCallback {
  private static final String CHROMIUM = System.getProperty("chromium.binary", "/usr/bin/chromium");
  private static final String CHROMEDRIVER =
      System.getProperty("chromedriver.binary", "/usr/bin/chromedriver");
  static final Path SCREENSHOTS = Path.of("target", "screenshots");

  /** A desktop window, and the phone viewport of the issue (an iPhone 12 to 14). */
  static final Dimension DESKTOP = new Dimension(1200, 1900);

  static final Dimension PHONE = new Dimension(390, 844);

  /** How long a wait for what the page shows may take: {@link Patience}, from the schedule. */
  private final Duration patience;

  private final Path profile;
  private final ChromeDriverService service;
  final ChromeDriver driver;

  /**
   * A browser for one test, registered as its extension ({@code @RegisterExtension final Browser
   * page = Browser.open(Browser.DESKTOP, SandboxForTests.PATIENCE);}): opened with the test's
   * instance, closed after it.
   */
  static Browser open(Dimension window, Duration patience) {
    try {
      return new Browser(window, patience);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public void afterEach(ExtensionContext context) throws IOException {
    close();
  }

  Browser(Dimension window, Duration patience) throws IOException {
    this.patience = patience;
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
        "--user-data-dir=" + profile);
    if (window.equals(PHONE)) {
      // A phone's viewport, pixel ratio and touch, as Chromium's device mode has it.
      chrome.setExperimentalOption(
          "mobileEmulation",
          java.util.Map.of(
              "deviceMetrics",
              java.util.Map.of("width", 390, "height", 844, "pixelRatio", 2.0, "touch", true)));
    } else {
      chrome.addArguments("--window-size=" + window.getWidth() + "," + window.getHeight());
    }
    LoggingPreferences logs = new LoggingPreferences();
    logs.enable(LogType.BROWSER, Level.ALL);
    chrome.setCapability(ChromeOptions.LOGGING_PREFS, logs);
    // Given the driver, Selenium starts it as is and never asks Selenium Manager for one.
    service =
        new ChromeDriverService.Builder().usingDriverExecutable(new File(CHROMEDRIVER)).build();
    driver = new ChromeDriver(service, chrome);
  }

  void open(String url) {
    driver.get(url);
  }

  static By inForm(String form, String css) {
    return By.cssSelector("section[data-form='" + form + "'] " + css);
  }

  /**
   * The input of a field, by the class JSON Forms gives its control ({@code
   * .root_properties_name}).
   */
  WebElement input(String form, String control) {
    String section = "section[data-form='" + form + "'] " + control;
    return waitUntil(
        b -> b.findElement(By.cssSelector(section + " input, " + section + " textarea")));
  }

  /** Selects all of the field's text, deletes it, and types {@code text} key by key. */
  void replace(String form, String control, String text) {
    WebElement input = input(form, control);
    input.sendKeys(Keys.chord(Keys.CONTROL, "a"), Keys.BACK_SPACE);
    input.sendKeys(text);
  }

  /** Types into the field key by key, {@code gap} between keys, as one chain the driver times. */
  void typeSpaced(WebElement input, String text, Duration gap) {
    input.click();
    Actions keys = new Actions(driver);
    for (char c : text.toCharArray()) {
      keys.sendKeys(String.valueOf(c)).pause(gap);
    }
    keys.perform();
  }

  void choose(String form, String control, String value) {
    new Select(waitUntil(b -> b.findElement(inForm(form, control + " select"))))
        .selectByValue(value);
  }

  void date(String form, String control, String keys, String value) {
    WebElement input = input(form, control);
    input.sendKeys(keys);
    waitUntil(b -> value.equals(input(form, control).getDomProperty("value")));
  }

  void submit(String form) {
    click(inForm(form, "footer button[type='submit']"));
  }

  void waitUntilDone(String form) {
    waitUntil(b -> formClasses(form).contains("done"));
  }

  String formClasses(String form) {
    return driver
        .findElement(By.cssSelector("section[data-form='" + form + "']"))
        .getAttribute("class");
  }

  void click(By by) {
    waitUntil(b -> b.findElement(by)).click();
  }

  String text(By by) {
    return waitUntil(b -> b.findElement(by)).getText();
  }

  /** The text of the element as assistive technology reads it, hidden parts included. */
  String textContent(By by) {
    return waitUntil(b -> b.findElement(by)).getDomProperty("textContent").strip();
  }

  boolean present(By by) {
    return !driver.findElements(by).isEmpty();
  }

  void waitFor(By by) {
    waitUntil(b -> !b.findElements(by).isEmpty());
  }

  <T> T waitUntil(Function<WebDriver, T> condition) {
    return new WebDriverWait(driver, patience)
        .ignoring(StaleElementReferenceException.class)
        .until(condition);
  }

  Rectangle rect(By by) {
    return waitUntil(b -> b.findElement(by)).getRect();
  }

  /** The element that has the focus: its id, or its tag and text when it has none. */
  String focused() {
    WebElement active = driver.switchTo().activeElement();
    String id = active.getAttribute("id");
    return id == null || id.isEmpty() ? active.getTagName() + ":" + active.getText() : id;
  }

  Object script(String script, Object... args) {
    return ((JavascriptExecutor) driver).executeScript(script, args);
  }

  /**
   * What axe-core (Deque's accessibility rules, WCAG 2.2 A and AA) finds wrong with the page as it
   * stands: one line per violation, naming the rule and the elements. axe is a dev dependency of
   * the page, read from its node_modules and run in the page, so nothing is downloaded.
   */
  @SuppressWarnings("unchecked")
  List<String> accessibilityViolations() throws IOException {
    String axe = Files.readString(Path.of("src/main/frontend/node_modules/axe-core/axe.min.js"));
    driver.executeScript(axe);
    Object found =
        driver.executeAsyncScript(
            "const done = arguments[arguments.length - 1];"
                + "axe.run(document, {runOnly: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa',"
                + " 'wcag22aa', 'best-practice']})"
                + ".then(r => done(r.violations.map(v => v.id + ': ' + v.help + ' at '"
                + " + v.nodes.map(n => n.target.join(' ')).join(', '))))"
                + ".catch(e => done(['axe failed: ' + e]));");
    return (List<String>) found;
  }

  /**
   * From now on, records the text of every message the page shows a person (problems, error
   * summaries, notices, the lost card) as it appears, however briefly.
   */
  void recordMessages() {
    script(
        "window.messagesShown = [];"
            + "const kinds = '.problem, .error-summary, .notice, .form-notice, .lost, .offline';"
            + "const note = n => { if (n.nodeType !== 1) return;"
            + "  [n, ...n.querySelectorAll(kinds)].filter(e => e.matches(kinds))"
            + "    .forEach(e => window.messagesShown.push(e.textContent)); };"
            + "new MutationObserver(rs => rs.forEach(r => r.type === 'characterData'"
            + "    ? note(r.target.parentElement && r.target.parentElement.closest(kinds))"
            + "    : r.addedNodes.forEach(note)))"
            + ".observe(document.body, {subtree: true, childList: true, characterData: true});");
  }

  /** What {@link #recordMessages()} saw since. */
  @SuppressWarnings("unchecked")
  List<String> messagesShown() {
    return (List<String>) script("return window.messagesShown.slice()");
  }

  List<String> shownStates() {
    return driver.findElements(By.cssSelector(".progress li")).stream()
        .map(li -> li.getAttribute("data-state"))
        .toList();
  }

  String currentState() {
    List<WebElement> current = driver.findElements(By.cssSelector(".progress li.current"));
    return current.isEmpty() ? null : current.get(0).getAttribute("data-state");
  }

  String formationId() {
    return waitUntil(b -> b.findElement(By.cssSelector("[data-formation]")))
        .getAttribute("data-formation");
  }

  void screenshot(String name) throws IOException {
    Files.createDirectories(SCREENSHOTS);
    byte[] png = driver.getScreenshotAs(OutputType.BYTES);
    Files.write(SCREENSHOTS.resolve(name + ".png"), png);
  }

  /**
   * Also a small JPEG of the window, {@code width} CSS pixels wide, into {@code
   * target/screenshots/small/}: the copies the README shows are these, kept small.
   */
  void screenshot(String name, int width) throws IOException {
    screenshot(name);
    Number windowWidth = (Number) script("return window.innerWidth");
    Number windowHeight = (Number) script("return window.innerHeight");
    Number scrolledX = (Number) script("return window.scrollX");
    Number scrolledY = (Number) script("return window.scrollY");
    java.util.Map<String, Object> clip =
        java.util.Map.of(
            "x", scrolledX,
            "y", scrolledY,
            "width", windowWidth,
            "height", windowHeight,
            "scale", width / windowWidth.doubleValue());
    java.util.Map<String, Object> shot =
        driver.executeCdpCommand(
            "Page.captureScreenshot",
            java.util.Map.of("format", "jpeg", "quality", 70, "clip", clip));
    Path small = SCREENSHOTS.resolve("small");
    Files.createDirectories(small);
    Files.write(
        small.resolve(name + ".jpg"),
        java.util.Base64.getDecoder().decode((String) shot.get("data")));
  }

  @Override
  public void close() throws IOException {
    try {
      // Where the page stood at the end, which is what a failure needs to be understood.
      screenshot("last");
      Files.writeString(SCREENSHOTS.resolve("last.html"), driver.getPageSource());
      driver.quit();
    } finally {
      service.stop();
      try (Stream<Path> files = Files.walk(profile)) {
        files.sorted(Comparator.reverseOrder()).map(Path::toFile).forEach(File::delete);
      }
    }
  }
}
