package io.formation.sdk;

import io.formation.sdk.internal.Port;
import io.formation.sdk.internal.guards.Checks;
import io.formation.sdk.internal.guards.Timeout;
import io.formation.sdk.internal.transport.CallOptions;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;

/**
 * Settings for some calls only: a timeout, extra headers, how many retries. Immutable; a service's
 * {@code withOptions} returns a view whose every call, blocking or async, uses them.
 *
 * <pre>{@code
 * RequestOptions options = RequestOptions.builder()
 *     .timeout(Duration.ofSeconds(5))
 *     .header("X-Correlation-Id", correlationId)
 *     .build();
 * DocumentSet set = client.documentSets().withOptions(options).create(DocumentSets.DELAWARE_CORPORATION);
 * }</pre>
 *
 * <p>No idempotency key: a view's options go with every call, and a key belongs to one create (see
 * {@link CreateDocumentSetParams#withIdempotencyKey}). The headers go to the service's origin only,
 * never to another across a redirect.
 */
public final class RequestOptions {
  /**
   * Headers the SDK or its HTTP stack sets itself: given here they would break the answer (an
   * {@code Accept-Encoding} turns off transparent gzip, a {@code Range} cuts the body) or the
   * connection, so they cannot be.
   */
  private static final Set<String> OWNED =
      Set.of(
          ("authorization proxy-authorization user-agent accept accept-encoding content-type"
                  + " content-length content-encoding transfer-encoding te trailer upgrade host"
                  + " connection keep-alive proxy-connection expect range if-range idempotency-key")
              .split(" "));

  private static final RequestOptions NONE = builder().build();

  private final CallOptions call;

  private RequestOptions(Builder builder) {
    this.call =
        new CallOptions(
            builder.headers,
            Optional.ofNullable(builder.timeout),
            builder.maxRetries == null ? OptionalInt.empty() : OptionalInt.of(builder.maxRetries));
  }

  /** The settings as the transport takes them. */
  CallOptions call() {
    return call;
  }

  /** {@return no per-call settings: the client's own apply} */
  public static RequestOptions none() {
    return NONE;
  }

  /** {@return a builder with nothing set} */
  public static Builder builder() {
    return new Builder();
  }

  /** {@return each attempt's timeout, if set, instead of the client's {@code callTimeout}} */
  public Optional<Duration> timeout() {
    return call.timeout();
  }

  /** {@return how many times a failed call may be retried, if set, instead of maxRetries} */
  public OptionalInt maxRetries() {
    return call.maxRetries();
  }

  /** {@return the headers sent with each request besides the SDK's own, by name} */
  public Map<String, String> headers() {
    return call.headers();
  }

  /** Shows the settings, the header values left out: they may be secrets. */
  @Override
  public String toString() {
    Object maxRetries = call.maxRetries().isPresent() ? call.maxRetries().getAsInt() : null;
    return String.format(
        "RequestOptions{timeout=%s, maxRetries=%s, headers=%s}",
        call.timeout().orElse(null), maxRetries, call.headers().keySet());
  }

  /** Builds {@link RequestOptions}; every setter checks its value. */
  public static final class Builder {
    private Duration timeout;
    private Integer maxRetries;
    private final Map<String, String> headers = new LinkedHashMap<>();

    private Builder() {}

    /**
     * The timeout of each attempt; positive, kept in whole milliseconds (rounded up).
     *
     * @param timeout the timeout
     * @return this builder
     * @throws IllegalArgumentException if not positive or longer than {@code Integer.MAX_VALUE} ms
     */
    public Builder timeout(Duration timeout) {
      this.timeout = Timeout.call("timeout", timeout).value();
      return this;
    }

    /**
     * How many times a failed call may be retried; zero disables retries.
     *
     * @param maxRetries the number
     * @return this builder
     * @throws IllegalArgumentException if negative
     */
    public Builder maxRetries(int maxRetries) {
      this.maxRetries = Checks.maxRetries(maxRetries);
      return this;
    }

    /**
     * A header to send; a second value for the same name replaces the first.
     *
     * @param name the header's name
     * @param value its value
     * @return this builder
     * @throws IllegalArgumentException if the name is not a header name, is one the SDK or the HTTP
     *     stack sets itself (such as {@code Authorization}, {@code Accept-Encoding}, {@code
     *     Range}), or the value is not a valid header value (the value is never part of the
     *     message)
     */
    public Builder header(String name, String value) {
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(value, "value");
      if (!Checks.isToken(name)) {
        throw Port.invalid("Not a header name: " + name);
      }
      if (OWNED.contains(name.toLowerCase(Locale.ROOT))) {
        throw Port.invalid(
            name
                + " is set by the SDK or its HTTP stack and cannot be given per call"
                + (name.equalsIgnoreCase("idempotency-key")
                    ? ": the SDK gives each create a key of its own"
                    : ""));
      }
      int bad = Checks.invalidHeaderCharAt(value);
      if (bad >= 0) {
        throw Port.invalid(
            "The value of header " + name + " has a character not allowed at index " + bad);
      }
      headers.put(name, value);
      return this;
    }

    /** {@return the options} */
    public RequestOptions build() {
      return new RequestOptions(this);
    }
  }
}
