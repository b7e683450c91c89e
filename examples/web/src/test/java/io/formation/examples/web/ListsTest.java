package io.formation.examples.web;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Import;

/**
 * The lists of a form as a designer would ship them, on a desktop window and a 390×844 phone: an
 * empty list says so in words; a one-entry list offers no Up or Down; Remove is read once; a
 * finished form shows no list buttons at all.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
@Import(SandboxForTests.class)
class ListsTest {
  @RegisterExtension static final HangGuard GUARD = HangGuard.of(SandboxForTests.PATIENCE);

  private static final String LIST_BUTTONS =
      ".button-add, .button-up, .button-down, .button-delete";

  @LocalServerPort int port;

  @ParameterizedTest
  @ValueSource(strings = {"desktop", "phone"})
  void listsOfferOnlyWhatCanBeDoneAndSayItInWords(String size) throws Exception {
    try (Browser page =
        new Browser(
            size.equals("phone") ? Browser.PHONE : Browser.DESKTOP, SandboxForTests.PATIENCE)) {
      Fill.start(page, port);
      assertThat(page.text(Browser.inForm("people", ".root_properties_directors .children")))
          .isEqualTo("None added yet.");

      Fill.people(page, "ada@example.com");
      String directors = ".root_properties_directors .children ";
      assertThat(shown(page, directors + ".button-up, " + directors + ".button-down")).isEmpty();
      WebElement remove =
          page.driver.findElement(Browser.inForm("people", directors + ".button-delete"));
      String name = remove.getAccessibleName();
      assertThat(name).isEqualTo("Remove").doesNotContainIgnoringCase("button");

      // Two entries can be ordered.
      page.click(Browser.inForm("people", ".root_properties_officers .button-add"));
      page.waitUntil(
          b -> shown(page, ".root_properties_officers .children .button-up").size() == 2);

      page.click(
          By.cssSelector(
              "section[data-form='people'] .root_properties_officers .children > div:nth-child(2)"
                  + " .button-delete"));
      page.driver.switchTo().alert().accept();
      page.waitUntil(b -> shown(page, ".root_properties_officers .children .button-up").isEmpty());
      page.submit("people");
      page.waitUntilDone("people");
      assertThat(shown(page, LIST_BUTTONS)).as("list buttons of a finished form").isEmpty();
      page.screenshot(size + "-finished-list");
    }
  }

  /** The elements of the people form matching the selector that a person can see. */
  private static List<WebElement> shown(Browser page, String css) {
    String scoped =
        String.join(
            ", ",
            java.util.Arrays.stream(css.split(","))
                .map(part -> "section[data-form='people'] " + part.strip())
                .toList());
    return page.driver.findElements(By.cssSelector(scoped)).stream()
        .filter(WebElement::isDisplayed)
        .toList();
  }
}
