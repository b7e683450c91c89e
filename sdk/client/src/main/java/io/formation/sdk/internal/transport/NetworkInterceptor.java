package io.formation.sdk.internal.transport;

import io.formation.sdk.internal.guards.Origins;
import io.formation.sdk.internal.limits.RetryPolicy;
import java.io.IOException;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.util.Map;
import okhttp3.Call;
import okhttp3.Connection;
import okhttp3.Interceptor;
import okhttp3.MediaType;
import okhttp3.Protocol;
import okhttp3.Request;
import okhttp3.RequestBody;
import okhttp3.Response;
import okhttp3.ResponseBody;
import okio.BufferedSink;

/** Every request on the wire, redirects included: the one place OkHttp is tamed. */
record NetworkInterceptor(Map<Call, Attempt> attempts, Origins origins, long maxResponseBytes)
    implements Interceptor {
  private static final MediaType JSON = MediaType.get("application/json; charset=utf-8");

  @Override
  public Response intercept(Chain chain) throws IOException {
    Request request = chain.request();
    Attempt attempt = attempts.get(chain.call());
    if (attempt == null) {
      return chain.proceed(request);
    }
    if (attempt.kept != null) {
      throw new ReplayRefused();
    }
    if (!RetryPolicy.isIdempotent(request.method()) && isClosedByPeer(chain.connection())) {
      throw new StaleConnection();
    }
    attempt.sent = true;
    Request.Builder sent = request.newBuilder();
    if (attempt.crossesOrigin(request.url())) {
      attempt.callerHeaders.forEach(sent::removeHeader);
    }
    // The token and the trace go to the service's origins alone, redirects included.
    if (origins.isTrusted(request.url())) {
      // The trace adds headers, never replaces one the request has (an Idempotency-Key, say).
      attempt.traceHeaders.forEach(
          (name, value) -> {
            if (request.header(name) == null) {
              sent.header(name, value);
            }
          });
      // Last: replaces any Authorization the trace or an interceptor up the chain may have set.
      sent.header("Authorization", "Bearer " + attempt.token);
    } else {
      sent.removeHeader("Authorization");
      attempt.traceHeaders.keySet().forEach(sent::removeHeader);
    }
    // The response carries the request without the token, for whatever is up the chain.
    Response response = chain.proceed(sent.build()).newBuilder().request(request).build();
    if (RetryPolicy.REPLAYS_REFUSED.contains(response.code())) {
      // OkHttp drops this answer if it follows up on it: keep a buffered copy to stand instead.
      ResponseBody buffered = response.peekBody(maxResponseBytes + 1);
      response.close();
      response = response.newBuilder().body(buffered).build();
      attempt.kept = response;
      return response.newBuilder().removeHeader("Retry-After").build();
    }
    return response;
  }

  /** Whether the server closed this idle HTTP/1 connection: a 1 ms read finds out. */
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

  /** The pooled connection was closed by the server; nothing was written to it. */
  static final class StaleConnection extends IOException {
    private static final long serialVersionUID = 1L;

    StaleConnection() {
      super("the server had closed the pooled connection; nothing was sent on it");
    }
  }

  /** A body OkHttp may replay for an idempotent method, else a one-shot one. */
  static RequestBody body(String method, byte[] bytes) {
    if (RetryPolicy.isIdempotent(method)) {
      return RequestBody.create(bytes, JSON);
    }
    return new RequestBody() {
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
    };
  }
}
