package io.formation.sdk.internal.transport;

import io.formation.sdk.internal.Port;
import io.formation.sdk.internal.guards.Origins;
import io.formation.sdk.internal.limits.RetryPolicy;
import io.formation.sdk.internal.limits.Throttle;
import io.formation.sdk.internal.time.SchedulerSleeper;
import io.formation.sdk.internal.time.Sleeper;
import io.formation.sdk.internal.time.Time;
import java.io.IOException;
import java.time.Duration;
import java.util.HashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.Supplier;
import okhttp3.Authenticator;
import okhttp3.Call;
import okhttp3.Callback;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.RequestBody;
import okhttp3.Response;

/** Sends requests: runs the attempts and waits between them as the policy says. */
public final class Transport {
  private static final String IDEMPOTENCY_KEY = "Idempotency-Key";

  private final OkHttpClient http;
  private final RetryPolicy retryPolicy;
  private final Throttle throttle;
  private final Port port;
  private final Responses responses;
  private final Time time;
  private final Executor completions;
  private final String userAgent;
  private final long maxResponseBytes;
  private volatile boolean closed;

  /** The calls in flight, with their attempts: closing cancels them, interceptors find them. */
  private final Map<Call, Attempt> live = new ConcurrentHashMap<>();

  private final InterruptWatch interrupts;

  public Transport(
      OkHttpClient http,
      Origins origins,
      Supplier<String> tokens,
      RetryPolicy retryPolicy,
      Throttle throttle,
      Time time,
      SchedulerSleeper scheduler,
      Executor completions,
      Port port,
      String userAgent,
      long maxResponseBytes) {
    this.http =
        http.newBuilder()
            // Retries are the policy's alone: OkHttp's would re-send 408s and stale connections.
            .retryOnConnectionFailure(false)
            // A caller's authenticator would answer a 401 by re-sending the request, POSTs too.
            .authenticator(Authenticator.NONE)
            .addInterceptor(new AttemptInterceptor(live, throttle, tokens, port))
            .addNetworkInterceptor(new NetworkInterceptor(live, origins, maxResponseBytes))
            .build();
    this.retryPolicy = retryPolicy;
    this.throttle = throttle;
    this.port = port;
    this.responses = new Responses(retryPolicy, port, maxResponseBytes);
    this.time = time;
    this.interrupts = new InterruptWatch(live, scheduler);
    this.completions = completions;
    this.userAgent = userAgent;
    this.maxResponseBytes = maxResponseBytes;
  }

  public Sleeper sleeper() {
    return time.sleeper();
  }

  /** Where callers' futures complete: never OkHttp's thread or the scheduler. */
  public Executor completions() {
    return completions;
  }

  /** Refuses every later call and cancels the calls in flight; they fail, and are not retried. */
  public void close() {
    closed = true;
    live.keySet().forEach(Call::cancel);
  }

  /** Sends the request, retrying as the policy allows, and reads the body with the reader. */
  public <T> T send(ApiRequest request, Function<JsonResponse, T> reader) {
    Port.Call report = port.callStarted(request);
    try {
      T result = send(request, report, reader);
      report.ended(result, null);
      return result;
    } catch (RuntimeException | Error e) {
      report.ended(null, e);
      throw e;
    }
  }

  private <T> T send(ApiRequest request, Port.Call report, Function<JsonResponse, T> reader) {
    // The started attempt's trace headers; null until it is reported started.
    Map<String, String> reported = null;
    long latest = Time.NEVER;
    for (int attempt = 1; ; ) {
      if (reported == null) {
        // An attempt a pause stops on its way out keeps the deadline of its first try.
        latest = latestStart(request);
      }
      try {
        // The throttle lets a call go or refuses it (an exception); it never sends one itself.
        Sleeper.await(throttle.acquire(request, latest));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        unanswered(request, report, attempt, reported != null, 0);
        throw port.failure("Interrupted while waiting to send " + Responses.describe(request), e);
      } catch (RuntimeException refused) {
        // Held back by a pause on its way out, then refused: it still ends as reported.
        unanswered(request, report, attempt, reported != null, 0);
        throw refused;
      }
      long started = time.now();
      if (reported == null) {
        // Reported once per attempt: one held back by a pause and sent later is still one.
        reported = report.attemptStarted(attempt, retryPolicy.maxAttempts(request));
      }
      Outcome outcome = attempt(request, report, attempt, reported);
      if (heldByPause(outcome)) {
        continue;
      }
      Duration delay = finished(request, report, attempt, outcome, started);
      if (delay == null) {
        return responses.finish(request, attempt, outcome, reader, closed);
      }
      attempt++;
      reported = null;
      try {
        time.sleeper().sleep(delay);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw port.failure("Interrupted while waiting to retry " + Responses.describe(request), e);
      }
    }
  }

