package io.formation.sdk;

import static io.formation.sdk.Fixtures.documentSet;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.formation.sdk.internal.time.Sleeper;
import io.formation.sdk.internal.time.TestSleepers;
import io.formation.sdk.model.DocumentSet;
import io.formation.testkit.FakeTime;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.AbstractExecutorService;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.junit5.StartStop;
import okhttp3.Dispatcher;
import okhttp3.OkHttpClient;
import org.junit.jupiter.api.Test;

/**
 * What only the async methods do: cancelling, failing waits, their threads. That they send the same
 * requests and give the same results and failures as the blocking ones is proved by the tests of
 * each operation, run in both {@link Mode}s.
 */
class AsyncTest {
  private static final Duration SAFETY_NET = Duration.ofSeconds(30);

  @StartStop final MockWebServer server = new MockWebServer();
  final FakeTime time = new FakeTime();

  @Test
  void cancellingAwaitCompletionAsyncStopsThePolling() throws Exception {
    // OkHttp runs calls on the calling thread and waits end only when the test says so, so
    // whatever the SDK would send after a wait is sent before complete() returns.
    ManualSleeper sleeper = new ManualSleeper();
    OkHttpClient direct =
        new OkHttpClient.Builder().dispatcher(new Dispatcher(new DirectExecutorService())).build();
    for (int i = 0; i < 5; i++) {
      server.enqueue(documentSet("ds_1", "filing_in_progress"));
    }
    List<String> seen = new CopyOnWriteArrayList<>();
    try (FormationClient client =
        TestClients.sleeper(TestClients.builder(server, time), sleeper)
            .httpClient(direct)
            .build()) {
      PollOptions options =
          PollOptions.builder().onStateChange(set -> seen.add(set.state().value())).build();
      CompletableFuture<DocumentSet> done =
          client.documentSets().awaitCompletionAsync("ds_1", options);

      CompletableFuture<Void> firstWait = sleeper.next();
      assertThat(server.getRequestCount()).isEqualTo(1);
      // Control: ending a wait does start the next poll.
      firstWait.complete(null);
      CompletableFuture<Void> secondWait = sleeper.next();
      assertThat(server.getRequestCount()).isEqualTo(2);

      assertThat(done.cancel(true)).isTrue();
      secondWait.complete(null);

      assertThat(done).isCancelled();
      assertThat(server.getRequestCount()).isEqualTo(2);
      assertThat(sleeper.waits).isEmpty();
      assertThat(seen).containsExactly("filing_in_progress");
    }
    assertThat(server.getRequestCount()).isEqualTo(2);
  }

  @Test
  void aWaitThatFailsEndsAwaitCompletionAsyncWithTheFailure() {
    RejectedExecutionException rejected = new RejectedExecutionException("scheduler shut down");
    Sleeper failing = TestSleepers.of(d -> {}, d -> CompletableFuture.failedFuture(rejected));
    server.enqueue(documentSet("ds_1", "filing_in_progress"));
    server.enqueue(documentSet("ds_1", "complete"));
    try (FormationClient client =
        TestClients.sleeper(TestClients.builder(server, time), failing).build()) {
      assertThat(client.documentSets().awaitCompletionAsync("ds_1", PollOptions.defaults()))
          .failsWithin(SAFETY_NET)
          .withThrowableOfType(ExecutionException.class)
          .havingCause()
          .isSameAs(rejected);
    }
    assertThat(server.getRequestCount()).isEqualTo(1);
  }

  @Test
  void afterCloseNoFormationThreadIsLeftAlive() throws Exception {
    Set<Thread> before = formationThreads();
    server.enqueue(new MockResponse.Builder().code(429).addHeader("Retry-After", "0").build());
    server.enqueue(documentSet("ds_1", "complete"));
    server.enqueue(documentSet("ds_1", "complete"));
    // The real sleeper and dispatcher, so the client starts its own scheduler and HTTP threads.
    FormationClient client = TestClients.realTime(server);
    try {
      assertThat(client.documentSets().getAsync("ds_1")).succeedsWithin(SAFETY_NET);
      assertThat(client.documentSets().awaitCompletionAsync("ds_1", PollOptions.defaults()))
          .succeedsWithin(SAFETY_NET);
      // OkHttp renames its thread while it runs a call ("OkHttp <url>"), and a future can be seen
      // complete before the thread has its own name back: look again until it has.
      Set<String> started = Set.of();
      for (long end = System.nanoTime() + SAFETY_NET.toNanos();
          System.nanoTime() < end && started.size() < 2; ) {
        Set<Thread> threads = formationThreads();
        threads.removeAll(before);
        started =
            threads.stream()
                .map(thread -> thread.getName().replaceAll("-\\d+$", ""))
                .collect(Collectors.toSet());
        Thread.onSpinWait();
      }
      assertThat(started).contains("formation-scheduler", "formation-http");
    } finally {
      client.close();
    }

    Set<Thread> left = formationThreads();
    left.removeAll(before);
    for (Thread thread : left) {
      // A bounded wait for threads to finish terminating; none should need it for long.
      thread.join(SAFETY_NET.toMillis());
    }
    assertThat(left).filteredOn(Thread::isAlive).extracting(Thread::getName).isEmpty();
    assertThatThrownBy(() -> client.documentSets().get("ds_1"))
        .isInstanceOf(IllegalStateException.class);
  }

