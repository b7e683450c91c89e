package io.formation.sdk;

import static io.formation.sdk.Fixtures.documentSet;
import static io.formation.sdk.Fixtures.fixture;
import static io.formation.sdk.Fixtures.status;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.formation.sdk.model.DocumentSet;
import io.formation.testkit.FakeTime;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import mockwebserver3.Dispatcher;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;
import mockwebserver3.junit5.StartStop;
import okhttp3.OkHttpClient;
import org.junit.jupiter.api.Test;

/**
 * A reviewer's attempts to break what {@link FormationTracer}, {@link FormationListener} and {@link
 * WaitState} promise about tracing, with a tracer that records what it is told.
 */
class TracingPromisesReviewTest {
  static final String CONTEXT = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01";
  static final Duration SAFETY_NET = Duration.ofSeconds(10);

  @StartStop final MockWebServer server = new MockWebServer();
  final FakeTime time = new FakeTime();

  /**
   * Records every call and attempt, thread-safely; each attempt's headers carry a traceparent of
   * its own ({@code call-<n>-attempt-<m>}) so the test can tell which attempt a request was.
   */
  static class Recorder implements FormationTracer {
    final List<String> heard = new CopyOnWriteArrayList<>();
    final AtomicInteger calls = new AtomicInteger();
    final Map<String, String> callOfHeader = new ConcurrentHashMap<>();
    final Map<String, Optional<String>> setOfCall = new ConcurrentHashMap<>();
    volatile Map<String, String> extraHeaders = Map.of();
    volatile Optional<String> context = Optional.of(CONTEXT);

    @Override
    public CallSpan startCall(Call call) {
      String name = "call-" + calls.incrementAndGet();
      setOfCall.put(name, call.documentSetId());
      heard.add(name + " started " + call.name() + " linked " + call.linkedTo().orElse("-"));
      return new CallSpan() {
        @Override
        public AttemptSpan startAttempt(AttemptEvent attempt) {
          String header = name + "-attempt-" + attempt.attempt();
          callOfHeader.put(header, name);
          heard.add(header + " started");
          return new AttemptSpan() {
            @Override
            public Map<String, String> headers() {
              Map<String, String> headers = new HashMap<>(extraHeaders);
              headers.put("traceparent", header);
              return headers;
            }

            @Override
            public void end(AttemptEvent finished) {
              heard.add(header + " ended " + finished.statusCode());
            }
          };
        }

        @Override
        public void end(Optional<DocumentSet> set, Optional<Throwable> failure) {
          heard.add(
              name
                  + " ended "
                  + set.map(DocumentSet::id).orElse("-")
                  + failure.map(e -> " " + e.getClass().getSimpleName()).orElse(""));
        }

        @Override
        public Optional<String> context() {
          return context;
        }
      };
    }

    List<String> of(String call) {
      return heard.stream()
          .filter(line -> line.startsWith(call + " ") || line.startsWith(call + "-"))
          .toList();
    }
  }

  @Test
  void aTracersHeadersNeverReplaceTheHeadersTheSdkOwns() throws Exception {
    server.enqueue(fixture("document_sets/created_jsonapi.json"));
    server.enqueue(fixture("document_sets/created_jsonapi.json"));
    Recorder tracer = new Recorder();
    tracer.extraHeaders =
        Map.of("Idempotency-Key", "tracer-key", "Accept", "text/html", "User-Agent", "tracer/1");
    try (FormationClient client = TestClients.builder(server, time).tracer(tracer).build()) {
      client.documentSets().create(DocumentSets.DELAWARE_CORPORATION);
      client.documentSets().create(DocumentSets.DELAWARE_CORPORATION);
    }

    RecordedRequest first = server.takeRequest();
    RecordedRequest second = server.takeRequest();
    // Two creates with one key are one set for the service: the tracer changed the outcome.
    assertThat(first.getHeaders().get("Idempotency-Key"))
        .isNotEqualTo(second.getHeaders().get("Idempotency-Key"));
    assertThat(first.getHeaders().get("Accept")).isNotEqualTo("text/html");
    assertThat(first.getHeaders().get("User-Agent")).doesNotStartWith("tracer/1");
  }