  private Outcome attempt(
      ApiRequest request, Port.Call report, int number, Map<String, String> traceHeaders) {
    Attempt attempt = newCall(request, report, number, traceHeaders);
    attempt.blocked = Thread.currentThread();
    interrupts.start();
    try (Response response = attempt.call.execute()) {
      return Outcome.of(attempt, response, maxResponseBytes);
    } catch (IOException e) {
      return Outcome.failed(attempt, e, maxResponseBytes);
    } catch (RuntimeException e) {
      // AttemptInterceptor catches what the stack throws; this is what OkHttp throws around it.
      return Outcome.failed(attempt, FinalFailure.ofStack(port, e), maxResponseBytes);
    } finally {
      live.remove(attempt.call);
    }
  }

  /** The async twin of {@link #send}. */
  public <T> CompletableFuture<T> sendAsync(ApiRequest request, Function<JsonResponse, T> reader) {
    return sendAsync(request, reader, completions);
  }

  /** {@link #sendAsync} as a step of another operation, completing on any thread. */
  public <T> CompletableFuture<T> sendAsyncStep(
      ApiRequest request, Function<JsonResponse, T> reader) {
    return sendAsync(request, reader, null);
  }

  private <T> CompletableFuture<T> sendAsync(
      ApiRequest request, Function<JsonResponse, T> reader, Executor completions) {
    Port.Call report = port.callStarted(request);
    AsyncOperation<T> operation = new AsyncOperation<>(completions);
    // Ended before the caller's future completes: its continuations see the call's end.
    operation.onEnd(report::ended);
    attemptAsync(request, report, reader, 1, null, latestStart(request), operation);
    return operation.result();
  }

  private <T> void attemptAsync(
      ApiRequest request,
      Port.Call report,
      Function<JsonResponse, T> reader,
      int attempt,
      Map<String, String> reported,
      long latest,
      AsyncOperation<T> operation) {
    CompletableFuture<IOException> turn = throttle.acquire(request, latest);
    if (!operation.track(turn)) {
      unanswered(request, report, attempt, reported != null, 0);
      return;
    }
    turn.whenComplete(
        (ignored, error) ->
            operation.run(
                () -> {
                  if (operation.isDone() || error != null) {
                    unanswered(request, report, attempt, reported != null, 0);
                    if (error != null) {
                      operation.fail(AsyncOperation.unwrap(error));
                    }
                    return;
                  }
                  Map<String, String> traceHeaders =
                      reported != null
                          ? reported
                          : report.attemptStarted(attempt, retryPolicy.maxAttempts(request));
                  sendAttempt(request, report, traceHeaders, reader, attempt, latest, operation);
                }));
  }

  private <T> void sendAttempt(
      ApiRequest request,
      Port.Call report,
      Map<String, String> traceHeaders,
      Function<JsonResponse, T> reader,
      int attempt,
      long latest,
      AsyncOperation<T> operation) {
    Attempt inFlight = newCall(request, report, attempt, traceHeaders);
    Call call = inFlight.call;
    long started = time.now();
    CompletableFuture<Outcome> outcome = new CompletableFuture<>();
    outcome.whenComplete(
        (ignored, error) -> {
          if (outcome.isCancelled()) {
            call.cancel();
          }
        });
    if (!operation.track(outcome)) {
      live.remove(call);
      unanswered(request, report, attempt, true, 0);
      return;
    }
    call.enqueue(
        new Callback() {
          @Override
          public void onResponse(Call call, Response response) {
            live.remove(call);
            // Caught here, an Error neither kills OkHttp's thread nor strands the caller's future.
            try (response) {
              outcome.complete(Outcome.of(inFlight, response, maxResponseBytes));
            } catch (Throwable t) {
              outcome.completeExceptionally(t);
            }
          }

          @Override
          public void onFailure(Call call, IOException e) {
            live.remove(call);
            try {
              outcome.complete(Outcome.failed(inFlight, e, maxResponseBytes));
            } catch (Throwable t) {
              outcome.completeExceptionally(t);
            }
          }
        });
    outcome.whenComplete(
        (done, error) ->
            operation.run(
                () -> {
                  if (operation.isDone()) {
                    // The caller ended the call (cancel, orTimeout, complete) before its answer.
                    unanswered(request, report, attempt, true, time.now() - started);
                    return;
                  }
                  if (error != null) {
                    operation.fail(error);
                  } else if (heldByPause(done)) {
                    attemptAsync(request, report, reader, attempt, traceHeaders, latest, operation);
                  } else {
                    afterAttempt(request, report, reader, attempt, operation, done, started);
                  }
                }));
  }

