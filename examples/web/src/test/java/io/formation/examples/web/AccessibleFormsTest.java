package io.formation.examples.web;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.openqa.selenium.By;
import org.openqa.selenium.Keys;
import org.openqa.selenium.WebElement;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Import;

/**
 * Messages in plain words naming the field, every error the service returns shown, focus where a
 * person looks next, Enter submitting, fields marked for assistive technology and declaring the
 * keyboard and autofill they need.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
@Import(SandboxForTests.class)
class AccessibleFormsTest {
  @RegisterExtension static final HangGuard GUARD = HangGuard.of(SandboxForTests.PATIENCE);

  @LocalServerPort int port;

  @RegisterExtension final Browser page = Browser.open(Browser.DESKTOP, SandboxForTests.PATIENCE);

  @BeforeEach
  void startAFormation() {
    Fill.start(page, port);
  }

  @Test
  void afterAnAcceptanceFocusGoesOnDownTheFormsNeverBackUpToOneAbove() {
    // The company form, first, is left for later; the purpose, second, is accepted.
    page.submit("purpose");
    page.waitUntilDone("purpose");

    String below =
        (String)
            page.script(
                "return document.querySelector(\"section[data-form='purpose']\")"
                    + ".nextElementSibling.dataset.form");
    assertThat(below).isNotEqualTo("company");
    page.waitUntil(
        b ->
            below.equals(
                page.script(
                    "const s = document.activeElement.closest('section[data-form]');"
                        + "return s && s.dataset.form;")));
  }

  @Test
  void everyKeywordOfTheFormsGetsPlainWordsNamingTheField() throws IOException {
    page.replace("company", ".root_properties_name", "A".repeat(121));
    page.replace("company", ".root_properties_website", "acme robotics");
    page.submit("company");
    page.replace("purpose", ".root_properties_purpose", "Robots");
    page.submit("purpose");
    page.replace("stock", ".root_properties_authorized_shares", "0");
    page.replace("stock", ".root_properties_par_value", "0");
    page.submit("stock");
    page.replace("registered_agent", ".root_properties_address_properties_zip", "1980");
    page.replace("registered_agent", ".root_properties_email", "agent@");
    page.submit("registered_agent");
    page.submit("people");
    for (String form : List.of("company", "purpose", "stock", "registered_agent", "people")) {
      page.waitFor(Browser.inForm(form, ".error-summary"));
    }

    assertThat(summary("company"))
        .containsExactlyInAnyOrder(
            "Company name must be 120 characters or fewer",
            "Select suffix",
            "Enter website as a full web address, like https://www.example.com");
    assertThat(summary("purpose")).containsExactly("Purpose must be 10 characters or more");
    assertThat(summary("stock"))
        .containsExactlyInAnyOrder(
            "Authorized shares must be 1 or more", "Par value (USD) must be more than 0");
    assertThat(summary("registered_agent"))
        .containsExactlyInAnyOrder(
            "Enter agent name",
            "Enter street",
            "Enter city",
            "Select state",
            "Enter ZIP code in the correct format: Five-digit ZIP code.",
            "Enter agent email in the correct format, like name@example.com",
            "Enter service start");
    assertThat(summary("people")).containsExactlyInAnyOrder("Add directors", "Add officers");
    // No validator's words anywhere on the page.
    assertThat(page.driver.findElement(By.tagName("main")).getText())
        .doesNotContain("must have", "property", "pattern", "RFC", "match");
    page.screenshot("plain-words");
  }

  @Test
  void everyErrorTheServiceReturnsIsShownTheEmptyAddressGroupToo() {
    page.submit("registered_agent");
    page.waitFor(Browser.inForm("registered_agent", ".error-summary"));

    // Four errors: the name, the address (a group, which has no field of its own), the email
    // and the start date; each one is in the summary, and each about a field is at its field.
    assertThat(summary("registered_agent"))
        .containsExactlyInAnyOrder(
            "Enter agent name",
            "Enter address in Delaware",
            "Enter agent email",
            "Enter service start");
    assertThat(
            page.driver.findElements(
                Browser.inForm("registered_agent", ".control .validation_error")))
        .hasSize(3);
  }

  @Test
  void focusGoesToTheFirstOpenFormThenToTheFirstInvalidFieldThenToTheNextOpenForm() {
    assertThat(page.focused()).isEqualTo("field-company-name");

    page.submit("company");
    page.waitFor(Browser.inForm("company", ".error-summary"));
    page.waitUntil(b -> page.focused().equals("field-company-name"));

    page.replace("company", ".root_properties_name", "Acme Robotics");
    page.choose("company", ".root_properties_suffix", "Inc.");
    page.submit("company");
    page.waitUntilDone("company");
    String nextForm =
        page.driver
            .findElements(By.cssSelector("section[data-form].open"))
            .get(0)
            .getAttribute("data-form");
    page.waitUntil(b -> page.focused().startsWith("field-" + nextForm + "-"));
  }

  @Test
  void enterInAFieldSubmitsItsForm() {
    page.replace("company", ".root_properties_name", "Acme Robotics");
    page.choose("company", ".root_properties_suffix", "Inc.");
    page.input("company", ".root_properties_name").sendKeys(Keys.ENTER);

    page.waitUntilDone("company");
  }

  @Test
  void invalidFieldsAreMarkedAndDescribedByTheirMessage() {
    WebElement name = page.input("company", ".root_properties_name");
    assertThat(name.getAttribute("aria-invalid")).isEqualTo("false");

    page.submit("company");
    page.waitFor(Browser.inForm("company", ".error-summary"));

    name = page.input("company", ".root_properties_name");
    assertThat(name.getAttribute("aria-invalid")).isEqualTo("true");
    List<String> describedBy = List.of(name.getAttribute("aria-describedby").split(" "));
    assertThat(describedBy).hasSize(2);
    assertThat(page.textContent(By.id(describedBy.get(0))))
        .isEqualTo("The name without its suffix, for example Acme Robotics.");
    assertThat(page.textContent(By.id(describedBy.get(1)))).isEqualTo("Error: Enter company name");
    // The summary links to the field.
    page.click(By.linkText("Enter company name"));
    page.waitUntil(b -> page.focused().equals("field-company-name"));
  }

  @Test
  void inputsDeclareTheirTypeKeyboardAndAutofill() {
    Map<String, List<String>> expected =
        Map.of(
            "company .root_properties_website", List.of("url", "url", "url"),
            "registered_agent .root_properties_email", List.of("email", "email", "email"),
            "registered_agent .root_properties_address_properties_zip",
                List.of("text", "numeric", "postal-code"),
            "registered_agent .root_properties_address_properties_street",
                List.of("text", "text", "address-line1"),
            "stock .root_properties_authorized_shares", List.of("text", "numeric", "off"),
            "stock .root_properties_par_value", List.of("text", "decimal", "off"),
            "registered_agent .root_properties_service_start", List.of("date", "", "off"));
    expected.forEach(
        (field, attributes) -> {
          String[] parts = field.split(" ");
          WebElement input = page.input(parts[0], parts[1]);
          assertThat(input.getAttribute("type")).as(field).isEqualTo(attributes.get(0));
          assertThat(String.valueOf(input.getDomAttribute("inputmode")).replace("null", ""))
              .as(field)
              .isEqualTo(attributes.get(1));
          assertThat(input.getDomAttribute("autocomplete")).as(field).endsWith(attributes.get(2));
        });
    assertThat(page.driver.findElements(By.cssSelector("main input, main textarea, main select")))
        .allSatisfy(control -> assertThat(control.getDomAttribute("autocomplete")).isNotBlank());
  }

  private List<String> summary(String form) {
    return page.driver.findElements(Browser.inForm(form, ".error-summary li")).stream()
        .map(WebElement::getText)
        .toList();
  }
}