  @Test
  void aTracerThatReturnsNullEverywhereLeavesTheCallAndTheWaitUntouched() throws Exception {
    server.enqueue(fixture("document_sets/created_jsonapi.json"));
    server.enqueue(fixture("document_sets/created_jsonapi.json"));
    FormationTracer nullCalls = call -> null;
    FormationTracer nulls =
        call ->
            new FormationTracer.CallSpan() {
              @Override
              public FormationTracer.AttemptSpan startAttempt(AttemptEvent attempt) {
                return null;
              }

              @Override
              public void end(Optional<DocumentSet> set, Optional<Throwable> failure) {}

              @Override
              public Optional<String> context() {
                return null;
              }
            };

    for (FormationTracer tracer : List.of(nullCalls, nulls)) {
      try (FormationClient client = TestClients.builder(server, time).tracer(tracer).build()) {
        DocumentSet set = client.documentSets().create(DocumentSets.DELAWARE_CORPORATION);
        WaitState wait = client.documentSets().startWait(set.id(), PollOptions.defaults());

        assertThat(set.id()).isEqualTo("ds_123");
        assertThat(wait.traceContext()).isEmpty();
        assertThat(wait.encode()).startsWith("w1.");
      }
      assertThat(server.takeRequest().getHeaders().get("traceparent")).isNull();
    }
  }

  @Test
  void headersThatAreNullOrThrowAreDroppedAndTheAttemptSpanStillEnds() throws Exception {
    server.enqueue(documentSet("ds_1", "processing"));
    server.enqueue(documentSet("ds_1", "processing"));
    List<String> ended = new CopyOnWriteArrayList<>();
    for (boolean throwing : List.of(false, true)) {
      FormationTracer tracer =
          call ->
              new FormationTracer.CallSpan() {
                @Override
                public FormationTracer.AttemptSpan startAttempt(AttemptEvent attempt) {
                  return new FormationTracer.AttemptSpan() {
                    @Override
                    public Map<String, String> headers() {
                      if (throwing) {
                        throw new IllegalStateException("no propagator");
                      }
                      return null;
                    }

                    @Override
                    public void end(AttemptEvent finished) {
                      ended.add("attempt " + finished.statusCode());
                    }
                  };
                }

                @Override
                public void end(Optional<DocumentSet> set, Optional<Throwable> failure) {
                  ended.add("call " + set.map(DocumentSet::id).orElse("-"));
                }

                @Override
                public Optional<String> context() {
                  return Optional.empty();
                }
              };
      try (FormationClient client = TestClients.builder(server, time).tracer(tracer).build()) {
        assertThat(client.documentSets().get("ds_1").id()).isEqualTo("ds_1");
      }
    }

    assertThat(ended).containsExactly("attempt 200", "call ds_1", "attempt 200", "call ds_1");
  }

  @Test
  void anAttemptReportedStartedEndsOnceEvenWhenTheClientClosesBeforeItIsSent() throws Exception {
    server.enqueue(documentSet("ds_1", "processing"));
    Recorder tracer = new Recorder();
    List<String> listened = new CopyOnWriteArrayList<>();
    FormationClient[] client = new FormationClient[1];
    client[0] =
        TestClients.builder(server, time)
            .tracer(tracer)
            .listener(
                new FormationListener() {
                  @Override
                  public void attemptStarted(AttemptEvent attempt) {
                    listened.add("started");
                    // The application shuts down as the attempt is about to go.
                    client[0].close();
                  }

                  @Override
                  public void attemptFinished(AttemptEvent attempt) {
                    listened.add("finished");
                  }
                })
            .build();

    assertThatThrownBy(() -> client[0].documentSets().get("ds_1"))
        .isInstanceOf(IllegalStateException.class);

    assertThat(listened).containsExactly("started", "finished");
    assertThat(tracer.heard)
        .containsExactly(
            "call-1 started DocumentSets.get linked -",
            "call-1-attempt-1 started",
            "call-1-attempt-1 ended 0",
            "call-1 ended - IllegalStateException");
  }

  @Test
  void aWaitStartedInTheContinuationOfCreateAsyncCarriesTheCreatingSpan() throws Exception {
    server.enqueue(fixture("document_sets/created_jsonapi.json"));
    BlockingQueue<Runnable> completions = new LinkedBlockingQueue<>();
    Recorder tracer = new Recorder();
    try (FormationClient client =
        TestClients.builder(server, time)
            .tracer(tracer)
            .completionExecutor(completions::add)
            .build()) {
      CompletableFuture<DocumentSet> created =
          client.documentSets().createAsync(DocumentSets.DELAWARE_CORPORATION);
      Runnable deliver = completions.poll(SAFETY_NET.toSeconds(), TimeUnit.SECONDS);
      assertThat(deliver).as("the create's answer, to deliver").isNotNull();
      // What a partner writes: create, then wait for the set it created.
      CompletableFuture<WaitState> wait =
          created.thenApply(
              set -> client.documentSets().startWait(set.id(), PollOptions.defaults()));

      deliver.run();

      assertThat(wait.join().traceContext()).contains(CONTEXT);
    }
  }

