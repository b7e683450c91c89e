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
 * A message lives as long as its cause: a field the person corrects and leaves is checked again,
 * and its message goes, at the field and in the summary, before the next Submit; the messages of
 * fields not yet corrected stay. On a desktop window and on a 390×844 phone.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
@Import(SandboxForTests.class)
class FieldMessagesTest {
  @RegisterExtension static final HangGuard GUARD = HangGuard.of(SandboxForTests.PATIENCE);

  private static final String ZIP = ".root_properties_address_properties_zip";
  private static final String ZIP_MESSAGE =
      "Enter ZIP code in the correct format: Five-digit ZIP code.";

  @LocalServerPort int port;

  @ParameterizedTest
  @ValueSource(strings = {"desktop", "phone"})
  void aCorrectedFieldLosesItsMessageAsThePersonLeavesIt(String size) throws Exception {
    try (Browser page =
        new Browser(
            size.equals("phone") ? Browser.PHONE : Browser.DESKTOP, SandboxForTests.PATIENCE)) {
      Fill.start(page, port);
      page.replace("registered_agent", ZIP, "1980");
      page.submit("registered_agent");
      page.waitFor(Browser.inForm("registered_agent", ZIP + " .validation_error"));
      assertThat(summary(page)).contains(ZIP_MESSAGE, "Enter agent name");

      page.replace("registered_agent", ZIP, "19801");
      page.input("registered_agent", ZIP).sendKeys(Keys.TAB);

      page.waitUntil(
          b -> !page.present(Browser.inForm("registered_agent", ZIP + " .validation_error")));
      assertThat(summary(page)).doesNotContain(ZIP_MESSAGE).contains("Enter agent name");
      assertThat(page.input("registered_agent", ZIP).getDomAttribute("aria-invalid"))
          .isEqualTo("false");
      // A field left as it was keeps its message.
      page.input("registered_agent", ".root_properties_name").click();
      page.input("registered_agent", ".root_properties_name").sendKeys(Keys.TAB);
      assertThat(summary(page)).contains("Enter agent name");
      page.screenshot(size + "-corrected-field");
    }
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
