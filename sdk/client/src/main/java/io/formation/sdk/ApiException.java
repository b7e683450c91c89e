package io.formation.sdk;

import io.formation.sdk.internal.guards.Redaction;
import io.formation.sdk.internal.transport.RequestIds;
import java.util.List;
import java.util.Optional;
import okhttp3.Headers;

/**
 * The service answered with an HTTP error status. Carries everything the service sent: status,
 * headers, raw body, and the parsed JSON:API errors when the body is an {@code errors} document.
 * Subclasses name the statuses a caller typically handles; see the README for the full table.
 *
 * <pre>{@code
 * catch (ApiException e) {
 *   log.warn("{} {}: {}", e.statusCode(), e.errors(), e.body());
 * }
 * }</pre>
 */
public class ApiException extends FormationException {
  private static final long serialVersionUID = 1L;

  /** The HTTP method of the failed call. */
  private final String method;

  /** The URL of the failed call, query included. */
  private final String url;

  /** The HTTP status code. */
  private final int statusCode;

  private final transient Headers headers;

  /** The raw response body, empty if there was none. */
  private final String body;

  private final transient List<ApiError> errors;

  ApiException(Answer answer) {
    super(describe(answer));
    this.method = answer.method();
    this.url = answer.url();
    this.statusCode = answer.statusCode();
    this.headers = answer.headers();
    this.body = answer.body();
    this.errors = List.copyOf(answer.errors());
  }

  /** What an error answer carries, in one parameter for every exception type's constructor. */
  record Answer(
      String method,
      String url,
      int statusCode,
      Headers headers,
      String body,
      List<ApiError> errors) {}

  /** {@return the HTTP method of the failed call} */
  public String method() {
    return method;
  }

  /** {@return the URL of the failed call, query included (the message leaves the query out)} */
  public String url() {
    return url;
  }

  /** {@return the HTTP status code} */
  public int statusCode() {
    return statusCode;
  }

  /** {@return the response headers} */
  public Headers headers() {
    return headers == null ? Headers.of() : headers;
  }

  /** {@return the raw response body, empty if there was none} */
  public String body() {
    return body;
  }

  /** {@return the JSON:API errors of the body; empty if the body was not an errors document} */
  public List<ApiError> errors() {
    return errors == null ? List.of() : errors;
  }

  /**
   * {@return the service's id for the request ({@code Request-Id} or {@code X-Request-Id}), if it
   * sent one, which its support asks for; also in the message}
   */
  public Optional<String> requestId() {
    return RequestIds.of(headers());
  }

  /** {@return the first error's detail (or title), if the body carried any} */
  public Optional<String> detail() {
    return errors().stream().findFirst().map(ApiError::message);
  }

  private static String describe(Answer answer) {
    List<ApiError> errors = answer.errors();
    StringBuilder message = new StringBuilder();
    // The query can hold a cursor or an action url's signature: url() has it, log lines do not.
    message.append(answer.method()).append(' ').append(Redaction.withoutQuery(answer.url()));
    message.append(" returned ").append(answer.statusCode());
    if (!errors.isEmpty()) {
      message.append(": ").append(errors.get(0).message());
      if (errors.size() > 1) {
        message.append(" (and ").append(errors.size() - 1).append(" more)");
      }
    } else if (!answer.body().isBlank()) {
      message.append(": ").append(snippet(answer.body()));
    }
    RequestIds.of(answer.headers())
        .ifPresent(id -> message.append(" [request id ").append(id).append(']'));
    return message.toString();
  }

  /** A single line of at most 200 characters, so an HTML error page can't flood a log line. */
  static String snippet(String text) {
    String line = text.strip().replaceAll("\\s+", " ");
    return line.length() <= 200 ? line : line.substring(0, 200) + "...";
  }
}
