package io.formation.sdk;

import static io.formation.sdk.Fixtures.documentSet;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import io.formation.sdk.model.DocumentSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import mockwebserver3.MockWebServer;
import mockwebserver3.junit5.StartStop;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The join at the client's build with a store at its edges, on real time: a store that hangs,
 * throws or returns null at the join, a client closed at once or never used. Waits are on latches
 * with generous timeouts; the only sleeps check that nothing more happens, which a busy machine
 * cannot make fail.
 */
class SharedLimitJoinReviewTest {
  static final SharedLimit.Fleet ALONE = new SharedLimit.Fleet(Optional.empty(), 1, 0);
  static final Duration GENEROUS = Duration.ofSeconds(30);

  @StartStop final MockWebServer server = new MockWebServer();

  @Test
  void aStoreThatHangsAtTheJoinHoldsNeitherTheBuildNorTheFirstCall() throws Exception {
    server.enqueue(documentSet("ds_1", "finalizing"));
    CountDownLatch joining = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    SharedLimit hung =
        (origin, news) -> {
          joining.countDown();
          awaitIgnoringInterrupts(release);
          return ALONE;
        };

    FormationClient client = assertTimeoutPreemptively(GENEROUS, () -> client(hung));
    try {
      assertThat(joining.await(30, TimeUnit.SECONDS)).as("the join started").isTrue();
      DocumentSet set =
          assertTimeoutPreemptively(GENEROUS, () -> client.documentSets().get("ds_1"));
      assertThat(set.id()).isEqualTo("ds_1");
    } finally {
      release.countDown();
      client.close();
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"throws", "null", "runtime"})
  void aStoreThatFailsAtTheJoinLeavesTheClientCallingAlone(String how) throws Exception {
    for (int i = 0; i < 3; i++) {
      server.enqueue(documentSet("ds_1", "finalizing"));
    }
    CountDownLatch asked = new CountDownLatch(1);
    SharedLimit failing =
        (origin, news) -> {
          asked.countDown();
          switch (how) {
            case "throws":
              throw new SQLException("the database is unreachable (test)");
            case "runtime":
              throw new IllegalStateException("a broken store (test)");
            default:
              return null;
          }
        };
    try (FormationClient client = client(failing)) {
      assertThat(asked.await(30, TimeUnit.SECONDS)).as("the join").isTrue();
      for (int i = 0; i < 3; i++) {
        assertThat(client.documentSets().get("ds_1").id()).isEqualTo("ds_1");
      }
    }
    assertThat(server.getRequestCount()).isEqualTo(3);
  }

  @Test
  void aClientClosedWhileItsJoinIsUnderWayStartsNoOtherExchangeAndLeavesNoThread()
      throws Exception {
    CountDownLatch joining = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    AtomicInteger asked = new AtomicInteger();
    AtomicReference<Thread> exchanger = new AtomicReference<>();
    SharedLimit store =
        (origin, news) -> {
          asked.incrementAndGet();
          exchanger.set(Thread.currentThread());
          joining.countDown();
          awaitIgnoringInterrupts(release); // a store that does not answer interrupts
          return ALONE;
        };
    FormationClient client = client(store);
    assertThat(joining.await(30, TimeUnit.SECONDS)).isTrue();

    client.close();
    release.countDown();

    Thread thread = exchanger.get();
    thread.join(TimeUnit.SECONDS.toMillis(30));
    assertThat(thread.isAlive()).as("the exchange thread, once the store returned").isFalse();
    assertThat(asked).as("the join alone").hasValue(1);
    assertThat(server.getRequestCount()).isZero();
  }

  @Test
  void aClientBuiltAndNeverUsedExchangesOnceOnly() throws Exception {
    AtomicInteger asked = new AtomicInteger();
    CountDownLatch joined = new CountDownLatch(1);
    List<String> told = new CopyOnWriteArrayList<>();
    SharedLimit store =
        (origin, news) -> {
          asked.incrementAndGet();
          told.add(news.cutAgo().isPresent() + " " + news.answeredPerSecond());
          joined.countDown();
          return new SharedLimit.Fleet(Optional.empty(), 3, 500);
        };
    FormationClient client = client(store);
    try {
      assertThat(joined.await(30, TimeUnit.SECONDS)).isTrue();
      Thread.sleep(500); // five ticks, none of which may trade
      assertThat(asked).hasValue(1);
      assertThat(told).containsExactly("false 0.0");
    } finally {
      client.close();
    }
  }

  private static void awaitIgnoringInterrupts(CountDownLatch latch) {
    boolean interrupted = false;
    long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (latch.getCount() > 0 && System.nanoTime() < end) {
      try {
        latch.await(100, TimeUnit.MILLISECONDS);
      } catch (InterruptedException e) {
        interrupted = true;
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
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
