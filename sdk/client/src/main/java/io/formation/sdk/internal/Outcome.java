package io.formation.sdk.internal;

import java.io.IOException;
import okhttp3.Call;
import okhttp3.Headers;
import okhttp3.Response;
import okhttp3.ResponseBody;

/**
 * What one attempt produced: a fully read response, or the I/O failure that ended it.
 *
 * @param requestSent whether the request reached the network, so the service may have acted on it
 * @param stopped whether the calling thread was interrupted: such a failure is final. (Not a
 *     cancelled call: OkHttp cancels a call whose callTimeout ran out, and that one may retry.)
 * @param token the token this attempt carried, so error text can be redacted
 */
record Outcome(
    int statusCode,
    Headers headers,
    byte[] body,
    IOException failure,
    boolean requestSent,
    boolean stopped,
    String token) {

  static Outcome of(Call call, Response response) {
    try (ResponseBody body = response.body()) {
      return new Outcome(
          response.code(), response.headers(), body.bytes(), null, true, false, token(call));
    } catch (IOException e) {
      return failed(call, e);
    }
  }

  static Outcome failed(Call call, IOException failure) {
    Attempt attempt = call.request().tag(Attempt.class);
    boolean sent = attempt == null || attempt.wasSent();
    boolean stopped = Thread.currentThread().isInterrupted();
    return new Outcome(0, Headers.of(), new byte[0], failure, sent, stopped, token(call));
  }

  private static String token(Call call) {
    Attempt attempt = call.request().tag(Attempt.class);
    return attempt == null ? null : attempt.token();
  }

  boolean isSuccess() {
    return failure == null && statusCode >= 200 && statusCode < 300;
  }

  /** The text with this attempt's token replaced, for bodies a service may echo it in. */
  String redact(String text) {
    return token == null || token.isEmpty() ? text : text.replace(token, "<redacted>");
  }
}
