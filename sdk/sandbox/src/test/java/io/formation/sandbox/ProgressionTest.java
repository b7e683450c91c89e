package io.formation.sandbox;

import static org.assertj.core.api.Assertions.assertThat;

import io.formation.testkit.FakeTime;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The states after input, including one the interface does not list. */
final class ProgressionTest {
  private static final List<String> LISTED =
      List.of(
          "input_needed",
          "signature_requests_needed",
          "awaiting_payment",
          "filing_in_progress",
          "finalizing",
          "complete");

  private final FakeTime clock = new FakeTime(Instant.parse("2025-03-04T05:06:07Z"));
  private FormationSandbox sandbox;
  private SandboxHttp http;

  @AfterEach
  void stop() {
    sandbox.close();
  }

  @Test
  void defaultProgressionPassesThroughAStateTheInterfaceDoesNotList() {
    List<String> states = walk(SandboxOptions.defaults());

    assertThat(states.get(0)).isEqualTo("input_needed");
    assertThat(states.subList(1, states.size())).isEqualTo(SandboxOptions.DEFAULT_PROGRESSION);
    assertThat(states)
        .filteredOn(state -> !LISTED.contains(state))
        .containsExactly("payment_processing");
    assertThat(states.indexOf("payment_processing"))
        .isEqualTo(states.indexOf("awaiting_payment") + 1)
        .isEqualTo(states.indexOf("filing_in_progress") - 1);
  }

  @Test
  void eachStateLastsOneStepDelay() {
    Duration step = Duration.ofSeconds(3);
    start(SandboxOptions.defaults().withStepDelay(step).withProcessingLag(Duration.ZERO));
    String id = http.createDocumentSet();
    http.submitAll(id);

    clock.advance(step.minusMillis(1));
    assertThat(http.state(id)).isEqualTo("signature_requests_needed");
    clock.advance(Duration.ofMillis(1));
    assertThat(http.state(id)).isEqualTo("awaiting_payment");
  }

  @Test
  void progressionIsConfigurable() {
    List<String> states =
        walk(SandboxOptions.defaults().withProgression(List.of("notarizing", "complete")));

    assertThat(states).containsExactly("input_needed", "notarizing", "complete");
  }

  @Test
  void completeIsForGood() {
    start(SandboxOptions.defaults());
    String id = http.createDocumentSet();
    http.submitAll(id);

    clock.advance(Duration.ofDays(365));

    assertThat(http.state(id)).isEqualTo("complete");
    assertThat(sandbox.documentSet(id).orElseThrow().isComplete()).isTrue();
  }

  /** Submits every form, then records each distinct state until complete, stepping the clock. */
  private List<String> walk(SandboxOptions options) {
    start(options);
    String id = http.createDocumentSet();
    List<String> states = new ArrayList<>(List.of(http.state(id)));
    http.submitAll(id);
    for (int i = 0; i < 100 && !states.get(states.size() - 1).equals("complete"); i++) {
      clock.advance(Duration.ofMillis(100));
      String state = http.state(id);
      if (!state.equals(states.get(states.size() - 1))) {
        states.add(state);
      }
    }
    return states;
  }

  private void start(SandboxOptions options) {
    sandbox = FormationSandbox.start(options.withClock(clock));
    http = new SandboxHttp(sandbox);
  }
}
