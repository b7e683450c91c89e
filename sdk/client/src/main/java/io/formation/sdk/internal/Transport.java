package io.formation.sdk.internal;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import io.formation.sdk.ApiError;
import io.formation.sdk.ApiException;
import io.formation.sdk.AuthenticationException;
import io.formation.sdk.BadRequestException;
import io.formation.sdk.ConflictException;
import io.formation.sdk.FormationException;
import io.formation.sdk.InvalidResponseException;
import io.formation.sdk.NetworkException;
import io.formation.sdk.NotFoundException;
import io.formation.sdk.PermissionDeniedException;
import io.formation.sdk.RateLimitException;
import io.formation.sdk.ServerException;
import io.formation.sdk.TokenProvider;
import io.formation.sdk.ValidationException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import okhttp3.Authenticator;
import okhttp3.Call;
import okhttp3.Callback;
import okhttp3.MediaType;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.RequestBody;
import okhttp3.Response;
import okio.BufferedSink;

/**
 * Sends {@link ApiRequest}s: retries, error mapping and parsing. The blocking and the async path
 * differ only in how they run one attempt and how they wait; the decisions are shared.
 */
public final class Transport {
  private static final MediaType JSON = MediaType.get("application/json; charset=utf-8");

  private final OkHttpClient http;
  private final TokenProvider tokens;
  private final RetryPolicy retryPolicy;
  private final Sleeper sleeper;
  private final String userAgent;
  private volatile boolean closed;
  private final Set<Call> live = ConcurrentHashMap.newKeySet();

  /**
   * @param http the client to send with; the transport adds its own network interceptor to it
   */
  public Transport(
      OkHttpClient http,
      Origins origins,
      TokenProvider tokens,
      RetryPolicy retryPolicy,
      Sleeper sleeper,
      String userAgent) {
    this.http =
        http.newBuilder()
            // Retries are the policy's alone: OkHttp's own would re-send 408s and stale-connection
            // failures behind its back and make maxRetries a lie.
            .retryOnConnectionFailure(false)
            // A caller's authenticator would answer a 401 by re-sending the request, a POST
            // included, with credentials of its own.
            .authenticator(Authenticator.NONE)
            .addNetworkInterceptor(new NetworkInterceptor(origins))
            .build();
    this.tokens = tokens;
    this.retryPolicy = retryPolicy;
    this.sleeper = sleeper;
    this.userAgent = userAgent;
  }

  public Sleeper sleeper() {
    return sleeper;
  }

  /** Refuses every later call and cancels the calls in flight; they fail, and are not retried. */
  public void close() {
    closed = true;
    live.forEach(Call::cancel);
  }

  private Call newCall(ApiRequest request) {
    Call call = http.newCall(toOkHttp(request));
    live.add(call);
    if (closed) {
      // close() may have run between the check in toOkHttp and the add: don't let this one slip.
      call.cancel();
    }
    return call;
  }

  /** Sends the request, retrying as the policy allows, and reads the body with the reader. */
  public <T> T send(ApiRequest request, Function<JsonResponse, T> reader) {
    for (int attempt = 1; ; attempt++) {
      Outcome outcome;
      Call call = newCall(request);
      try (Response response = call.execute()) {
        outcome = Outcome.of(call, response);
      } catch (IOException e) {
        outcome = Outcome.failed(call, e);
      } finally {
        live.remove(call);
      }
      Duration delay = closed ? null : retryPolicy.delayAfter(request.method(), attempt, outcome);
      if (delay == null) {
        return finish(request, attempt, outcome, reader);
      }
      try {
        sleeper.sleep(delay);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new FormationException("Interrupted while waiting to retry " + describe(request), e);
      }
    }
  }

  /**
   * The async twin of {@link #send}: OkHttp's own dispatch for each attempt, the shared sleeper's
   * non-blocking delay between attempts. Cancelling the returned future cancels the call in flight
   * and any retry not yet started.
   */
  public <T> CompletableFuture<T> sendAsync(ApiRequest request, Function<JsonResponse, T> reader) {
    AsyncOperation<T> operation = new AsyncOperation<>();
    attemptAsync(request, reader, 1, operation);
    return operation.result();
  }

  private <T> void attemptAsync(
      ApiRequest request,
      Function<JsonResponse, T> reader,
      int attempt,
      AsyncOperation<T> operation) {
    if (operation.isDone()) {
      return;
    }
    Call call;
    try {
      call = newCall(request);
    } catch (RuntimeException e) {
      operation.fail(e);
      return;
    }
    CompletableFuture<Outcome> outcome = new CompletableFuture<>();
    outcome.whenComplete(
        (ignored, error) -> {
          if (outcome.isCancelled()) {
            call.cancel();
          }
        });
    if (!operation.track(outcome)) {
      return;
    }
    call.enqueue(
        new Callback() {
          @Override
          public void onResponse(Call call, Response response) {
            live.remove(call);
            outcome.complete(Outcome.of(call, response));
          }

          @Override
          public void onFailure(Call call, IOException e) {
            live.remove(call);
            outcome.complete(Outcome.failed(call, e));
          }
        });
    outcome.thenAccept(
        done -> {
          if (operation.isDone()) {
            return;
          }
          Duration delay = closed ? null : retryPolicy.delayAfter(request.method(), attempt, done);
          if (delay == null) {
            try {
              operation.complete(finish(request, attempt, done, reader));
            } catch (RuntimeException e) {
              operation.fail(e);
            }
            return;
          }
          operation.after(
              sleeper.delay(delay), () -> attemptAsync(request, reader, attempt + 1, operation));
        });
  }

