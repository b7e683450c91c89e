package io.formation.sdk;

import static io.formation.sdk.Fixtures.documentSet;
import static org.assertj.core.api.Assertions.assertThat;

import io.formation.sdk.model.DocumentSet;
import io.formation.testkit.FakeTime;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import mockwebserver3.Dispatcher;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;
import mockwebserver3.junit5.StartStop;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Callers' callbacks run on the SDK's completion executor, never on the transport's threads. */
class CompletionExecutorTest {
  private static final Duration SAFETY_NET = Duration.ofSeconds(30);

  @StartStop final MockWebServer server = new MockWebServer();
  final FakeTime time = new FakeTime();

  /** Answers only once the test has attached its callbacks, so none runs on the test's thread. */
  final CountDownLatch answer = new CountDownLatch(1);

  @BeforeEach
  void answerEachSetOnceAllowed() {
    server.setDispatcher(
        new Dispatcher() {
          @Override
          public MockResponse dispatch(RecordedRequest request) {
            await(answer);
            String path = request.getTarget();
            return documentSet(path.substring(path.lastIndexOf('/') + 1), "complete");
          }
        });
  }

  @Test
  void sixteenSlowCallbacksHoldNoConnectionSlotSoAnUnrelatedCallGoesOut() throws Exception {
    CountDownLatch release = new CountDownLatch(1);
    List<String> callbackThreads = new CopyOnWriteArrayList<>();
    try (FormationClient client = TestClients.client(server, time)) {
      List<CompletableFuture<Void>> slow = new ArrayList<>();
      for (int i = 0; i < 16; i++) {
        slow.add(
            client
                .documentSets()
                .getAsync("ds_slow_" + i)
                .thenAccept(
                    set -> {
                      callbackThreads.add(Thread.currentThread().getName());
                      await(release);
                    }));
      }
      answer.countDown();
      for (int i = 0; i < 16; i++) {
        server.takeRequest();
      }

      // OkHttp allows 16 calls to a host at once: on its threads, the 16 callbacks held them all
      // and this call never went out.
      CompletableFuture<DocumentSet> unrelated = client.documentSets().getAsync("ds_other");

      assertThat(server.takeRequest(SAFETY_NET.toSeconds(), TimeUnit.SECONDS))
          .isNotNull()
          .extracting(request -> request.getTarget())
          .isEqualTo("/v1/document_sets/ds_other");
      assertThat(slow).noneMatch(CompletableFuture::isDone);
      release.countDown();
      assertThat(unrelated).succeedsWithin(SAFETY_NET);
      assertThat(CompletableFuture.allOf(slow.toArray(CompletableFuture[]::new)))
          .succeedsWithin(SAFETY_NET);
    }
    assertThat(callbackThreads)
        .hasSize(16)
        .allMatch(name -> name.startsWith("formation-completion"));
  }

  @Test
  void noNumberOfSlowCallbacksDelaysTheCompletionOfAnUnrelatedCall() throws Exception {
    int slowCallbacks = 64;
    CountDownLatch release = new CountDownLatch(1);
    CountDownLatch allRunning = new CountDownLatch(slowCallbacks);
    try (FormationClient client = TestClients.client(server, time)) {
      List<CompletableFuture<Void>> slow = new ArrayList<>();
      for (int i = 0; i < slowCallbacks; i++) {
        slow.add(
            client
                .documentSets()
                .getAsync("ds_slow_" + i)
                .thenAccept(
                    set -> {
                      allRunning.countDown();
                      await(release);
                    }));
      }
      answer.countDown();
      // On a few completion threads the rest would queue behind the first ones and never start.
      assertThat(allRunning.await(SAFETY_NET.toSeconds(), TimeUnit.SECONDS)).isTrue();

      CompletableFuture<DocumentSet> unrelated = client.documentSets().getAsync("ds_other");

      assertThat(unrelated).succeedsWithin(SAFETY_NET);
      assertThat(slow).noneMatch(CompletableFuture::isDone);
      release.countDown();
      assertThat(CompletableFuture.allOf(slow.toArray(CompletableFuture[]::new)))
          .succeedsWithin(SAFETY_NET);
    }
  }

  @Test
  void completionsArrivingWhileEveryThreadIsHeldQueueRatherThanStartAThreadEach() throws Exception {
    int calls = 100;
    CountDownLatch allAnswered = new CountDownLatch(1);
    Set<String> callbackThreads = ConcurrentHashMap.newKeySet();
    try (FormationClient client = TestClients.client(server, time)) {
      List<CompletableFuture<Void>> done = new ArrayList<>();
      for (int i = 0; i < calls; i++) {
        done.add(
            client
                .documentSets()
                .getAsync("ds_" + i)
                .thenAccept(
                    set -> {
                      callbackThreads.add(Thread.currentThread().getName());
                      await(allAnswered);
                    }));
      }
      answer.countDown();
      // OkHttp sends a call only once one of its 16 has ended: all but 16 completions came by now.
      for (int i = 0; i < calls; i++) {
        server.takeRequest();
      }
      allAnswered.countDown();
      assertThat(CompletableFuture.allOf(done.toArray(CompletableFuture[]::new)))
          .succeedsWithin(SAFETY_NET);
    }
    // A thread for each completion that found the others held would make 84 or more.
    assertThat(callbackThreads)
        .hasSizeLessThan(calls / 2)
        .allMatch(name -> name.startsWith("formation-completion"));
  }

  @Test
  void anExecutorGivenToTheBuilderRunsTheCallbacks() throws Exception {
    ExecutorService mine = Executors.newSingleThreadExecutor(r -> new Thread(r, "partner-pool"));
    try (FormationClient client =
        TestClients.builder(server, time).completionExecutor(mine).build()) {
      CompletableFuture<String> thread =
          client.documentSets().getAsync("ds_1").thenApply(set -> Thread.currentThread().getName());
      answer.countDown();
      assertThat(thread).succeedsWithin(SAFETY_NET).isEqualTo("partner-pool");
    } finally {
      mine.shutdown();
    }
  }

  @Test
  void anAsyncWaitCompletesOnTheExecutorToo() throws Exception {
    try (FormationClient client = TestClients.client(server, time)) {
      CompletableFuture<String> thread =
          client
              .documentSets()
              .awaitCompletionAsync("ds_1", PollOptions.defaults())
              .thenApply(set -> Thread.currentThread().getName());
      answer.countDown();
      assertThat(thread).succeedsWithin(SAFETY_NET).asString().startsWith("formation-completion");
    }
  }

  @Test
  void theStateChangesOfAnAsyncWaitAreToldOnTheExecutorNeverOnOkHttpsThreads() throws Exception {
    List<String> threads = new CopyOnWriteArrayList<>();
    try (FormationClient client = TestClients.client(server, time)) {
      CompletableFuture<DocumentSet> done =
          client
              .documentSets()
              .awaitCompletionAsync(
                  "ds_1",
                  PollOptions.builder()
                      .onStateChange(set -> threads.add(Thread.currentThread().getName()))
                      .build());
      answer.countDown();
      assertThat(done).succeedsWithin(SAFETY_NET);
    }
    assertThat(threads).hasSize(1).allMatch(name -> name.startsWith("formation-completion"));
  }

  private static void await(CountDownLatch latch) {
    try {
      latch.await(SAFETY_NET.toSeconds(), TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
