package io.formation.sdk.internal;

import okhttp3.Response;

/**
 * Tagged on each request the transport sends. Carries the token to {@link NetworkInterceptor}, so
 * it never sits in a header where other interceptors or logs could see it; records whether the
 * request reached the network, so a failure can tell whether anything was written; and keeps an
 * answer OkHttp might replay by itself, so that answer stands instead.
 */
final class Attempt {
  private final String token;
  private volatile boolean sent;
  private volatile Response kept;

  Attempt(String token) {
    this.token = token;
  }

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
