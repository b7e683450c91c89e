package io.formation.examples.web;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.openqa.selenium.Keys;
import org.openqa.selenium.WebElement;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Import;

/**
 * A message lives as long as its cause: once a form has been refused, a field the person leaves is
 * checked again. Its message goes, at the field and in the summary, when the value is right now,
 * and says what is wrong when it is not; the messages of fields not yet corrected stay, and what
 * was typed stays exactly as typed. On a desktop window and on a 390×844 phone.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
@Import(SandboxForTests.class)
class FieldMessagesTest {
  @RegisterExtension static final HangGuard GUARD = HangGuard.of(SandboxForTests.PATIENCE);

  private static final String ZIP = ".root_properties_address_properties_zip";
  private static final String EMAIL = ".root_properties_email";
  private static final String NAME = ".root_properties_name";
  private static final String ZIP_MESSAGE =
      "Enter ZIP code in the correct format: Five-digit ZIP code.";
  private static final String EMAIL_MESSAGE =
      "Enter agent email in the correct format, like name@example.com";

  @LocalServerPort int port;

  @ParameterizedTest
  @ValueSource(strings = {"desktop", "phone"})
  void aCorrectedFieldLosesItsMessageAsThePersonLeavesItAndKeepsWhatWasTyped(String size)
      throws Exception {
    try (Browser page =
        new Browser(
            size.equals("phone") ? Browser.PHONE : Browser.DESKTOP, SandboxForTests.PATIENCE)) {
      Fill.start(page, port);
      page.replace("registered_agent", ZIP, "1980");
      page.replace("registered_agent", EMAIL, "agent@example.com");
      page.submit("registered_agent");
      page.waitFor(Browser.inForm("registered_agent", ZIP + " .validation_error"));
      assertThat(summary(page)).contains(ZIP_MESSAGE, "Enter agent name");

      page.replace("registered_agent", ZIP, "19801");
      page.input("registered_agent", ZIP).sendKeys(Keys.TAB);

      page.waitUntil(b -> !page.present(Browser.inForm("registered_agent", ZIP + ".invalid")));
      page.waitUntil(b -> !summary(page).contains(ZIP_MESSAGE));
      assertThat(summary(page)).contains("Enter agent name");
      assertThat(page.input("registered_agent", ZIP).getDomAttribute("aria-invalid"))
          .isEqualTo("false");
      assertThat(value(page, ZIP))
          .as("the corrected ZIP code, after leaving it")
          .isEqualTo("19801");

      // A field made wrong after the refusal gets its message as the person leaves it.
      page.replace("registered_agent", EMAIL, "agent@");
      page.input("registered_agent", EMAIL).sendKeys(Keys.TAB);
      page.waitUntil(b -> summary(page).contains(EMAIL_MESSAGE));
      page.waitFor(Browser.inForm("registered_agent", EMAIL + " .validation_error"));

      // A field left as it was keeps its message, and nothing typed before is lost.
      page.input("registered_agent", NAME).click();
      page.input("registered_agent", NAME).sendKeys(Keys.TAB);
      assertThat(summary(page)).contains("Enter agent name", EMAIL_MESSAGE);
      assertThat(value(page, ZIP)).isEqualTo("19801");
      assertThat(value(page, EMAIL)).isEqualTo("agent@");
      page.screenshot(size + "-corrected-field");
    }
  }

  private static String value(Browser page, String control) {
    return page.input("registered_agent", control).getDomProperty("value");
  }

  private static List<String> summary(Browser page) {
    return page
        .driver
        .findElements(Browser.inForm("registered_agent", ".error-summary li"))
        .stream()
        .map(WebElement::getText)
        .toList();
  }
}
