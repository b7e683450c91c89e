package io.formation.sdk.internal.transport;

import io.formation.sdk.internal.guards.Origins;
import java.util.Map;
import java.util.Set;
import okhttp3.Call;
import okhttp3.HttpUrl;
import okhttp3.Response;

/** One attempt, found by its call: its token, origin, headers, and what it sent. */
final class Attempt {
  final Call call;
  private final HttpUrl url;
  final Set<String> callerHeaders;

  /** The trace's headers (a W3C {@code traceparent}), for the service's origins only. */
  final Map<String, String> traceHeaders;

  /** Set by {@link AttemptInterceptor}; null when the attempt never got as far as fetching one. */
  volatile String token;

  volatile boolean sent;

  /** An answer (its body already buffered) that OkHttp may follow up on its own, or null. */
  volatile Response kept;

  /** The thread blocked on this attempt, for the check of interrupts; null for an async one. */
  volatile Thread blocked;

  Attempt(Call call, HttpUrl url, Set<String> callerHeaders, Map<String, String> traceHeaders) {
    this.call = call;
    this.url = url;
    this.callerHeaders = Set.copyOf(callerHeaders);
    this.traceHeaders = traceHeaders;
  }

  /** Whether the URL is on another origin than the one the call was made for. */
  boolean crossesOrigin(HttpUrl url) {
    return !Origins.sameOrigin(this.url, url);
  }

  @Override
  public String toString() {
    return "Attempt[token=<redacted>, sent=" + sent + "]";
  }
}
