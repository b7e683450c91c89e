package io.formation.examples.sandbox;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;

/**
 * A request the sandbox received, kept for assertions.
 *
 * <pre>{@code
 * RecordedRequest last = sandbox.requests().get(sandbox.requests().size() - 1);
 * assertThat(last.method()).isEqualTo("PUT");
 * assertThat(last.header("Authorization")).contains("Bearer sandbox-token");
 * }</pre>
 *
 * @param method the HTTP method, such as {@code "GET"}
 * @param path the request target as received: the raw path and, when present, {@code "?"} and the
 *     raw (still percent-encoded) query, such as {@code "/v1/teams?page%5Bsize%5D=10"}
 * @param headers the request headers, names in lower case, values in the order received
 * @param body the request body decoded as UTF-8; empty when there was none
 */
public record RecordedRequest(
    String method, String path, Map<String, List<String>> headers, String body) {

  /** Checks the fields and makes the headers immutable with lower-case names. */
  public RecordedRequest {
    Objects.requireNonNull(method, "method");
    Objects.requireNonNull(path, "path");
    Objects.requireNonNull(body, "body");
    Map<String, List<String>> lowerCase = new TreeMap<>();
    Objects.requireNonNull(headers, "headers")
        .forEach(
            (name, values) ->
                lowerCase
                    .computeIfAbsent(name.toLowerCase(Locale.ROOT), k -> new ArrayList<>())
                    .addAll(values));
    lowerCase.replaceAll((name, values) -> List.copyOf(values));
    headers = Collections.unmodifiableMap(lowerCase);
  }

  /** Returns the first value of a header, looked up without regard to case. */
  public Optional<String> header(String name) {
    List<String> values = headers.get(name.toLowerCase(Locale.ROOT));
    return values == null || values.isEmpty() ? Optional.empty() : Optional.of(values.get(0));
  }

  /** Returns the raw path without the query. */
  public String pathWithoutQuery() {
    int question = path.indexOf('?');
    return question < 0 ? path : path.substring(0, question);
  }
}
