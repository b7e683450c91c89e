package io.formation.sandbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.formation.testkit.FakeTime;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** FormationSandbox.createSubmitted: a set whose input is complete, made without requests. */
final class CreateSubmittedTest {
  private final FakeTime clock = new FakeTime(Instant.parse("2025-03-04T05:06:07Z"));
  private FormationSandbox sandbox;

  @BeforeEach
  void start() {
    sandbox =
        FormationSandbox.start(
            SandboxOptions.defaults()
                .withClock(clock)
                .withProcessingLag(Duration.ofSeconds(2))
                .withStepDelay(Duration.ofSeconds(1)));
  }

  @AfterEach
  void stop() {
    sandbox.close();
  }

  @Test
  void aSubmittedSetHoldsTheExamplesAndStartsItsProcessingLagAtOnce() {
    SandboxDocumentSet set = sandbox.createSubmitted(SandboxTemplates.DELAWARE_CORPORATION);

    assertThat(set.state()).isEqualTo("input_needed");
    assertThat(set.formsNeedingValues()).isEmpty();
    for (SandboxForm form : SandboxTemplates.forms(SandboxTemplates.DELAWARE_CORPORATION)) {
      assertThat(set.values().get(form.id())).isEqualTo(form.example());
    }
    clock.advance(Duration.ofSeconds(2));
    assertThat(sandbox.documentSet(set.id()).orElseThrow().state())
        .isEqualTo(SandboxOptions.DEFAULT_PROGRESSION.get(0));
    assertThat(sandbox.requests()).isEmpty();
  }

  @Test
  void anUnknownTemplateIsRefusedByName() {
    assertThatThrownBy(() -> sandbox.createSubmitted("startup_narnia"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("startup_narnia");
  }
}
