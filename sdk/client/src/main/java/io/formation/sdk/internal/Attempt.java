package io.formation.sdk.internal;

import java.util.Set;
import okhttp3.HttpUrl;
import okhttp3.Response;

/**
 * Tagged on each request the transport sends. Carries the token to {@link NetworkInterceptor}, so
 * it never sits in a header where other interceptors or logs could see it; remembers the origin the
 * call was made for and the headers the caller added, so a redirect to another origin carries none
 * of them; records whether the request reached the network, so a failure can tell whether anything
 * was written; and keeps an answer OkHttp might replay by itself, so that answer stands instead.
 */
final class Attempt {
  private final String origin;
  private final Set<String> callerHeaders;
  private volatile String token;
  private volatile boolean sent;
  private volatile Response kept;

  /**
   * @param url the URL the call was made for
   * @param callerHeaders the names of the headers the caller added (RequestOptions)
   */
  Attempt(HttpUrl url, Set<String> callerHeaders) {
    this.origin = Origins.origin(url);
    this.callerHeaders = Set.copyOf(callerHeaders);
  }

  /** Whether the URL is on another origin than the one the call was made for. */
  boolean crossesOrigin(HttpUrl url) {
    return !origin.equals(Origins.origin(url));
  }

  Set<String> callerHeaders() {
    return callerHeaders;
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

  @Override
  public String toString() {
    return "Attempt[token=<redacted>, sent=" + sent + "]";
  }
}
