package io.formation.sandbox;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.TreeMap;

/**
 * A request a {@link FormationSandbox} received and what it did with it, kept for assertions. Named
 * apart from mockwebserver3's {@code RecordedRequest}, which the same tests often import.
 * Immutable. The {@code Authorization} header is never kept verbatim: its value reads {@value
 * #REDACTED}, and {@link #authorized()} says whether it carried the sandbox's bearer token.
 *
 * <pre>{@code
 * List<SandboxRequest> creates =
 *     sandbox.requests().stream()
 *         .filter(r -> r.method().equals("POST") && r.path().equals("/v1/document_sets"))
 *         .toList();
 * assertThat(creates).hasSize(1);                       // the client did not re-send a create
 * assertThat(creates.get(0).authorized()).isTrue();
 * assertThat(creates.get(0).status()).hasValue(201);
 * }</pre>
 */
public final class SandboxRequest {

  /** What an {@code Authorization} header's value reads in a recording. */
  public static final String REDACTED = "<redacted>";

  /** A failure the sandbox injected instead of answering normally; see {@link Faults}. */
  public enum Fault {
    /** Answered {@code 429 Too Many Requests} with a {@code Retry-After} header, not processed. */
    RATE_LIMITED,
    /** Answered {@code 503 Service Unavailable}, not processed. */
    UNAVAILABLE,
    /** Connection closed without a response; {@link #processed()} says if it took effect first. */
    DROPPED
  }

  private final long sequence;
  private final Instant receivedAt;
  private final String method;
  private final String path;
  private final String rawQuery;
  private final Map<String, List<String>> query;
  private final Map<String, List<String>> headers;
  private final boolean authorized;
  private final String body;
  private final int status;
  private final Fault fault;
  private final boolean processed;

  SandboxRequest(
      long sequence,
      Instant receivedAt,
      String method,
      String path,
      String rawQuery,
      Map<String, List<String>> query,
      Map<String, List<String>> headers,
      boolean authorized,
      String body,
      int status,
      Fault fault,
      boolean processed) {
    this.sequence = sequence;
    this.receivedAt = Objects.requireNonNull(receivedAt, "receivedAt");
    this.method = Objects.requireNonNull(method, "method");
    this.path = Objects.requireNonNull(path, "path");
    this.rawQuery = rawQuery;
    this.query = copy(query, false);
    this.headers = copy(headers, true);
    this.authorized = authorized;
    this.body = Objects.requireNonNull(body, "body");
    this.status = status;
    this.fault = fault;
    this.processed = processed;
  }

  private static Map<String, List<String>> copy(Map<String, List<String>> map, boolean headers) {
    Map<String, List<String>> copy = headers ? new TreeMap<>() : new LinkedHashMap<>();
    map.forEach(
        (name, values) -> {
          String key = headers ? name.toLowerCase(Locale.ROOT) : name;
          List<String> kept = copy.computeIfAbsent(key, k -> new ArrayList<>());
          for (String value : values) {
            kept.add(headers && key.equals("authorization") ? REDACTED : value);
          }
        });
    copy.replaceAll((name, values) -> List.copyOf(values));
    return Collections.unmodifiableMap(copy);
  }

  /** Returns the position of this request among all the sandbox received, from 0. */
  public long sequence() {
    return sequence;
  }

  /** Returns when the request arrived, by the sandbox's clock. */
  public Instant receivedAt() {
    return receivedAt;
  }

  /** Returns the HTTP method, such as {@code "GET"}. */
  public String method() {
    return method;
  }

  /** Returns the raw (still percent-encoded) path without the query, such as {@code /v1/teams}. */
  public String path() {
    return path;
  }

  /**
   * Returns the request target as sent: the raw path and, when there was a query, {@code "?"} and
   * the raw query, such as {@code /v1/teams?page%5Bsize%5D=10}.
   */
  public String target() {
    return rawQuery == null ? path : path + "?" + rawQuery;
  }

  /** Returns the decoded query parameters in the order sent, such as {@code page[size]=[10]}. */
  public Map<String, List<String>> query() {
    return query;
  }

  /**
   * Returns the request headers, names in lower case; the {@code authorization} value is {@value
   * #REDACTED}.
   */
  public Map<String, List<String>> headers() {
    return headers;
  }

  /** Returns the first value of a header, looked up without regard to case. */
  public Optional<String> header(String name) {
    List<String> values = headers.get(name.toLowerCase(Locale.ROOT));
    return values == null || values.isEmpty() ? Optional.empty() : Optional.of(values.get(0));
  }

  /** Returns whether the request carried {@code Authorization: Bearer <the sandbox's token>}. */
  public boolean authorized() {
    return authorized;
  }

  /** Returns the request body decoded as UTF-8; empty when there was none. */
  public String body() {
    return body;
  }

  /** Returns the status code answered, or empty when the connection was dropped instead. */
  public OptionalInt status() {
    return status == 0 ? OptionalInt.empty() : OptionalInt.of(status);
  }

  /** Returns the fault injected instead of a normal answer, if any. */
  public Optional<Fault> fault() {
    return Optional.ofNullable(fault);
  }

  /**
   * Returns whether the sandbox acted on the request: true for every request answered normally
   * (even with an error status), false for rate-limited and unavailable ones, and for dropped ones
   * whether they took effect before the connection was closed.
   */
  public boolean processed() {
    return processed;
  }

  @Override
  public String toString() {
    String outcome =
        fault == null
            ? Integer.toString(status)
            : fault + (fault == Fault.DROPPED ? (processed ? " after processing" : "") : "");
    return "SandboxRequest[#" + sequence + " " + method + " " + target() + " -> " + outcome + "]";
  }
}
