package io.formation.sandbox;

import static io.formation.sandbox.Delaware.FORMS;
import static org.assertj.core.api.Assertions.assertThat;

import io.formation.testkit.FakeTime;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** After its last form is accepted, a document set stays input_needed while it is processed. */
final class ProcessingLagTest {
  private final FakeTime clock = new FakeTime(Instant.parse("2025-03-04T05:06:07Z"));
  private FormationSandbox sandbox;
  private SandboxHttp http;

  private String start(SandboxOptions options) {
    sandbox = FormationSandbox.start(options.withClock(clock));
    http = new SandboxHttp(sandbox);
    return http.createDocumentSet();
  }

  @AfterEach
  void stop() {
    sandbox.close();
  }

  @Test
  void setStaysInputNeededForTheDefaultLagOfOneAndAHalfSeconds() {
    String id = start(SandboxOptions.defaults());
    http.submitAll(id);

    clock.advance(Duration.ofMillis(1499));
    assertThat(http.state(id)).isEqualTo("input_needed");
    clock.advance(Duration.ofMillis(1));
    assertThat(http.state(id)).isEqualTo("signature_requests_needed");
  }

  @Test
  void formsKeepTheirActionsDuringTheLag() {
    String id = start(SandboxOptions.defaults());
    http.submitAll(id);
    clock.advance(Duration.ofMillis(1000));

    assertThat(http.get("/v1/document_sets/" + id + "/forms").json().get("data"))
        .allSatisfy(form -> assertThat(form.at("/attributes/actions")).hasSize(1));
  }

  @Test
  void aSubmissionDuringTheLagStartsItAgain() {
    String id = start(SandboxOptions.defaults().withProcessingLag(Duration.ofSeconds(10)));
    http.submitAll(id);
    clock.advance(Duration.ofSeconds(6));
    SandboxForm company = FORMS.get(0);
    assertThat(http.put(http.submitUrl(id, company.id()), company.example().toString()).status())
        .isEqualTo(200);

    clock.advance(Duration.ofSeconds(6));
    assertThat(http.state(id)).isEqualTo("input_needed");
    clock.advance(Duration.ofSeconds(4));
    assertThat(http.state(id)).isEqualTo("signature_requests_needed");
  }

  @Test
  void lagDoesNotStartBeforeTheLastFormIsAccepted() {
    String id = start(SandboxOptions.defaults().withProcessingLag(Duration.ofSeconds(1)));
    List<SandboxForm> allButLast = FORMS.subList(0, FORMS.size() - 1);
    for (SandboxForm form : allButLast) {
      http.put(http.submitUrl(id, form.id()), form.example().toString());
    }
    clock.advance(Duration.ofHours(1));
    SandboxForm last = FORMS.get(FORMS.size() - 1);
    http.put(http.submitUrl(id, last.id()), last.example().toString());

    assertThat(http.state(id)).isEqualTo("input_needed");
    clock.advance(Duration.ofSeconds(1));
    assertThat(http.state(id)).isEqualTo("signature_requests_needed");
  }

  @Test
  void zeroLagStartsTheProgressionAtOnce() {
    String id = start(SandboxOptions.defaults().withProcessingLag(Duration.ZERO));
    http.submitAll(id);

    assertThat(http.state(id)).isEqualTo("signature_requests_needed");
  }
}
