package io.formation.sdk.internal.transport;

import java.util.Optional;
import okhttp3.Headers;

/** The id a service gives a request, which its support asks for. */
public final class RequestIds {
  private RequestIds() {}

  /** The {@code Request-Id} or {@code X-Request-Id} header, if the answer has one. */
  public static Optional<String> of(Headers headers) {
    String id = headers.get("Request-Id");
    if (id == null) {
      id = headers.get("X-Request-Id");
    }
    return id == null || id.isBlank() ? Optional.empty() : Optional.of(id);
  }
}
