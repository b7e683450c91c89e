package io.formation.sandbox;

import static io.formation.sandbox.Delaware.form;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.formation.sandbox.SandboxHttp.Reply;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** With review on, a set goes back to input_needed once, with one form reopened. */
final class ReviewTest extends SandboxFixture {
  private static final Duration LAG = Duration.ofSeconds(2);
  private static final Duration STEP = Duration.ofSeconds(1);

  private String id;

  @Override
  SandboxOptions options() {
    return onTheTestsClock().withProcessingLag(LAG).withStepDelay(STEP).withReview(true);
  }

  @BeforeEach
  void createASet() {
    id = http.createDocumentSet();
  }

  @Test
  void setGoesBackToInputNeededWhenItWouldLeaveItsSecondState() {
    http.submitAll(id);

    clock.advance(LAG);
    assertThat(http.state(id)).isEqualTo("signature_requests_needed");
    clock.advance(STEP);
    assertThat(http.state(id)).isEqualTo("awaiting_payment");
    clock.advance(STEP.minusMillis(1));
    assertThat(http.state(id)).isEqualTo("awaiting_payment");
    clock.advance(Duration.ofMillis(1));
    assertThat(http.state(id)).isEqualTo("input_needed");
    SandboxDocumentSet set = sandbox.documentSet(id).orElseThrow();
    assertThat(set.reviewed()).isTrue();
    assertThat(set.formsNeedingValues()).containsExactly("people");
  }

  @Test
  void aClientFindsTheReopenedFormByValidatingTheCurrentValues() {
    http.submitAll(id);
    clock.advance(LAG.plus(STEP.multipliedBy(2)));

    List<String> needing = new ArrayList<>();
    for (JsonNode form : http.get("/v1/document_sets/" + id + "/forms").json().get("data")) {
      JsonNode attributes = form.get("attributes");
      if (!FormValidator.validate(attributes.get("json_schema"), attributes.get("values"))
          .isEmpty()) {
        needing.add(form.get("id").asText());
      }
    }

    assertThat(needing).containsExactly("people");
    JsonNode people = http.get("/v1/document_sets/" + id + "/forms").json().at("/data/3");
    assertThat(people.at("/attributes/values/directors/0/name").asText()).isEqualTo("Ada Lovelace");
    assertThat(people.at("/attributes/values/directors/0/email").isMissingNode()).isTrue();
  }

  @Test
  void reopenedFormGetsANewActionUrlAndTheOldOneAnswersConflict() {
    String before = http.submitUrl(id, "people");
    String company = http.submitUrl(id, "company");
    http.submitAll(id);
    clock.advance(LAG.plus(STEP.multipliedBy(2)));

    String after = http.submitUrl(id, "people");

    assertThat(after).isNotEqualTo(before).startsWith("/v1/form_actions/");
    assertThat(http.submitUrl(id, "company")).isEqualTo(company);
    Reply stale = http.put(before, form("people").orElseThrow().example().toString());
    assertThat(stale.status()).isEqualTo(409);
    assertThat(stale.contentType()).isEqualTo("application/vnd.api+json");
    assertThat(stale.json().at("/errors/0/code").asText()).isEqualTo("stale_action");
  }

  @Test
  void validValuesForTheReopenedFormResumeTheProgressionAfterTheLag() {
    http.submitAll(id);
    clock.advance(LAG.plus(STEP.multipliedBy(2)));
    clock.advance(Duration.ofMinutes(5));
    assertThat(http.state(id)).isEqualTo("input_needed");

    Reply fixed =
        http.put(http.submitUrl(id, "people"), form("people").orElseThrow().example().toString());

    assertThat(fixed.status()).isEqualTo(200);
    assertThat(sandbox.documentSet(id).orElseThrow().formsNeedingValues()).isEmpty();
    clock.advance(LAG.minusMillis(1));
    assertThat(http.state(id)).isEqualTo("input_needed");
    clock.advance(Duration.ofMillis(1));
    assertThat(http.state(id)).isEqualTo("awaiting_payment");
    clock.advance(STEP);
    assertThat(http.state(id)).isEqualTo("payment_processing");
    clock.advance(STEP.multipliedBy(3));
    assertThat(http.state(id)).isEqualTo("complete");
  }

  @Test
  void invalidValuesForTheReopenedFormAreRejectedAndKeepItOpen() {
    http.submitAll(id);
    clock.advance(LAG.plus(STEP.multipliedBy(2)));

    Reply reply =
        http.put(
            http.submitUrl(id, "people"),
            "{\"directors\":[{\"name\":\"Ada\"}],\"officers\":"
                + "[{\"name\":\"Ada\",\"title\":\"CEO\",\"email\":\"ada@example.com\"}]}");
    clock.advance(Duration.ofHours(1));

    assertThat(reply.status()).isEqualTo(422);
    assertThat(reply.json().at("/errors/0/source/pointer").asText())
        .isEqualTo("/directors/0/email");
    assertThat(http.state(id)).isEqualTo("input_needed");
  }

  @Test
  void reviewHappensOncePerSet() {
    http.submitAll(id);
    clock.advance(LAG.plus(STEP.multipliedBy(2)));
    http.put(http.submitUrl(id, "people"), form("people").orElseThrow().example().toString());

    List<String> states = new ArrayList<>();
    for (int i = 0; i < 40; i++) {
      clock.advance(Duration.ofMillis(250));
      states.add(http.state(id));
    }

    assertThat(states.subList(8, states.size())).doesNotContain("input_needed");
    assertThat(states.get(states.size() - 1)).isEqualTo("complete");
  }

  @Test
  void withoutReviewNoSetGoesBack() {
    try (FormationSandbox plain =
        FormationSandbox.start(
            SandboxOptions.defaults()
                .withClock(clock)
                .withProcessingLag(LAG)
                .withStepDelay(STEP))) {
      SandboxHttp plainHttp = new SandboxHttp(plain);
      String set = plainHttp.createDocumentSet();
      plainHttp.submitAll(set);

      clock.advance(LAG.plus(STEP.multipliedBy(2)));

      assertThat(plainHttp.state(set)).isEqualTo("payment_processing");
      assertThat(plain.documentSet(set).orElseThrow().reviewed()).isFalse();
    }
  }

  @Test
  void reviewIsAppliedAsOfWhenItFellDueEvenIfNobodyLooked() {
    http.submitAll(id);

    clock.advance(Duration.ofHours(3));

    assertThat(http.state(id)).isEqualTo("input_needed");
    assertThat(sandbox.documentSet(id).orElseThrow().reviewed()).isTrue();
  }
}