  private Request toOkHttp(ApiRequest request) {
    if (closed) {
      throw new IllegalStateException("The FormationClient is closed: " + describe(request));
    }
    RequestBody body = null;
    if (request.body() != null) {
      body =
          RetryPolicy.isIdempotent(request.method())
              ? RequestBody.create(request.body(), JSON)
              : new OneShotBody(request.body());
    }
    return new Request.Builder()
        .url(request.url())
        .method(request.method(), body)
        .header("Accept", request.accept())
        .header("User-Agent", userAgent)
        .tag(Attempt.class, new Attempt(token()))
        .build();
  }

  private <T> T finish(
      ApiRequest request, int attempts, Outcome outcome, Function<JsonResponse, T> reader) {
    if (outcome.failure() != null && closed) {
      throw new IllegalStateException(
          "The FormationClient was closed during " + describe(request), outcome.failure());
    }
    if (outcome.failure() != null) {
      throw new NetworkException(
          describe(request)
              + " failed"
              + (attempts > 1 ? " after " + attempts + " attempts" : "")
              + ": "
              + outcome.failure(),
          outcome.failure());
    }
    if (!outcome.isSuccess()) {
      throw toApiException(request, outcome);
    }
    JsonNode body = parse(request, outcome);
    try {
      return reader.apply(new JsonResponse(outcome.statusCode(), outcome.headers(), body));
    } catch (Wire.ShapeException e) {
      String what = body.isMissingNode() ? "an empty body" : "an unexpected body";
      throw invalid(request, outcome, what + ": " + e.getMessage(), e);
    }
  }

  private JsonNode parse(ApiRequest request, Outcome outcome) {
    if (outcome.body().length == 0) {
      return MissingNode.getInstance();
    }
    try {
      return Wire.MAPPER.readTree(outcome.body());
    } catch (JsonProcessingException e) {
      String type = outcome.headers().get("Content-Type");
      throw invalid(
          request,
          outcome,
          "a body that is not valid JSON ("
              + (type == null ? "no content type" : type)
              + ", "
              + outcome.body().length
              + " bytes): "
              + e.getOriginalMessage(),
          e);
    } catch (IOException e) {
      throw invalid(request, outcome, "an unreadable body: " + e.getMessage(), e);
    }
  }

  private static InvalidResponseException invalid(
      ApiRequest request, Outcome outcome, String what, Exception cause) {
    String body = new String(outcome.body(), StandardCharsets.UTF_8);
    return new InvalidResponseException(
        describe(request) + " returned " + outcome.statusCode() + " with " + what,
        outcome.statusCode(),
        body,
        cause);
  }

  private ApiException toApiException(ApiRequest request, Outcome outcome) {
    // A service that echoes the token in an error must not put it into messages and logs.
    String body = outcome.redact(new String(outcome.body(), StandardCharsets.UTF_8));
    List<ApiError> errors = List.of();
    try {
      errors = Wire.errors(Wire.MAPPER.readTree(body));
    } catch (IOException notJson) {
      // An HTML page from a proxy, say: the raw body is kept and shown instead.
    }
    String method = request.method();
    String url = request.url().toString();
    int status = outcome.statusCode();
    var headers = outcome.headers();
    return switch (status) {
      case 400 -> new BadRequestException(method, url, status, headers, body, errors);
      case 401 -> new AuthenticationException(method, url, status, headers, body, errors);
      case 403 -> new PermissionDeniedException(method, url, status, headers, body, errors);
      case 404 -> new NotFoundException(method, url, status, headers, body, errors);
      case 409 -> new ConflictException(method, url, status, headers, body, errors);
      case 422 -> new ValidationException(method, url, status, headers, body, errors);
      case 429 ->
          new RateLimitException(
              method, url, status, headers, body, errors, retryPolicy.retryAfter(headers));
      default ->
          status >= 500
              ? new ServerException(method, url, status, headers, body, errors)
              : new ApiException(method, url, status, headers, body, errors);
    };
  }

  private String token() {
    String token;
    try {
      token = tokens.token();
    } catch (RuntimeException e) {
      throw new FormationException("The token provider failed: " + e.getMessage(), e);
    }
    if (token == null || token.isBlank()) {
      throw new FormationException("The token provider returned no access token");
    }
    return token;
  }

  /** What was called, for messages; without the query, as {@link ApiException} does. */
  static String describe(ApiRequest request) {
    return request.method() + " " + request.url().newBuilder().query(null).build();
  }

  /**
   * A body OkHttp must not replay by itself: its silent retry on a failed connection would
   * otherwise re-send a POST the service may already have acted on.
   */
  private static final class OneShotBody extends RequestBody {
    private final byte[] bytes;

    OneShotBody(byte[] bytes) {
      this.bytes = bytes;
    }

    @Override
    public MediaType contentType() {
      return JSON;
    }

    @Override
    public long contentLength() {
      return bytes.length;
    }

    @Override
    public boolean isOneShot() {
      return true;
    }

    @Override
    public void writeTo(BufferedSink sink) throws IOException {
      sink.write(bytes);
    }
  }
}
