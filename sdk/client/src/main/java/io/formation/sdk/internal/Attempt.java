package io.formation.sdk.internal;

/**
 * Tagged on each request the transport sends. Carries the token to {@link NetworkInterceptor}, so
 * it never sits in a header where other interceptors or logs could see it, and records whether the
 * request reached the network, so a failure can tell whether anything was written.
 */
final class Attempt {
  private final String token;
  private volatile boolean sent;

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

  @Override
  public String toString() {
    return "Attempt[token=<redacted>, sent=" + sent + "]";
  }
}