  @Test
  void aWaitStartedAfterCreateAsyncIsJoinedCarriesTheCreatingSpan() throws Exception {
    server.enqueue(fixture("document_sets/created_jsonapi.json"));
    Recorder tracer = new Recorder();
    try (FormationClient client =
        TestClients.builder(server, time)
            .tracer(tracer)
            .completionExecutor(Runnable::run)
            .build()) {
      DocumentSet set = client.documentSets().createAsync(DocumentSets.DELAWARE_CORPORATION).join();

      assertThat(client.documentSets().startWait(set.id(), PollOptions.defaults()).traceContext())
          .contains(CONTEXT);
    }
  }

  @Test
  void concurrentCallsOnOneClientNeverCarryEachOthersAttemptSpans() throws Exception {
    Map<String, AtomicInteger> seen = new ConcurrentHashMap<>();
    server.setDispatcher(
        new Dispatcher() {
          @Override
          public MockResponse dispatch(RecordedRequest request) {
            String path = request.getTarget();
            String id = path.substring(path.lastIndexOf('/') + 1);
            // Each set is refused once, then read: every call has two attempts.
            return seen.computeIfAbsent(id, any -> new AtomicInteger()).getAndIncrement() == 0
                ? status(503)
                : documentSet(id, "processing");
          }
        });
    Recorder tracer = new Recorder();
    int calls = 24;
    try (FormationClient client = TestClients.builder(server, time).tracer(tracer).build()) {
      List<CompletableFuture<DocumentSet>> gets = new ArrayList<>();
      for (int i = 0; i < calls; i++) {
        gets.add(client.documentSets().getAsync("ds_" + i));
      }
      CompletableFuture.allOf(gets.toArray(CompletableFuture[]::new)).get(10, TimeUnit.SECONDS);
    }

    for (int i = 0; i < 2 * calls; i++) {
      RecordedRequest request = server.takeRequest();
      String id = request.getTarget().substring(request.getTarget().lastIndexOf('/') + 1);
      String call = tracer.callOfHeader.get(request.getHeaders().get("traceparent"));
      assertThat(tracer.setOfCall.get(call)).as(request.getTarget()).contains(id);
    }
    for (String call : tracer.setOfCall.keySet()) {
      assertThat(tracer.of(call))
          .containsExactly(
              call + " started DocumentSets.get linked -",
              call + "-attempt-1 started",
              call + "-attempt-1 ended 503",
              call + "-attempt-2 started",
              call + "-attempt-2 ended 200",
              call + " ended " + tracer.setOfCall.get(call).orElseThrow());
    }
  }

  @Test
  void aCancelledAsyncCallEndsItsAttemptSpanOnceAndBeforeItsCallSpan() throws Exception {
    CountDownLatch answer = new CountDownLatch(1);
    server.setDispatcher(
        new Dispatcher() {
          @Override
          public MockResponse dispatch(RecordedRequest request) throws InterruptedException {
            answer.await(SAFETY_NET.toSeconds(), TimeUnit.SECONDS);
            return documentSet("ds_1", "processing");
          }
        });
    Recorder tracer = new Recorder();
    try (FormationClient client = TestClients.builder(server, time).tracer(tracer).build()) {
      CompletableFuture<DocumentSet> get = client.documentSets().getAsync("ds_1");
      server.takeRequest();

      get.cancel(true);
      answer.countDown();
    }

    assertThat(tracer.heard)
        .containsExactly(
            "call-1 started DocumentSets.get linked -",
            "call-1-attempt-1 started",
            "call-1-attempt-1 ended 0",
            "call-1 ended - CancellationException");
  }

  @Test
  void aWaitResumedFromAnUntracedW2StringPollsUnlinkedAndKeepsItsFormat() throws Exception {
    server.enqueue(status(503));
    server.enqueue(documentSet("ds_1", "processing"));
    server.enqueue(documentSet("ds_1", "complete"));
    PollOptions options = PollOptions.builder().retryFailuresAfter(Duration.ofSeconds(1)).build();
    String w2;
    try (FormationClient untraced = TestClients.builder(server, time).maxRetries(0).build()) {
      WaitState wait = untraced.documentSets().startWait("ds_1", options);
      w2 = untraced.documentSets().poll(wait, options).waitState().encode();
    }
    assertThat(w2).startsWith("w2.");
    Recorder tracer = new Recorder();
    List<StateChange> changes = new CopyOnWriteArrayList<>();
    try (FormationClient client =
        TestClients.builder(server, time)
            .tracer(tracer)
            .listener(
                new FormationListener() {
                  @Override
                  public void stateChanged(StateChange change) {
                    changes.add(change);
                  }
                })
            .build()) {
      PollResult first = client.documentSets().poll(WaitState.decode(w2), options);
      assertThat(first.waitState().encode()).doesNotStartWith("w3.");
      client.documentSets().poll(WaitState.decode(first.waitState().encode()), options);
    }

    assertThat(tracer.heard)
        .filteredOn(line -> line.contains(" started Doc"))
        .allMatch(line -> line.endsWith("linked -"));
    assertThat(changes).hasSize(2);
    // Without a trace, a resumed wait cannot know how long the previous state lasted...
    assertThat(changes.get(1).timeInPrevious()).isEmpty();
    assertThat(changes.get(1).seenWithin())
        .hasValueSatisfying(d -> assertThat(d).isGreaterThanOrEqualTo(Duration.ZERO));
  }

