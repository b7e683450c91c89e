package io.formation.examples.web;

import org.openqa.selenium.By;

/** A person filling in each form of the Delaware template with values the service accepts. */
final class Fill {
  static final String DIRECTOR = ".root_properties_directors .children > div:nth-child(1) ";
  static final String OFFICER = ".root_properties_officers .children > div:nth-child(1) ";

  private Fill() {}

  /** Opens the page at this port, presses Start and waits for the five forms. */
  static void start(Browser page, int port) {
    page.open("http://localhost:" + port + "/");
    page.click(By.xpath("//button[text()='Start']"));
    page.waitUntil(b -> b.findElements(By.cssSelector("section[data-form]")).size() == 5);
  }

  static void company(Browser page) {
    page.replace("company", ".root_properties_name", "Acme Robotics");
    page.choose("company", ".root_properties_suffix", "Inc.");
    page.replace("company", ".root_properties_website", "https://acme.example");
  }

  static void people(Browser page, String directorEmail) {
    page.click(Browser.inForm("people", ".root_properties_directors .button-add"));
    page.click(Browser.inForm("people", ".root_properties_officers .button-add"));
    page.replace("people", DIRECTOR + ".root_properties_name", "Ada Lovelace");
    page.replace("people", DIRECTOR + ".root_properties_email", directorEmail);
    page.replace("people", OFFICER + ".root_properties_name", "Ada Lovelace");
    page.choose("people", OFFICER + ".root_properties_title", "CEO");
    page.replace("people", OFFICER + ".root_properties_email", "ada@example.com");
  }

  /** Fills in and submits every form but the registered agent, without waiting for answers. */
  static void everyFormButTheLast(Browser page) {
    company(page);
    page.submit("company");
    page.submit("purpose");
    people(page, "ada@example.com");
    page.submit("people");
    page.submit("stock");
  }

  static void registeredAgent(Browser page) {
    page.replace("registered_agent", ".root_properties_name", "Delaware Registered Agents LLC");
    page.replace(
        "registered_agent", ".root_properties_address_properties_street", "1000 N King St");
    page.replace("registered_agent", ".root_properties_address_properties_city", "Wilmington");
    page.choose("registered_agent", ".root_properties_address_properties_state", "DE");
    page.replace("registered_agent", ".root_properties_address_properties_zip", "19801");
    page.replace("registered_agent", ".root_properties_email", "agent@example.com");
    page.date("registered_agent", ".root_properties_service_start", "01022026", "2026-01-02");
  }

  /** Fills in and submits every form, waiting until each is accepted. */
  static void everyForm(Browser page) {
    everyFormButTheLast(page);
    registeredAgent(page);
    page.submit("registered_agent");
    for (String form :
        java.util.List.of("company", "purpose", "people", "stock", "registered_agent")) {
      page.waitUntilDone(form);
    }
  }
}
