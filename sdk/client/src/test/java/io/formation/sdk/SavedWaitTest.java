package io.formation.sdk;

import static io.formation.sdk.Fixtures.documentSet;
import static java.time.Duration.ofSeconds;
import static org.assertj.core.api.Assertions.assertThat;

import io.formation.sdk.model.DocumentSetState;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import mockwebserver3.MockWebServer;
import mockwebserver3.junit5.StartStop;
import org.junit.jupiter.api.Test;

/** A wait saved as a string after any poll and resumed elsewhere goes on as if it never stopped. */
class SavedWaitTest {
  private static final String ID = "ds_01HZX3K9Q2M7W8T4V6B5N0CRJD";

  @StartStop final MockWebServer server = new MockWebServer();
  final FakeTime time = new FakeTime();

  PollOptions options() {
    return PollOptions.builder()
        .initialInterval(ofSeconds(1))
        .multiplier(2)
        .maxInterval(ofSeconds(10))
        .jitter(0)
        .build();
  }

  @Test
  void aStartedWaitRoundTripsThroughItsStringWellUnder200Bytes() {
    try (FormationClient client = TestClients.client(server, time)) {
      WaitState wait =
          client
              .documentSets()
              .startWait(ID, options())
              .withSubmission(Instant.parse("2025-12-31T23:59:50Z"));
      String encoded = wait.encode();
      assertThat(encoded.getBytes(StandardCharsets.UTF_8).length).isLessThan(200);
      assertThat(WaitState.decode(encoded)).isEqualTo(wait);
      assertThat(WaitState.decode(encoded).setId()).isEqualTo(ID);
      assertThat(WaitState.decode(encoded).lastSubmission())
          .contains(Instant.parse("2025-12-31T23:59:50Z"));
    }
  }

  @Test
  void onePollReadsTheSetOnceAndSaysWhenToPollNext() throws Exception {
    server.enqueue(documentSet(ID, "filing_in_progress"));
    try (FormationClient client = TestClients.client(server, time)) {
      WaitState wait = client.documentSets().startWait(ID, options());
      PollResult result = client.documentSets().poll(wait, options());

      assertThat(result.kind()).isEqualTo(PollResult.Kind.CHANGED);
      assertThat(result.set().orElseThrow().state()).isEqualTo(DocumentSetState.FILING_IN_PROGRESS);
      assertThat(result.waitState().lastState()).contains(DocumentSetState.FILING_IN_PROGRESS);
      assertThat(result.nextPollIn()).isEqualTo(ofSeconds(1));
      assertThat(result.waitState().interval()).isEqualTo(ofSeconds(2));
    }
    assertThat(server.takeRequest().getTarget()).isEqualTo("/v1/document_sets/" + ID);
    assertThat(time.sleeps()).isEmpty();
  }
}