  /** What follows an attempt: the result, the exception, or the next attempt after a wait. */
  private <T> void afterAttempt(
      ApiRequest request,
      Port.Call report,
      Function<JsonResponse, T> reader,
      int attempt,
      AsyncOperation<T> operation,
      Outcome outcome,
      long started) {
    Duration delay = finished(request, report, attempt, outcome, started);
    if (delay == null) {
      operation.complete(responses.finish(request, attempt, outcome, reader, closed));
      return;
    }
    operation.after(
        time.sleeper(),
        delay,
        () ->
            attemptAsync(
                request, report, reader, attempt + 1, null, latestStart(request), operation));
  }

  /** Tells how the attempt went; {@return the wait before the next attempt, or null if none} */
  private Duration finished(
      ApiRequest request, Port.Call report, int attempt, Outcome outcome, long started) {
    throttle.observe(request, outcome, started);
    Duration delay = closed ? null : retryPolicy.delayAfter(request, attempt, outcome);
    report.attemptFinished(
        attempt, retryPolicy.maxAttempts(request), outcome, time.now() - started, delay);
    return delay;
  }

  /** Ends an attempt started but unanswered, so every start is finished once. */
  private void unanswered(
      ApiRequest request, Port.Call report, int attempt, boolean reported, long nanos) {
    if (reported) {
      report.attemptFinished(
          attempt,
          retryPolicy.maxAttempts(request),
          Outcome.notSent(Port.interrupted("the call ended before an answer")),
          nanos,
          null);
    }
  }

  /** The latest an attempt starting now may go: kept if a pause stops it on its way out. */
  private long latestStart(ApiRequest request) {
    return retryPolicy.latestStart(request, time.now());
  }

  /** Whether a pause stopped the attempt on its way out, nothing sent. */
  private boolean heldByPause(Outcome outcome) {
    return !closed && outcome.failure() instanceof Throttle.PausedBeforeSending;
  }

  /** The call of the request's next attempt, in flight from here on. */
  private Attempt newCall(
      ApiRequest request, Port.Call report, int number, Map<String, String> traceHeaders) {
    if (closed) {
      // Reported started, so it ends as reported.
      unanswered(request, report, number, true, 0);
      throw Port.illegalState("The FormationClient is closed: " + Responses.describe(request));
    }
    RequestBody body =
        request.body() == null ? null : NetworkInterceptor.body(request.method(), request.body());
    Request.Builder okhttp =
        new Request.Builder().url(request.url()).method(request.method(), body);
    Map<String, String> headers = request.options().headers();
    String key = request.idempotencyKey();
    Set<String> callerHeaders = Set.of();
    if (!headers.isEmpty() || key != null) {
      Set<String> names = new HashSet<>(headers.keySet());
      for (Map.Entry<String, String> header : headers.entrySet()) {
        okhttp.header(header.getKey(), header.getValue());
      }
      if (key != null) {
        okhttp.addHeader(IDEMPOTENCY_KEY, key);
        names.add(IDEMPOTENCY_KEY);
      }
      callerHeaders = names;
    }
    // Added, not set: RequestOptions refuses these three, so there is no value to replace.
    Call call =
        http.newCall(
            okhttp
                .addHeader("Accept", request.accept())
                .addHeader("User-Agent", userAgent)
                .build());
    Optional<Duration> timeout = request.options().timeout();
    if (timeout.isPresent()) {
      call.timeout().timeout(timeout.get().toMillis(), TimeUnit.MILLISECONDS);
    }
    Attempt attempt = new Attempt(call, request.url(), callerHeaders, traceHeaders);
    live.put(call, attempt);
    if (closed) {
      // close() may have run between the check above and the put: don't let this one slip.
      call.cancel();
    }
    return attempt;
  }
}
