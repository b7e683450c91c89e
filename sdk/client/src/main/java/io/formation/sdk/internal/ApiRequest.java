package io.formation.sdk.internal;

import java.util.Objects;
import okhttp3.HttpUrl;

/**
 * One call to the service, before auth and retries.
 *
 * @param method upper-case HTTP method
 * @param url the resolved URL, already checked against the trusted origins
 * @param body JSON body, or null for none
 * @param accept the Accept header
 */
public record ApiRequest(String method, HttpUrl url, byte[] body, String accept) {
  public static final String JSON = "application/json";
  public static final String JSON_API = "application/vnd.api+json";

  /** For endpoints whose envelope the interface leaves open: both are fine. */
  public static final String ANY_JSON = JSON_API + ", " + JSON;

  public ApiRequest {
    Objects.requireNonNull(method, "method");
    Objects.requireNonNull(url, "url");
    Objects.requireNonNull(accept, "accept");
  }

  public static ApiRequest get(HttpUrl url, String accept) {
    return new ApiRequest("GET", url, null, accept);
  }
}