  @Test
  void asyncCallsRunOnNoMoreHttpThreadsThanCallsMayRunAtOnceToTheService() throws Exception {
    Set<Thread> before = formationThreads();
    int calls = 100;
    for (int i = 0; i < calls; i++) {
      server.enqueue(
          documentSet("ds_1", "complete")
              .newBuilder()
              .headersDelay(5, TimeUnit.MILLISECONDS)
              .build());
    }
    // The SDK's own OkHttp client: 16 calls at once to one origin.
    try (FormationClient client =
        FormationClient.builder()
            .baseUrl(server.url("/").toString())
            .accessToken(TestClients.TOKEN)
            .build()) {
      List<CompletableFuture<DocumentSet>> gets = new CopyOnWriteArrayList<>();
      for (int i = 0; i < calls; i++) {
        gets.add(client.documentSets().getAsync("ds_1"));
      }
      assertThat(CompletableFuture.allOf(gets.toArray(CompletableFuture[]::new)))
          .succeedsWithin(SAFETY_NET);
      assertThat(server.getRequestCount()).isEqualTo(calls);
      // OkHttp names a thread after the call it runs until the call is over: wait for the names.
      Set<Thread> http = Set.of();
      for (long end = System.nanoTime() + SAFETY_NET.toNanos(); System.nanoTime() < end; ) {
        Set<Thread> threads = new HashSet<>(Thread.getAllStackTraces().keySet());
        if (threads.stream().noneMatch(thread -> thread.getName().startsWith("OkHttp http"))) {
          http = formationThreads();
          http.removeAll(before);
          http.removeIf(thread -> !thread.getName().startsWith("formation-http"));
          break;
        }
        Thread.onSpinWait();
      }
      // OkHttp's default executor starts a thread whenever none is idle: 20 or more here.
      assertThat(http).isNotEmpty().hasSizeLessThanOrEqualTo(16);
    }
  }

  @Test
  void closingTheClientEndsAnAsyncWaitInProgress() throws Exception {
    server.enqueue(documentSet("ds_1", "filing_in_progress"));
    CountDownLatch polled = new CountDownLatch(1);
    CompletableFuture<DocumentSet> done;
    try (FormationClient client = TestClients.realTime(server)) {
      PollOptions anHour =
          PollOptions.builder()
              .initialInterval(Duration.ofHours(1))
              .maxInterval(Duration.ofHours(1))
              .timeout(Duration.ofHours(2))
              .onStateChange(set -> polled.countDown())
              .build();
      done = client.documentSets().awaitCompletionAsync("ds_1", anHour);
      // The first poll is in; the future is about to wait an hour on the client's scheduler.
      assertThat(polled.await(30, TimeUnit.SECONDS)).isTrue();
    }
    // Close says calls in flight are cancelled: the caller's future must end, not hang.
    assertThat(done)
        .failsWithin(SAFETY_NET)
        .withThrowableThat()
        .isNotInstanceOf(TimeoutException.class);
    assertThat(server.getRequestCount()).isEqualTo(1);
  }

  private static Set<Thread> formationThreads() {
    Set<Thread> threads = new HashSet<>();
    for (Thread thread : Thread.getAllStackTraces().keySet()) {
      if (thread.getName().startsWith("formation-") && thread.isAlive()) {
        threads.add(thread);
      }
    }
    return threads;
  }

  /** Waits that end only when the test completes them. */
  static final class ManualSleeper implements Sleeper {
    final BlockingQueue<CompletableFuture<Void>> waits = new LinkedBlockingQueue<>();

    @Override
    public void sleep(Duration duration) {
      throw new AssertionError("an async wait must not block a thread");
    }

    @Override
    public CompletableFuture<Void> delay(Duration duration) {
      CompletableFuture<Void> wait = new CompletableFuture<>();
      waits.add(wait);
      return wait;
    }

    CompletableFuture<Void> next() throws InterruptedException {
      CompletableFuture<Void> wait = waits.poll(30, TimeUnit.SECONDS);
      assertThat(wait).as("a wait was started").isNotNull();
      return wait;
    }
  }

  /** Runs each task on the thread that submits it. */
  static final class DirectExecutorService extends AbstractExecutorService {
    private volatile boolean shutdown;

    @Override
    public void execute(Runnable command) {
      command.run();
    }

    @Override
    public void shutdown() {
      shutdown = true;
    }

    @Override
    public List<Runnable> shutdownNow() {
      shutdown = true;
      return List.of();
    }

    @Override
    public boolean isShutdown() {
      return shutdown;
    }

    @Override
    public boolean isTerminated() {
      return shutdown;
    }

    @Override
    public boolean awaitTermination(long timeout, TimeUnit unit) {
      return shutdown;
    }
  }
}
