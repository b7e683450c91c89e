package io.formation.sdk.internal.transport;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import io.formation.sdk.internal.Port;
import io.formation.sdk.internal.json.Wire;
import io.formation.sdk.internal.limits.RetryPolicy;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.function.Function;

/** Turns the last outcome into the result, or the exception. */
record Responses(RetryPolicy retryPolicy, Port port, long maxResponseBytes) {
  /** The most of an error body an exception keeps. */
  static final int KEPT_BODY_CHARS = 64 * 1024;

  /** The result read from a successful outcome, else the exception for it. */
  <T> T finish(
      ApiRequest request,
      int attempts,
      Outcome outcome,
      Function<JsonResponse, T> reader,
      boolean closed) {
    IOException failure = outcome.failure();
    if (failure != null) {
      if (closed) {
        throw Port.illegalState(
            "The FormationClient was closed during " + describe(request), failure);
      }
      if (failure instanceof FinalFailure last) {
        throw last.exception();
      }
      throw outcome.stopped()
          ? port.failure("Interrupted during " + describe(request), failure)
          : network(request, attempts, outcome);
    }
    if (!outcome.isSuccess()) {
      throw port.forStatus(
          request,
          outcome.statusCode(),
          outcome.headers(),
          keptBody(outcome),
          retryPolicy.retryAfter(outcome.headers()));
    }
    if (outcome.tooLarge()) {
      throw invalid(
          request,
          outcome,
          "a body larger than the limit of " + maxResponseBytes + " bytes (maxResponseBytes)");
    }
    JsonNode body = parse(request, outcome);
    try {
      return reader.apply(new JsonResponse(outcome.statusCode(), outcome.headers(), body));
    } catch (Wire.ShapeException e) {
      String what = body.isMissingNode() ? "an empty body" : "an unexpected body";
      throw invalid(request, outcome, what + ": " + e.getMessage());
    }
  }

  private RuntimeException network(ApiRequest request, int attempts, Outcome outcome) {
    String message =
        describe(request)
            + " failed"
            + (attempts > 1 ? " after " + attempts + " attempts" : "")
            + ": "
            + outcome.failure()
            + (outcome.requestSent()
                ? " (the request was sent: the service may have acted on it)"
                : " (nothing reached the service: trying again is safe)");
    return port.network(outcome.redact(message), outcome.failure(), outcome.requestSent());
  }

  private JsonNode parse(ApiRequest request, Outcome outcome) {
    if (outcome.body().length == 0) {
      return MissingNode.getInstance();
    }
    try {
      return Wire.readTree(outcome.body());
    } catch (JsonProcessingException e) {
      // Jackson's message quotes the body: not kept as the cause, and redacted below.
      String type = outcome.headers().get("Content-Type");
      throw invalid(
          request,
          outcome,
          "a body that is not valid JSON ("
              + (type == null ? "no content type" : type)
              + ", "
              + outcome.body().length
              + " bytes): "
              + e.getOriginalMessage());
    } catch (IOException e) {
      throw invalid(request, outcome, "an unreadable body: " + e.getMessage());
    }
  }

  private RuntimeException invalid(ApiRequest request, Outcome outcome, String what) {
    return port.invalidResponse(
        outcome.redact(describe(request) + " returned " + outcome.statusCode() + " with " + what),
        outcome.statusCode(),
        keptBody(outcome));
  }

  /** The body as an exception keeps it: redacted, and cut at {@link #KEPT_BODY_CHARS}. */
  private static String keptBody(Outcome outcome) {
    String body = outcome.redact(new String(outcome.body(), StandardCharsets.UTF_8));
    return body.length() <= KEPT_BODY_CHARS && !outcome.tooLarge()
        ? body
        : body.substring(0, Math.min(body.length(), KEPT_BODY_CHARS)) + "...(truncated)";
  }

  /** What was called, for messages; without the query, as the exceptions do. */
  static String describe(ApiRequest request) {
    return request.method() + " " + request.urlWithoutQuery();
  }
}
