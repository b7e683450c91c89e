package io.formation.sdk.internal;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.SocketTimeoutException;
import okhttp3.Headers;
import okhttp3.Response;
import okhttp3.ResponseBody;

/** What one attempt produced: a fully read response, or the I/O failure that ended it. */
record Outcome(
    int statusCode, Headers headers, byte[] body, IOException failure, boolean requestSent) {

  static Outcome of(Response response) {
    try (ResponseBody body = response.body()) {
      return new Outcome(response.code(), response.headers(), body.bytes(), null, true);
    } catch (IOException e) {
      return failed(e, true);
    }
  }

  static Outcome failed(IOException failure, boolean requestSent) {
    return new Outcome(0, Headers.of(), new byte[0], failure, requestSent);
  }

  boolean isSuccess() {
    return failure == null && statusCode >= 200 && statusCode < 300;
  }

  /** The thread was interrupted (not a socket timeout, which shares the exception type). */
  boolean interrupted() {
    return failure instanceof InterruptedIOException && !(failure instanceof SocketTimeoutException)
        || Thread.currentThread().isInterrupted();
  }
}
