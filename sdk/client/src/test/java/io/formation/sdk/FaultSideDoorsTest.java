package io.formation.sdk;

import static io.formation.sdk.FaultClients.ID;
import static io.formation.sdk.FaultClients.TOKEN;
import static io.formation.sdk.FaultClients.causeChain;
import static io.formation.sdk.FaultClients.formWithAction;
import static io.formation.sdk.FaultServer.Fault.json;
import static io.formation.sdk.Fixtures.documentSetBody;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.formation.sdk.FaultServer.Fault;
import io.formation.sdk.FaultServer.Recorded;
import io.formation.sdk.model.DocumentSet;
import io.formation.sdk.model.Form;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The side doors, over a real socket: a secret that would leave in an exception's cause, a header
 * that would follow a redirect, a url that would carry credentials, a header OkHttp itself would
 * choke on, and a listener that throws what no one expects.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class FaultSideDoorsTest extends FaultFixture {
  private static final String SET = documentSetBody(ID, "input_needed");

  enum Mode {
    BLOCKING,
    ASYNC;

    DocumentSet get(FormationClient client) {
      try {
        return this == BLOCKING
            ? client.documentSets().get(ID)
            : client.documentSets().getAsync(ID).get(20, TimeUnit.SECONDS);
      } catch (java.util.concurrent.ExecutionException e) {
        throw (RuntimeException) e.getCause();
      } catch (InterruptedException | java.util.concurrent.TimeoutException e) {
        throw new AssertionError(e);
      }
    }
  }

  /** Records every attempt event, and how many were started but not finished. */
  static final class Events implements FormationListener {
    final List<String> seen = new CopyOnWriteArrayList<>();
    final List<AttemptEvent> finished = new CopyOnWriteArrayList<>();

    @Override
    public void attemptStarted(AttemptEvent attempt) {
      seen.add("started " + attempt.attempt());
    }

    @Override
    public void attemptFinished(AttemptEvent attempt) {
      seen.add("finished " + attempt.attempt());
      finished.add(attempt);
    }
  }

  private static String everything(Throwable error) {
    StringWriter text = new StringWriter();
    error.printStackTrace(new PrintWriter(text));
    return text.toString();
  }

  @ParameterizedTest
  @EnumSource(Mode.class)
  void aStatusLineThatEchoesTheTokenLeavesItInNoCauseStackTraceOrListenerEvent(Mode mode) {
    server.enqueue(Fault.raw("HTTP/1.1 2x0 Bearer " + TOKEN + "\r\nContent-Length: 0\r\n\r\n"));
    Events events = new Events();
    client = FaultClients.fakeTime(server, time).maxRetries(0).listener(events).build();

    Throwable thrown = catchThrowable(() -> mode.get(client));

    assertThat(thrown).isInstanceOf(NetworkException.class);
    assertThat(causeChain(thrown)).hasSizeGreaterThan(1);
    assertThat(everything(thrown)).doesNotContain(TOKEN).contains("<redacted>");
    assertThat(events.finished).singleElement();
    Throwable heard = events.finished.get(0).failure().orElseThrow();
    assertThat(everything(heard)).doesNotContain(TOKEN).contains("ProtocolException");
  }

  @Test
  void headersGivenPerCallDoNotFollowARedirectToAnotherOrigin() throws Exception {
    try (FaultServer other = new FaultServer()) {
      other.enqueue(json(200, SET));
      server.enqueue(
          new Fault.Answer(
              302,
              List.of("Location: " + other.url() + "v1/document_sets/" + ID, "Content-Length: 0"),
              new byte[0],
              FaultServer.After.KEEP_ALIVE));
      client = FaultClients.fakeTime(server, time).maxRetries(0).build();
      RequestOptions secrets =
          RequestOptions.builder().header("Cookie", "session=s1").header("X-Api-Key", "k1").build();

      client.documentSets().withOptions(secrets).get(ID);

      Recorded first = server.requests().get(0);
      assertThat(first.headers().get("Cookie")).isEqualTo("session=s1");
      assertThat(first.headers().get("X-Api-Key")).isEqualTo("k1");
      Recorded redirected = other.requests().get(0);
      assertThat(redirected.headers().names())
          .doesNotContain("Cookie", "X-Api-Key", "Authorization", "Idempotency-Key");
    }
  }

  @Test
  void aCreateRedirectedToAnotherOriginLeavesItsIdempotencyKeyBehind() throws Exception {
    try (FaultServer other = new FaultServer()) {
      other.enqueue(json(201, SET));
      server.enqueue(
          new Fault.Answer(
              307,
              List.of("Location: " + other.url() + "v1/document_sets", "Content-Length: 0"),
              new byte[0],
              FaultServer.After.KEEP_ALIVE));
      client = FaultClients.fakeTime(server, time).maxRetries(0).build();

      catchThrowable(() -> client.documentSets().create(DocumentSets.DELAWARE_CORPORATION));

      assertThat(server.requests().get(0).headers().get("Idempotency-Key")).isNotBlank();
      // OkHttp does not replay a one-shot body, so nothing may reach the other origin at all.
      assertThat(other.requests())
          .allSatisfy(r -> assertThat(r.headers().names()).doesNotContain("Idempotency-Key"));
    }
  }

  @Test
  void anActionUrlWithCredentialsIsRefusedBeforeAnythingIsSentOrLogged() {
    String url = server.url().replace("://", "://user:pa55word@") + "v1/actions/a1";
    server.enqueue(json(200, formWithAction("POST", url)));
    Events events = new Events();
    client = FaultClients.fakeTime(server, time).maxRetries(0).listener(events).build();
    List<Form> forms = client.forms().list(ID);
    events.seen.clear();

    Throwable thrown =
        catchThrowable(() -> client.forms().submit(forms.get(0), java.util.Map.of()));

    assertThat(thrown)
        .isInstanceOf(UntrustedOriginException.class)
        .hasMessageContaining("credentials (user:password@)")
        .hasMessageNotContaining("pa55word");
    assertThat(server.requests()).hasSize(1);
    assertThat(events.seen).isEmpty();
  }

  @ParameterizedTest
  @EnumSource(Mode.class)
  void aRetryAfterPastAnIntIsTheSdksOwnErrorNotOkHttpsNumberFormatException(Mode mode) {
    server.enqueue(json(503, "{}").withHeader("Retry-After", "2147483648"));
    client = FaultClients.fakeTime(server, time).build();

    Throwable thrown = catchThrowable(() -> mode.get(client));

    assertThat(thrown).isInstanceOf(ServerException.class);
    assertThat(((ServerException) thrown).headers().get("Retry-After")).isEqualTo("2147483648");
    assertThat(server.requests()).hasSize(1);
  }

  @Test
  void aRetryAfterOfLongMaxWithNoCapAndDebugLoggingOnOverflowsNothing() {
    Logger logger = Logger.getLogger("io.formation.sdk");
    List<String> lines = new CopyOnWriteArrayList<>();
    Handler handler =
        new Handler() {
          @Override
          public void publish(LogRecord record) {
            lines.add(record.getMessage());
          }

          @Override
          public void flush() {}

          @Override
          public void close() {}
        };
    Level before = logger.getLevel();
    logger.setLevel(Level.ALL);
    logger.addHandler(handler);
    try {
      server.enqueue(json(500, "{}").withHeader("Retry-After", "9223372036854775807"));
      server.enqueue(json(200, SET));
      client =
          FaultClients.fakeTime(server, time)
              .maxRetryAfter(ChronoUnit.FOREVER.getDuration())
              // No call timeout either, or the call would end at once instead of waiting.
              .callTimeout(Duration.ZERO)
              .build();

      assertThat(client.documentSets().get(ID).id()).isEqualTo(ID);
      assertThat(lines).anySatisfy(line -> assertThat(line).contains("retrying in"));
    } finally {
      logger.removeHandler(handler);
      logger.setLevel(before);
    }
  }

  @ParameterizedTest
  @EnumSource(Mode.class)
  void anErrorThrownByAListenerNeverChangesTheOutcome(Mode mode) {
    server.enqueue(json(200, SET));
    client =
        FaultClients.fakeTime(server, time)
            .listener(
                new FormationListener() {
                  @Override
                  public void attemptStarted(AttemptEvent attempt) {
                    throw new NoClassDefFoundError("io/micrometer/core/instrument/Counter");
                  }

                  @Override
                  public void attemptFinished(AttemptEvent attempt) {
                    throw new NoClassDefFoundError("io/micrometer/core/instrument/Timer");
                  }
                })
            .build();

    assertThat(mode.get(client).id()).isEqualTo(ID);
  }

  @Test
  void aSlowTokenProviderNeverRunsOnTheClientsSchedulerThread() throws Exception {
    server.enqueue(json(503, "{}"));
    server.enqueue(json(200, SET));
    Set<String> threads = ConcurrentHashMap.newKeySet();
    client =
        FaultClients.realTime(server)
            .tokenProvider(
                () -> {
                  threads.add(Thread.currentThread().getName());
                  return TOKEN;
                })
            .build();

    client.documentSets().getAsync(ID).get(20, TimeUnit.SECONDS);

    assertThat(server.requests()).hasSize(2);
    assertThat(threads).isNotEmpty().noneMatch(name -> name.startsWith("formation-scheduler"));
  }

  @ParameterizedTest
  @EnumSource(Mode.class)
  void aFailingTokenProviderEndsTheCallAsTheSdksErrorWithNothingSent(Mode mode) {
    Events events = new Events();
    client =
        FaultClients.fakeTime(server, time)
            .tokenProvider(
                () -> {
                  throw new IllegalStateException("vault down");
                })
            .listener(events)
            .build();

    assertThatThrownBy(() -> mode.get(client))
        .isExactlyInstanceOf(FormationException.class)
        .hasMessageContaining("The token provider failed: vault down");
    assertThat(server.requests()).isEmpty();
    assertThat(events.seen).containsExactly("started 1", "finished 1");
  }

  @ParameterizedTest
  @EnumSource(Mode.class)
  void aPollRefusedLocallyPastItsDeadlineIsReportedStartedAndFinished(Mode mode) {
    server.enqueue(json(429, "{}").withHeader("Retry-After", "3600"));
    Events events = new Events();
    client =
        FaultClients.fakeTime(server, time)
            .maxRetries(0)
            .maxRetryAfter(Duration.ofHours(2))
            .listener(events)
            .build();
    catchThrowable(() -> mode.get(client));
    events.seen.clear();

    PollOptions quick = PollOptions.builder().timeout(Duration.ofSeconds(10)).build();
    catchThrowable(
        () ->
            (mode == Mode.BLOCKING
                    ? java.util.concurrent.CompletableFuture.completedFuture(
                        client.documentSets().awaitCompletion(ID, quick))
                    : client.documentSets().awaitCompletionAsync(ID, quick))
                .join());

    assertThat(server.requests()).hasSize(1);
    long started = events.seen.stream().filter(e -> e.startsWith("started")).count();
    long finished = events.seen.stream().filter(e -> e.startsWith("finished")).count();
    assertThat(started).isEqualTo(finished);
  }

  @Test
  void anAttemptWhoseFutureTheCallerEndsBeforeItsAnswerIsStillReportedFinished() throws Exception {
    server.enqueue(Fault.hold());
    Events events = new Events();
    client = FaultClients.fakeTime(server, time).maxRetries(0).listener(events).build();

    java.util.concurrent.CompletableFuture<?> call = client.documentSets().getAsync(ID);
    assertThat(server.awaitRequests(1, Duration.ofSeconds(10))).isTrue();
    call.completeExceptionally(new java.util.concurrent.TimeoutException("the caller gave up"));

    assertThat(events.seen).containsExactly("started 1", "finished 1");
    assertThat(events.finished.get(0).failure()).isNotNull();
  }

  @ParameterizedTest
  @EnumSource(Mode.class)
  void anAttemptHeldBackByAPauseOnItsWayOutIsReportedStartedOnceAndFinishedOnce(Mode mode) {
    server.enqueue(json(429, "{}").withHeader("Retry-After", "5"));
    server.enqueue(json(200, SET));
    java.util.concurrent.atomic.AtomicBoolean paused =
        new java.util.concurrent.atomic.AtomicBoolean();
    List<String> seen = new CopyOnWriteArrayList<>();
    FormationClient[] self = new FormationClient[1];
    client =
        FaultClients.fakeTime(server, time)
            .maxRetries(0)
            .listener(
                new FormationListener() {
                  @Override
                  public void attemptStarted(AttemptEvent attempt) {
                    if (attempt.url().endsWith(ID)) {
                      seen.add("started");
                      // Another call's 429 pauses the origin after this one was let through:
                      // OkHttp's pause check then stops it on its way out.
                      if (paused.compareAndSet(false, true)) {
                        catchThrowable(() -> self[0].documentSets().get("ds_other"));
                      }
                    }
                  }

                  @Override
                  public void attemptFinished(AttemptEvent attempt) {
                    if (attempt.url().endsWith(ID)) {
                      seen.add("finished " + attempt.statusCode());
                    }
                  }
                })
            .build();
    self[0] = client;

    assertThat(mode.get(client).id()).isEqualTo(ID);

    assertThat(server.requests()).extracting(Recorded::path).endsWith("/v1/document_sets/" + ID);
    assertThat(seen).containsExactly("started", "finished 200");
  }

  @ParameterizedTest
  @EnumSource(Mode.class)
  void anAttemptHeldBackByAPauseOnItsWayOutKeepsTheTimeoutOfItsFirstTry(Mode mode) {
    server.enqueue(json(429, "{}").withHeader("Retry-After", "3"));
    server.enqueue(json(200, SET));
    java.util.concurrent.atomic.AtomicBoolean paused =
        new java.util.concurrent.atomic.AtomicBoolean();
    FormationClient[] self = new FormationClient[1];
    client =
        FaultClients.fakeTime(server, time)
            .maxRetries(0)
            .listener(
                new FormationListener() {
                  @Override
                  public void attemptStarted(AttemptEvent attempt) {
                    if (attempt.url().endsWith(ID) && paused.compareAndSet(false, true)) {
                      // Two of its three seconds pass before it leaves OkHttp's queue, and then
                      // another call's 429 pauses the origin for three seconds more.
                      time.advance(Duration.ofSeconds(2));
                      catchThrowable(() -> self[0].documentSets().get("ds_other"));
                    }
                  }
                })
            .build();
    self[0] = client;
    DocumentSets sets =
        client
            .documentSets()
            .withOptions(RequestOptions.builder().timeout(Duration.ofSeconds(3)).build());

    Throwable failure =
        catchThrowable(
            () -> {
              if (mode == Mode.BLOCKING) {
                sets.get(ID);
              } else {
                sets.getAsync(ID).join();
              }
            });

    // Its first try's timeout ends within the pause: it fails unsent, not sent at its end.
    assertThat(
            failure instanceof java.util.concurrent.CompletionException
                ? failure.getCause()
                : failure)
        .isInstanceOf(RateLimitException.class);
    assertThat(server.requests())
        .extracting(Recorded::path)
        .containsExactly("/v1/document_sets/ds_other");
  }

  @ParameterizedTest
  @EnumSource(Mode.class)
  void aLinkageErrorInsideACallIsTheSdksErrorNamingTheLibraryAndTheFix(Mode mode) {
    client =
        brokenBy(() -> new NoSuchMethodError("'okio.Socket okio.Okio.socket(java.net.Socket)'"));

    assertThatThrownBy(() -> mode.get(client))
        .isExactlyInstanceOf(FormationException.class)
        .hasMessageContaining("because Okio on the class path is not the version")
        .hasMessageContaining("Okio 3.18.1")
        .hasCauseInstanceOf(NoSuchMethodError.class);
  }

  @ParameterizedTest
  @EnumSource(Mode.class)
  void aRuntimeFailureInsideTheHttpStackIsTheSdksErrorAndIsNotRetried(Mode mode) {
    java.util.concurrent.atomic.AtomicInteger calls =
        new java.util.concurrent.atomic.AtomicInteger();
    client =
        brokenBy(
            () -> {
              calls.incrementAndGet();
              return new NumberFormatException("For input string: \"2147483648\"");
            });

    assertThatThrownBy(() -> mode.get(client))
        .isExactlyInstanceOf(FormationException.class)
        .hasMessageContaining("The HTTP stack failed during the call")
        .hasCauseInstanceOf(NumberFormatException.class);
    assertThat(calls).hasValue(1);
  }

  /** A client whose HTTP stack throws, on every attempt, what the supplier makes. */
  private FormationClient brokenBy(java.util.function.Supplier<Throwable> failure) {
    okhttp3.OkHttpClient broken =
        new okhttp3.OkHttpClient.Builder()
            .addNetworkInterceptor(
                chain -> {
                  Throwable thrown = failure.get();
                  if (thrown instanceof Error error) {
                    throw error;
                  }
                  throw (RuntimeException) thrown;
                })
            .build();
    return FaultClients.fakeTime(server, time).httpClient(broken).build();
  }
}
