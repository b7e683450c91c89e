package io.formation.examples.web;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.openqa.selenium.By;
import org.openqa.selenium.Keys;
import org.openqa.selenium.Rectangle;
import org.openqa.selenium.WebElement;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Import;

/** The page on a 390×844 phone: controls a finger can hit, and nothing moving under it. */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
@Import(SandboxForTests.class)
class PhoneTest {
  @RegisterExtension static final HangGuard GUARD = HangGuard.of(SandboxForTests.PATIENCE);

  @LocalServerPort int port;

  @RegisterExtension final Browser page = Browser.open(Browser.PHONE, SandboxForTests.PATIENCE);

  @BeforeEach
  void startAFormation() throws IOException {
    page.open("http://localhost:" + port + "/");
    page.screenshot("phone-start");
    page.click(By.xpath("//button[text()='Start']"));
    page.waitUntil(b -> b.findElements(By.cssSelector("section[data-form]")).size() == 5);
  }

  @Test
  void everyControlIsAtLeast44PixelsHigh() throws IOException {
    page.click(Browser.inForm("people", ".root_properties_directors .button-add"));
    page.waitFor(Browser.inForm("people", ".button-delete"));
    page.replace("company", ".root_properties_name", "Acme Robotics");
    page.replace("company", ".root_properties_website", "acme-robotics");
    page.submit("company");
    page.waitFor(Browser.inForm("company", ".error-summary"));

    List<WebElement> controls =
        page.driver.findElements(
            By.cssSelector("main input, main select, main textarea, main button"));
    assertThat(controls).hasSizeGreaterThan(15);
    assertThat(controls)
        .allSatisfy(
            control ->
                assertThat(control.getRect().getHeight())
                    .as(
                        control.getTagName()
                            + " "
                            + control.getText()
                            + control.getDomAttribute("id"))
                    .isGreaterThanOrEqualTo(44));
    page.script("document.querySelector(\"section[data-form='company']\").scrollIntoView()");
    page.screenshot("phone");
  }

  @Test
  void theSubmitButtonStaysPutWhileAPersonMovesThroughTheFields() throws IOException {
    Fill.company(page);
    page.submit("company");
    page.waitUntilDone("company");
    By submit = Browser.inForm("stock", "footer button[type='submit']");
    Rectangle before = page.rect(submit);
    WebElement par = page.input("stock", ".root_properties_par_value");
    par.click();
    Rectangle focused = page.rect(submit);
    par.sendKeys(Keys.chord(Keys.CONTROL, "a"), Keys.BACK_SPACE, "0.0002");
    Rectangle typed = page.rect(submit);
    par.sendKeys(Keys.TAB);
    Rectangle left = page.rect(submit);

    assertThat(List.of(focused, typed, left)).containsOnly(before);
    page.submit("stock");
    page.waitUntilDone("stock");
  }
}
