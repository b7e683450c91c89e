package io.formation.examples.web;

import static org.assertj.core.api.Assertions.assertThat;

import io.formation.sandbox.Faults;
import io.formation.sandbox.FormationSandbox;
import io.formation.sandbox.SandboxOptions;
import io.formation.sandbox.SandboxRequest;
import java.io.IOException;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.openqa.selenium.By;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;

/**
 * One deliberate Start makes one document set, whatever fails after the create: with the service
 * failing 70% of requests (seeded, so the same requests fail every run), the create succeeds and
 * the forms fetch after it fails, SDK retries included; the page keeps the set and tries again.
 */
// Tracking off: its polls, due when they fall due, would take draws from the seeded sequence.
@SpringBootTest(
    webEnvironment = WebEnvironment.RANDOM_PORT,
    properties = "formation.tracking.enabled=false")
@Import(StartOnceTest.FailingService.class)
class StartOnceTest {
  @RegisterExtension
  static final HangGuard GUARD = HangGuard.of(Patience.page(FailingService.OPTIONS));

  @TestConfiguration(proxyBeanMethods = false)
  static class FailingService {
    // Seed 5: the first draw (the create) passes, the next three (the forms fetch and the SDK's
    // two retries) fail with 503.
    static final SandboxOptions OPTIONS =
        SandboxOptions.defaults().withFaults(Faults.none().withUnavailable(0.7).withSeed(5));

    @Bean
    SandboxOptions sandboxOptions() {
      return OPTIONS;
    }
  }

  @LocalServerPort int port;
  @Autowired FormationSandbox sandbox;

  @RegisterExtension
  final Browser page = Browser.open(Browser.DESKTOP, Patience.page(FailingService.OPTIONS));

  @Test
  void aFailingFormsFetchAfterTheCreateKeepsTheSetAndTriesAgain() throws IOException {
    page.open("http://localhost:" + port + "/");
    page.click(By.xpath("//button[text()='Start']"));

    page.waitUntil(b -> b.findElements(By.cssSelector("section[data-form]")).size() == 5);

    List<SandboxRequest> formsFetches =
        sandbox.requests().stream()
            .filter(r -> r.method().equals("GET") && r.path().endsWith("/forms"))
            .toList();
    // The backend's first fetch failed whole (three attempts), so the page had to try again.
    assertThat(formsFetches.subList(0, 3))
        .allSatisfy(r -> assertThat(r.fault()).contains(SandboxRequest.Fault.UNAVAILABLE));
    assertThat(sandbox.documentSets()).hasSize(1);
    assertThat(page.formationId()).isEqualTo(sandbox.documentSets().get(0).id());
    assertThat(page.present(By.xpath("//button[text()='Start']"))).isFalse();
  }
}
