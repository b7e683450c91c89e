package io.formation.sdk;

import static io.formation.sdk.Fixtures.documentSet;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import mockwebserver3.MockWebServer;
import mockwebserver3.junit5.StartStop;
import org.junit.jupiter.api.Test;

/**
 * Review of SharedLimit's "While an exchange throws or hangs, the client follows its own rate": a
 * store that throws an unchecked exception, or answers nothing, on real time.
 */
class SharedLimitReviewTest {
  @StartStop final MockWebServer server = new MockWebServer();

  @Test
  void aSharedLimitThatThrowsAnUncheckedExceptionIsAskedAgainAndCallsGoOn() throws Exception {
    CountDownLatch thrice = new CountDownLatch(3);
    SharedLimit throwing =
        (origin, news) -> {
          thrice.countDown();
          throw new IllegalStateException("a store that throws (test)");
        };
    callWhileAsked(throwing, thrice);
  }

  @Test
  void aSharedLimitThatAnswersNullIsAskedAgainAndCallsGoOn() throws Exception {
    CountDownLatch thrice = new CountDownLatch(3);
    SharedLimit nothing =
        (origin, news) -> {
          thrice.countDown();
          return null;
        };
    callWhileAsked(nothing, thrice);
  }

  private void callWhileAsked(SharedLimit fleet, CountDownLatch asked) throws Exception {
    try (FormationClient client =
        FormationClient.builder()
            .baseUrl(server.url("/").toString())
            .accessToken(TestClients.TOKEN)
            .maxRetries(0)
            .sharedLimit(fleet)
            .build()) {
      // Calls over about a second, so the origin stays one sent to in the last second.
      for (int i = 0; i < 40 && asked.getCount() > 0; i++) {
        server.enqueue(documentSet("ds_1", "finalizing"));
        assertThat(client.documentSets().get("ds_1").id()).isEqualTo("ds_1");
        Thread.sleep(50);
      }
      assertThat(asked.await(30, TimeUnit.SECONDS)).as("asked again after a failure").isTrue();
    }
  }
}