  @Test
  void aPollOfASavedTracedWaitIsLinkedToTheCreatingSpanOnAnyClient() throws Exception {
    server.enqueue(fixture("document_sets/created_jsonapi.json"));
    server.enqueue(documentSet("ds_123", "processing"));
    server.enqueue(documentSet("ds_123", "complete"));
    String saved;
    try (FormationClient creating =
        TestClients.builder(server, time).tracer(new Recorder()).build()) {
      creating.documentSets().create(DocumentSets.DELAWARE_CORPORATION);
      saved = creating.documentSets().startWait("ds_123", PollOptions.defaults()).encode();
    }
    Recorder polling = new Recorder();
    polling.context = Optional.empty();
    try (FormationClient other = TestClients.builder(server, time).tracer(polling).build()) {
      PollResult first = other.documentSets().poll(WaitState.decode(saved), PollOptions.defaults());
      other
          .documentSets()
          .awaitCompletion(WaitState.decode(first.waitState().encode()), PollOptions.defaults());
    }

    assertThat(polling.heard)
        .filteredOn(line -> line.contains(" started Doc"))
        .hasSize(2)
        .allMatch(line -> line.endsWith("DocumentSets.poll linked " + CONTEXT));
  }

  @Test
  void aListenerOrTracerThrowingOnStateChangedNeverChangesAPoll() throws Exception {
    server.enqueue(documentSet("ds_1", "processing"));
    FormationTracer throwing =
        new FormationTracer() {
          @Override
          public CallSpan startCall(Call call) {
            return null;
          }

          @Override
          public void stateChanged(StateChange change) {
            throw new NoClassDefFoundError("io/opentelemetry/api/metrics/Missing");
          }

          @Override
          public void paused(String origin, Duration pause) {
            throw new IllegalStateException("meter closed");
          }
        };
    try (FormationClient client =
        TestClients.builder(server, time)
            .tracer(throwing)
            .listener(
                new FormationListener() {
                  @Override
                  public void stateChanged(StateChange change) {
                    throw new StackOverflowError();
                  }
                })
            .build()) {
      PollResult result =
          client
              .documentSets()
              .poll(
                  client.documentSets().startWait("ds_1", PollOptions.defaults()),
                  PollOptions.defaults());

      assertThat(result.kind()).isEqualTo(PollResult.Kind.CHANGED);
    }
  }

  @Test
  void anAttemptHeldBackByAPauseAndSentLaterIsOneAttemptSpanWithOneTraceparent() throws Exception {
    server.enqueue(status(429).newBuilder().addHeader("Retry-After", "10").build());
    server.enqueue(documentSet("ds_2", "finalizing"));
    okhttp3.Dispatcher oneAtATime = new okhttp3.Dispatcher();
    oneAtATime.setMaxRequestsPerHost(1);
    OkHttpClient http = new OkHttpClient.Builder().dispatcher(oneAtATime).build();
    Recorder tracer = new Recorder();
    try (FormationClient client =
        TestClients.builder(server, time).httpClient(http).tracer(tracer).maxRetries(0).build()) {
      CompletableFuture<?> first = client.documentSets().getAsync("ds_1");
      CompletableFuture<?> queued = client.documentSets().getAsync("ds_2");

      assertThat(first).failsWithin(SAFETY_NET);
      assertThat(queued).succeedsWithin(SAFETY_NET);
    } finally {
      http.dispatcher().executorService().shutdown();
    }

    // Held in OkHttp's queue by the pause, the second call went out once, after it.
    assertThat(time.sleeps()).hasSize(1);
    assertThat(server.takeRequest().getHeaders().get("traceparent")).isEqualTo("call-1-attempt-1");
    assertThat(server.takeRequest().getHeaders().get("traceparent")).isEqualTo("call-2-attempt-1");
    assertThat(tracer.of("call-2"))
        .containsExactly(
            "call-2 started DocumentSets.get linked -",
            "call-2-attempt-1 started",
            "call-2-attempt-1 ended 200",
            "call-2 ended ds_2");
  }
}
