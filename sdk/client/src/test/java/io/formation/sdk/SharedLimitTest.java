package io.formation.sdk;

import static io.formation.sdk.Fixtures.documentSet;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.SQLException;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import mockwebserver3.MockWebServer;
import mockwebserver3.junit5.StartStop;
import org.junit.jupiter.api.Test;

/** A client whose limit is shared with other instances, on real time, as a partner runs it. */
class SharedLimitTest {
  static final SharedLimit.Fleet ALONE = new SharedLimit.Fleet(Optional.empty(), 1, 0);

  @StartStop final MockWebServer server = new MockWebServer();

  @Test
  void theFleetIsToldTheOriginAndTheAnswersASecondThisClientGets() throws Exception {
    for (int i = 0; i < 3; i++) {
      server.enqueue(documentSet("ds_1", "finalizing"));
    }
    BlockingQueue<String> told = new LinkedBlockingQueue<>();
    SharedLimit fleet =
        (origin, news) -> {
          if (news.answeredPerSecond() > 0) {
            told.add(origin);
          }
          return ALONE;
        };
    try (FormationClient client = client(fleet)) {
      for (int i = 0; i < 3; i++) {
        client.documentSets().get("ds_1");
      }

      assertThat(told.poll(30, TimeUnit.SECONDS))
          .isEqualTo(server.url("/").toString().replaceAll("/$", ""));
    }
  }

  @Test
  void aClientJoinsItsBaseUrlsFleetAsItIsBuiltBeforeItCalls() throws Exception {
    BlockingQueue<String> told = new LinkedBlockingQueue<>();
    SharedLimit fleet =
        (origin, news) -> {
          told.add(origin + " " + news.cutAgo().isPresent() + " " + news.answeredPerSecond());
          return ALONE;
        };
    FormationClient client = client(fleet);
    try {
      assertThat(told.poll(30, TimeUnit.SECONDS))
          .isEqualTo(server.url("/").toString().replaceAll("/$", "") + " false 0.0");
    } finally {
      client.close();
    }
    assertThat(server.getRequestCount()).isZero();
  }

  @Test
  void aBudgetIsTheFleetsSplitOverTheLiveInstances() throws Exception {
    for (int i = 0; i < 6; i++) {
      server.enqueue(documentSet("ds_1", "finalizing"));
    }
    // The second exchange starts once the first, which told of two instances, has been followed.
    CountDownLatch followed = new CountDownLatch(2);
    SharedLimit fleet =
        (origin, news) -> {
          followed.countDown();
          return new SharedLimit.Fleet(Optional.empty(), 2, 0);
        };
    try (FormationClient client =
        FormationClient.builder()
            .baseUrl(server.url("/").toString())
            .accessToken(TestClients.TOKEN)
            .requestBudget(4, 1)
            .sharedLimit(fleet)
            .build()) {
      client.documentSets().get("ds_1");
      assertThat(followed.await(30, TimeUnit.SECONDS)).isTrue();

      long start = System.nanoTime();
      for (int i = 0; i < 5; i++) {
        client.documentSets().get("ds_1");
      }

      // Half of 4 a second: five calls, the first at once, take 2 s; the whole budget, 1 s.
      assertThat(Duration.ofNanos(System.nanoTime() - start))
          .isGreaterThanOrEqualTo(Duration.ofMillis(1_500));
    }
    assertThat(server.getRequestCount()).isEqualTo(6);
  }

  @Test
  void aSharedLimitThatFailsLeavesEveryCallAsItWasAndIsAskedAgain() throws Exception {
    for (int i = 0; i < 3; i++) {
      server.enqueue(documentSet("ds_1", "finalizing"));
    }
    AtomicInteger asked = new AtomicInteger();
    CountDownLatch twice = new CountDownLatch(2);
    SharedLimit down =
        (origin, news) -> {
          asked.incrementAndGet();
          twice.countDown();
          throw new SQLException("the database is unreachable (test)");
        };
    try (FormationClient client = client(down)) {
      for (int i = 0; i < 3; i++) {
        assertThat(client.documentSets().get("ds_1").id()).isEqualTo("ds_1");
      }
      assertThat(twice.await(30, TimeUnit.SECONDS)).isTrue();
    }
    int closed = asked.get();
    Thread.sleep(300);
    assertThat(asked).as("no exchange after close").hasValue(closed);
    assertThat(server.getRequestCount()).isEqualTo(3);
  }

  @Test
  void aNullSharedLimitIsRefusedByName() {
    assertThatThrownBy(() -> FormationClient.builder().sharedLimit(null))
        .isInstanceOf(NullPointerException.class)
        .hasMessageContaining("sharedLimit");
  }

  private FormationClient client(SharedLimit fleet) {
    return FormationClient.builder()
        .baseUrl(server.url("/").toString())
        .accessToken(TestClients.TOKEN)
        .maxRetries(0)
        .sharedLimit(fleet)
        .build();
  }
}
