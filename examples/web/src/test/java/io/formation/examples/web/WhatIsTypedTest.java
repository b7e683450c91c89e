package io.formation.examples.web;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.formation.sandbox.FormationSandbox;
import io.formation.sandbox.SandboxRequest;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.openqa.selenium.By;
import org.openqa.selenium.Keys;
import org.openqa.selenium.Rectangle;
import org.openqa.selenium.WebElement;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Import;

/**
 * What a person types is what is sent, field by field, compared with the requests the sandbox
 * received: defaults typed over, whole numbers not rounded, no key lost when typed fast; and the
 * Submit button stays where the person aims.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
@Import(SandboxForTests.class)
class WhatIsTypedTest {
  @RegisterExtension static final HangGuard GUARD = HangGuard.of(SandboxForTests.PATIENCE);

  private static final ObjectMapper JSON = new ObjectMapper();

  @LocalServerPort int port;
  @Autowired FormationSandbox sandbox;

  @RegisterExtension final Browser page = Browser.open(Browser.DESKTOP, SandboxForTests.PATIENCE);

  @BeforeEach
  void startAFormation() {
    Fill.start(page, port);
  }

  @Test
  void everyDefaultCanBeClearedAndTypedOverAndWhatIsSentIsWhatWasTyped() throws IOException {
    page.replace("purpose", ".root_properties_purpose", "Software for robots");
    page.replace("stock", ".root_properties_authorized_shares", "5000000");
    page.replace("stock", ".root_properties_par_value", "0.0001");

    assertThat(page.input("stock", ".root_properties_authorized_shares").getDomProperty("value"))
        .isEqualTo("5000000");
    page.submit("purpose");
    page.submit("stock");
    page.waitUntilDone("purpose");
    page.waitUntilDone("stock");

    assertThat(sent("purpose")).isEqualTo(json("{\"purpose\": \"Software for robots\"}"));
    assertThat(sent("stock"))
        .isEqualTo(json("{\"authorized_shares\": 5000000, \"par_value\": 0.0001}"));
  }

  @Test
  void aWholeNumberFieldSendsWhatWasTypedAndSaysWhyTheServiceRefusedIt() throws IOException {
    String shares = ".root_properties_authorized_shares";
    page.replace("stock", shares, "2.5");
    page.submit("stock");
    page.waitFor(Browser.inForm("stock", shares + " .validation_error"));

    assertThat(sent("stock"))
        .isEqualTo(json("{\"authorized_shares\": 2.5, \"par_value\": 0.00001}"));
    assertThat(page.textContent(Browser.inForm("stock", shares + " .validation_error")))
        .isEqualTo("Error: Authorized shares must be a whole number, like 5000000");
    assertThat(page.input("stock", shares).getDomProperty("value")).isEqualTo("2.5");
    page.screenshot("whole-number-refused");

    page.replace("stock", shares, "-5");
    page.submit("stock");
    page.waitUntil(
        b ->
            page.textContent(Browser.inForm("stock", shares + " .validation_error"))
                .equals("Error: Authorized shares must be 1 or more"));
    assertThat(sent("stock"))
        .isEqualTo(json("{\"authorized_shares\": -5, \"par_value\": 0.00001}"));
  }

  @Test
  void noKeyIsLostWhenKeysComeTenMillisecondsApart() throws IOException {
    List<String> fields =
        List.of(
            ".root_properties_name",
            ".root_properties_address_properties_street",
            ".root_properties_address_properties_city",
            ".root_properties_address_properties_zip",
            ".root_properties_email");
    List<String> texts =
        List.of(
            "Delaware Registered Agents of Wilmington LLC",
            "1000 North King Street, Suite 300",
            "Wilmington",
            "19801",
            "registered-agent@agents.example");
    for (int i = 0; i < fields.size(); i++) {
      WebElement input = page.input("registered_agent", fields.get(i));
      page.typeSpaced(input, texts.get(i), Duration.ofMillis(10));
    }
    page.replace("company", ".root_properties_name", "");
    page.typeSpaced(
        page.input("company", ".root_properties_name"), "Acme Robotics", Duration.ofMillis(10));
    page.typeSpaced(
        page.input("company", ".root_properties_website"),
        "https://www.acme-robotics.example/about-us",
        Duration.ofMillis(10));

    for (int i = 0; i < fields.size(); i++) {
      assertThat(page.input("registered_agent", fields.get(i)).getDomProperty("value"))
          .isEqualTo(texts.get(i));
    }
    assertThat(page.input("company", ".root_properties_website").getDomProperty("value"))
        .isEqualTo("https://www.acme-robotics.example/about-us");
    // Submitted the moment the last key is typed: what is sent is what is shown.
    page.choose("company", ".root_properties_suffix", "Inc.");
    page.submit("company");
    page.waitUntilDone("company");
    assertThat(sent("company"))
        .isEqualTo(
            json(
                "{\"name\": \"Acme Robotics\", \"suffix\": \"Inc.\","
                    + " \"website\": \"https://www.acme-robotics.example/about-us\"}"));
    page.choose("registered_agent", ".root_properties_address_properties_state", "DE");
    page.submit("registered_agent");
    page.waitFor(Browser.inForm("registered_agent", ".error-summary"));
    JsonNode agent = sent("registered_agent");
    assertThat(agent.path("name").asText()).isEqualTo(texts.get(0));
    assertThat(agent.path("address").path("street").asText()).isEqualTo(texts.get(1));
    assertThat(agent.path("address").path("city").asText()).isEqualTo(texts.get(2));
    assertThat(agent.path("address").path("zip").asText()).isEqualTo(texts.get(3));
    assertThat(agent.path("email").asText()).isEqualTo(texts.get(4));
  }

  @Test
  void theSubmitButtonStaysPutWhileAPersonMovesThroughTheFields() {
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
    // Clicked right after typing, it is still there: the form is sent.
    page.input("stock", ".root_properties_authorized_shares").click();
    page.submit("stock");
    page.waitUntilDone("stock");
  }

  /**
   * The body of the last submission of a form the sandbox received through a form action, known by
   * a property only that form has (action urls are opaque and name no form).
   */
  private JsonNode sent(String form) throws IOException {
    String property =
        java.util.Map.of(
                "purpose", "purpose",
                "stock", "authorized_shares",
                "company", "suffix",
                "registered_agent", "address",
                "people", "directors")
            .get(form);
    JsonNode last = null;
    for (SandboxRequest request : sandbox.requests()) {
      if (request.path().contains("/form_actions/") && !request.method().equals("GET")) {
        JsonNode body = JSON.readTree(request.body());
        if (body.has(property) || (form.equals("registered_agent") && body.has("service_start"))) {
          last = body;
        }
      }
    }
    assertThat(last).as("a submission of " + form).isNotNull();
    return last;
  }

  private static JsonNode json(String text) throws IOException {
    return JSON.readTree(text);
  }
}
