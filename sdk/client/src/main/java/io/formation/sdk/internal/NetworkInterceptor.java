package io.formation.sdk.internal;

import java.io.IOException;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.util.Set;
import okhttp3.Connection;
import okhttp3.Interceptor;
import okhttp3.Protocol;
import okhttp3.Request;
import okhttp3.Response;
import okhttp3.ResponseBody;

/**
 * Runs for every request that actually goes on the wire, redirects included, as the last network
 * interceptor: the token is added only for a trusted origin, and no other interceptor sees it. It
 * also owns the rules about what reaches the service: a request whose origin was paused while it
 * waited in OkHttp's queue, or that would go out on a connection the server already closed, is
 * stopped before anything is written; and OkHttp's own replays of an answer (a 503 with {@code
 * Retry-After: 0}, a 408, a 421) never reach the wire, as every attempt is the retry policy's to
 * decide.
 */
final class NetworkInterceptor implements Interceptor {
  private static final Set<Integer> REPLAYED_BY_OKHTTP = Set.of(408, 421, 503);

  private final Origins origins;
  private final Throttle throttle;
  private final long maxResponseBytes;

  NetworkInterceptor(Origins origins, Throttle throttle, long maxResponseBytes) {
    this.origins = origins;
    this.throttle = throttle;
    this.maxResponseBytes = maxResponseBytes;
  }

  @Override
  public Response intercept(Chain chain) throws IOException {
    Request request = chain.request();
    Attempt attempt = request.tag(Attempt.class);
    if (attempt == null) {
      return chain.proceed(request);
    }
    if (attempt.kept() != null) {
      throw new ReplayRefused();
    }
    if (throttle.isPaused(request.url())) {
      throw new PausedBeforeSending();
    }
    if (!RetryPolicy.isIdempotent(request.method()) && isClosedByPeer(chain.connection())) {
      throw new StaleConnection();
    }
    attempt.markSent();
    Request.Builder sent = request.newBuilder().removeHeader("Authorization");
    if (origins.isTrusted(request.url())) {
      sent.header("Authorization", "Bearer " + attempt.token());
    }
    // The response carries the request without the token, so nothing up the chain (a caller's
    // logging interceptor, say) can read it back from response.request().
    Response response = chain.proceed(sent.build()).newBuilder().request(request).build();
    if (REPLAYED_BY_OKHTTP.contains(response.code())) {
      // OkHttp drops this answer if it follows up on it: keep a buffered copy to stand instead.
      ResponseBody buffered = response.peekBody(maxResponseBytes + 1);
      response.close();
      response = response.newBuilder().body(buffered).build();
      attempt.keep(response);
    }
    return response;
  }

  /**
   * Whether the server closed this idle HTTP/1 connection: a read of at most a millisecond finds
   * its end (or a reset) instead of timing out. OkHttp checks this only after 10 s of idleness; a
   * server with a shorter keep-alive would otherwise swallow a POST whose fate nobody then knows.
   * HTTP/2 connections are skipped: their frames must not be read from here, and a refused stream
   * there fails before anything is sent anyway.
   */
  private static boolean isClosedByPeer(Connection connection) {
    if (connection == null
        || connection.protocol() != Protocol.HTTP_1_1
            && connection.protocol() != Protocol.HTTP_1_0) {
      return false;
    }
    Socket socket = connection.socket();
    try {
      int timeout = socket.getSoTimeout();
      try {
        socket.setSoTimeout(1);
        // An idle connection has nothing to read: any byte at all means it is unusable.
        socket.getInputStream().read();
      } finally {
        socket.setSoTimeout(timeout);
      }
    } catch (SocketTimeoutException alive) {
      return false;
    } catch (IOException closed) {
      // Reset, or closed under us: unusable all the same.
    }
    try {
      socket.close();
    } catch (IOException ignored) {
      // It is being dropped anyway.
    }
    return true;
  }

  /** OkHttp tried to replay an answer on its own; the kept answer stands instead. */
  static final class ReplayRefused extends IOException {
    private static final long serialVersionUID = 1L;

    ReplayRefused() {
      super("OkHttp's own follow-up was refused; the first answer stands");
    }
  }

  /** The origin was paused while the call waited in OkHttp's queue; nothing was sent. */
  static final class PausedBeforeSending extends IOException {
    private static final long serialVersionUID = 1L;

    PausedBeforeSending() {
      super("the service's Retry-After paused calls while this one waited to go; nothing was sent");
    }
  }

  /** The pooled connection was closed by the server; nothing was written to it. */
  static final class StaleConnection extends IOException {
    private static final long serialVersionUID = 1L;

    StaleConnection() {
      super("the server had closed the pooled connection; nothing was sent on it");
    }
  }
}
