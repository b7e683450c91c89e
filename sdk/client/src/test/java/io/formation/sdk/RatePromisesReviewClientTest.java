package io.formation.sdk;

import static io.formation.sdk.Fixtures.documentSet;
import static io.formation.sdk.Fixtures.status;
import static org.assertj.core.api.Assertions.assertThat;

import io.formation.testkit.FakeTime;
import java.time.Duration;
import mockwebserver3.MockWebServer;
import mockwebserver3.junit5.StartStop;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** A reviewer's checks of what a refused call itself waits, on a cold and on a busy client. */
class RatePromisesReviewClientTest {
  @StartStop final MockWebServer server = new MockWebServer();
  final FakeTime time = new FakeTime();

  @ParameterizedTest(name = "answers before: {0}")
  @ValueSource(ints = {0, 40})
  void aRefusedCallIsNeverRetriedBeforeItsOwnRetryAfter(int answersBefore) throws Exception {
    for (int i = 0; i < answersBefore; i++) {
      server.enqueue(documentSet("ds_1", "finalizing"));
    }
    server.enqueue(status(429).newBuilder().addHeader("Retry-After", "3").build());
    server.enqueue(documentSet("ds_1", "finalizing"));
    try (FormationClient client = TestClients.client(server, time)) {
      for (int i = 0; i < answersBefore; i++) {
        client.documentSets().get("ds_1");
      }
      long before = time.nanoTime();

      client.documentSets().get("ds_1");

      // Among many answers a refusal pauses nothing else, but the call itself waits its 3 s.
      assertThat(Duration.ofNanos(time.nanoTime() - before))
          .isGreaterThanOrEqualTo(Duration.ofSeconds(3));
    }
    assertThat(server.getRequestCount()).isEqualTo(answersBefore + 2);
  }

  @ParameterizedTest(name = "answers before: {0}")
  @ValueSource(ints = {0, 40})
  void aRetryAfterOfZeroIsRetriedAtOnce(int answersBefore) throws Exception {
    for (int i = 0; i < answersBefore; i++) {
      server.enqueue(documentSet("ds_1", "finalizing"));
    }
    server.enqueue(status(429).newBuilder().addHeader("Retry-After", "0").build());
    server.enqueue(documentSet("ds_1", "finalizing"));
    try (FormationClient client = TestClients.client(server, time)) {
      for (int i = 0; i < answersBefore; i++) {
        client.documentSets().get("ds_1");
      }
      long before = time.nanoTime();

      client.documentSets().get("ds_1");

      assertThat(time.nanoTime() - before).isZero();
    }
    assertThat(server.getRequestCount()).isEqualTo(answersBefore + 2);
  }
}
