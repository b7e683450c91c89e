package io.formation.sdk.internal.transport;

import io.formation.sdk.internal.guards.Redaction;
import java.io.IOException;
import okhttp3.Headers;
import okhttp3.Response;
import okhttp3.ResponseBody;
import okio.Buffer;
import okio.BufferedSource;

/** What one attempt produced: the answer as read, or its failure, already redacted. */
public record Outcome(
    int statusCode,
    Headers headers,
    byte[] body,
    boolean tooLarge,
    IOException failure,
    boolean requestSent,
    boolean stopped,
    String token) {

  /** Reads the response, at most {@code limit} bytes of its body. */
  static Outcome of(Attempt attempt, Response response, long limit) {
    Response answer = attempt.kept != null ? attempt.kept : response;
    try (ResponseBody body = answer.body()) {
      BufferedSource source = body.source();
      boolean tooLarge = source.request(limit + 1);
      Buffer buffer = source.getBuffer();
      byte[] bytes = buffer.readByteArray(Math.min(buffer.size(), limit));
      return new Outcome(
          answer.code(), answer.headers(), bytes, tooLarge, null, true, false, attempt.token);
    } catch (IOException e) {
      return failed(attempt, e, limit);
    }
  }

  /** The failure of an attempt; an answer the network interceptor kept stands in for a replay. */
  static Outcome failed(Attempt attempt, IOException failure, long limit) {
    if (attempt.kept != null && !(failure instanceof FinalFailure)) {
      return of(attempt, attempt.kept, limit);
    }
    String token = attempt.token;
    boolean stopped = Thread.currentThread().isInterrupted();
    return failure(Redaction.scrub(failure, token), attempt.sent, stopped, token);
  }

  static Outcome notSent(IOException reason) {
    return failure(reason, false, false, null);
  }

  private static Outcome failure(IOException failure, boolean sent, boolean stopped, String token) {
    return new Outcome(0, Headers.of(), new byte[0], false, failure, sent, stopped, token);
  }

  boolean isSuccess() {
    return failure == null && statusCode >= 200 && statusCode < 300;
  }

  /** The text through {@link Redaction}, with this attempt's token. */
  String redact(String text) {
    return Redaction.redact(text, token);
  }
}
