package io.formation.examples.web;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.openqa.selenium.By;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Import;

/**
 * What a person typed and has not submitted yet survives a reload, a list's new entry included;
 * once a form is accepted, its draft goes and the page shows what the service holds. On a desktop
 * window and on a 390×844 phone.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
@Import(SandboxForTests.class)
class DraftsTest {
  @RegisterExtension static final HangGuard GUARD = HangGuard.of(SandboxForTests.PATIENCE);

  @LocalServerPort int port;

  @ParameterizedTest
  @ValueSource(strings = {"desktop", "phone"})
  void whatWasTypedButNotSubmittedSurvivesAReload(String size) throws Exception {
    try (Browser page =
        new Browser(
            size.equals("phone") ? Browser.PHONE : Browser.DESKTOP, SandboxForTests.PATIENCE)) {
      Fill.start(page, port);
      String id = page.formationId();
      page.click(Browser.inForm("people", ".root_properties_directors .button-add"));
      page.replace("people", Fill.DIRECTOR + ".root_properties_name", "Ada Lovelace");
      page.replace("company", ".root_properties_name", "Acme Robotics");
      page.replace("purpose", ".root_properties_purpose", "Software for robots");
      page.submit("purpose");
      page.waitUntilDone("purpose");

      page.driver.navigate().refresh();
      page.waitUntil(b -> b.findElements(By.cssSelector("section[data-form]")).size() == 5);

      assertThat(page.formationId()).isEqualTo(id);
      assertThat(page.input("company", ".root_properties_name").getDomProperty("value"))
          .isEqualTo("Acme Robotics");
      assertThat(
              page.input("people", Fill.DIRECTOR + ".root_properties_name").getDomProperty("value"))
          .isEqualTo("Ada Lovelace");
      assertThat(page.formClasses("company")).contains("open");
      assertThat(page.formClasses("purpose")).contains("done");
      assertThat(page.input("purpose", ".root_properties_purpose").getDomProperty("value"))
          .isEqualTo("Software for robots");
    }
  }
}
