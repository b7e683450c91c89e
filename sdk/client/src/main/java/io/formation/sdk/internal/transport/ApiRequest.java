package io.formation.sdk.internal.transport;

import io.formation.sdk.internal.Port;
import io.formation.sdk.internal.guards.Checks;
import io.formation.sdk.internal.guards.Redaction;
import io.formation.sdk.internal.time.Ticker;
import java.util.Objects;
import java.util.UUID;
import okhttp3.HttpUrl;

/** One call to the service, before auth and retries. */
public record ApiRequest(
    String method,
    HttpUrl url,
    byte[] body,
    String accept,
    long deadline,
    CallOptions options,
    String idempotencyKey,
    Operation operation) {
  public static final String JSON = "application/json";
  public static final String JSON_API = "application/vnd.api+json";

  /** For endpoints whose envelope the interface leaves open: both are fine. */
  public static final String ANY_JSON = JSON_API + ", " + JSON;

  /** The deadline of a call that is not a poll. */
  public static final long NO_DEADLINE = Long.MIN_VALUE;

  public ApiRequest {
    Objects.requireNonNull(method, "method");
    Objects.requireNonNull(url, "url");
    Objects.requireNonNull(accept, "accept");
    Objects.requireNonNull(options, "options");
    Objects.requireNonNull(operation, "operation");
    if (!Checks.isToken(method)) {
      // The method goes into the request line as is: anything but a token would rewrite it.
      throw Port.invalid("Not a valid HTTP method");
    }
  }

  public ApiRequest(String method, HttpUrl url, byte[] body, String accept, CallOptions options) {
    this(method, url, body, accept, NO_DEADLINE, options, null, Operation.named(method));
  }

  /** The same request with its Idempotency-Key: the caller's, or a fresh one. */
  public ApiRequest withIdempotencyKey(String key) {
    String chosen = key != null ? key : UUID.randomUUID().toString();
    return new ApiRequest(method, url, body, accept, deadline, options, chosen, operation);
  }

  public static ApiRequest get(HttpUrl url, String accept, CallOptions options) {
    return new ApiRequest("GET", url, null, accept, options);
  }

  /** The same request as a poll of a wait ending at the deadline, a {@link Ticker} reading. */
  public ApiRequest asPoll(long deadline) {
    if (deadline == NO_DEADLINE) {
      throw Port.invalid("a poll needs a deadline");
    }
    return new ApiRequest(method, url, body, accept, deadline, options, null, operation);
  }

  /** The same request, named for its trace. */
  public ApiRequest as(Operation operation) {
    return new ApiRequest(method, url, body, accept, deadline, options, idempotencyKey, operation);
  }

  /** The URL without its query, for messages and logs: a query can hold a cursor or a signature. */
  public String urlWithoutQuery() {
    return Redaction.withoutQuery(url.toString());
  }

  /** Whether this is a poll of a wait for completion. */
  public boolean isPoll() {
    return deadline != NO_DEADLINE;
  }
}
