package io.formation.sdk.internal.transport;

import io.formation.sdk.internal.guards.Origins;
import java.util.Map;
import java.util.Set;
import okhttp3.Call;
import okhttp3.HttpUrl;
import okhttp3.Response;

/** One attempt, found by its call: its token, origin, headers, and what it sent. */
final class Attempt {
  private final Call call;
  private final HttpUrl url;
  private final Set<String> callerHeaders;
  private final Map<String, String> traceHeaders;
  private volatile String token;
  private volatile boolean sent;
  private volatile Response kept;
  private volatile Thread blocked;

  Attempt(Call call, HttpUrl url, Set<String> callerHeaders, Map<String, String> traceHeaders) {
    this.call = call;
    this.url = url;
    this.callerHeaders = Set.copyOf(callerHeaders);
    this.traceHeaders = traceHeaders;
  }

  Call call() {
    return call;
  }

  /** Whether the URL is on another origin than the one the call was made for. */
  boolean crossesOrigin(HttpUrl url) {
    return !Origins.sameOrigin(this.url, url);
  }

  Set<String> callerHeaders() {
    return callerHeaders;
  }

  /** The trace's headers (a W3C {@code traceparent}), for the service's origins only. */
  Map<String, String> traceHeaders() {
    return traceHeaders;
  }

  /** Set by {@link AttemptInterceptor} on the thread that runs the attempt. */
  void token(String token) {
    this.token = token;
  }

  /** The token, or null when the attempt never got as far as fetching one. */
  String token() {
    return token;
  }

  void markSent() {
    sent = true;
  }

  boolean wasSent() {
    return sent;
  }

  /** Keeps an answer (its body already buffered) that OkHttp may follow up on its own. */
  void keep(Response response) {
    kept = response;
  }

  /** The kept answer, or null. */
  Response kept() {
    return kept;
  }

  /** Marks a blocking attempt with the thread blocked on it, for the check of interrupts. */
  void blocking(Thread thread) {
    blocked = thread;
  }

  /** The thread blocked on this attempt; null for an async one. */
  Thread blocked() {
    return blocked;
  }

  @Override
  public String toString() {
    return "Attempt[token=<redacted>, sent=" + sent + "]";
  }
}
