package io.formation.sdk;

import io.formation.sdk.internal.guards.Checks;
import io.formation.sdk.internal.guards.Timeout;
import io.formation.sdk.internal.time.Sleeper;
import io.formation.sdk.internal.time.Ticker;
import io.formation.sdk.internal.time.Time;
import io.formation.sdk.internal.transport.Version;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.Executor;
import java.util.function.DoubleSupplier;
import okhttp3.OkHttpClient;

/**
 * The entry point of the SDK: a client for the Document Set Formation Service.
 *
 * <pre>{@code
 * try (FormationClient client = FormationClient.builder()
 *     .baseUrl("https://api.example.com")
 *     .accessToken(System.getenv("FORMATION_ACCESS_TOKEN"))
 *     .build()) {
 *   for (Team team : client.teams().list()) {
 *     System.out.println(team.name());
 *   }
 * }
 * }</pre>
 *
 * <h2>Clients should be shared</h2>
 *
 * A client holds a connection pool, a dispatcher and a scheduler; build one per service and reuse
 * it from every thread: it is thread-safe. {@link #close()} releases its threads and connections
 * (those of a caller-supplied {@link OkHttpClient} stay the caller's).
 *
 * <h2>Security</h2>
 *
 * The bearer token goes only to the base URL's origin and to origins trusted with {@link
 * Builder#trustOrigin}, redirects included. Links and action urls from the service are resolved
 * against the base URL and refused with {@link UntrustedOriginException} before anything is sent if
 * they point elsewhere. Plain {@code http} is refused except for loopback hosts unless {@link
 * Builder#allowInsecureHttp} is set, and so is a base URL carrying credentials ({@code
 * user:password@}). The token never appears in {@code toString()}, exception messages or bodies.
 */
public final class FormationClient implements AutoCloseable {
  /** Environment variable read by {@link #fromEnv()} for the base URL. */
  public static final String BASE_URL_ENV = "FORMATION_BASE_URL";

  /** Environment variable read by {@link #fromEnv()} for the access token. */
  public static final String ACCESS_TOKEN_ENV = "FORMATION_ACCESS_TOKEN";

  /** The default of {@link Builder#maxResponseBytes}: 8 MiB. */
  public static final long DEFAULT_MAX_RESPONSE_BYTES = 8L * 1024 * 1024;

  private final Parts parts;

  private FormationClient(Builder builder) {
    this.parts = new Parts(builder);
  }

  /** {@return a builder for a client} */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * {@return a client for the service and token named by the environment variables {@value
   * #BASE_URL_ENV} and {@value #ACCESS_TOKEN_ENV}}
   *
   * @throws IllegalStateException if either is unset or blank
   */
  public static FormationClient fromEnv() {
    return fromEnv(System.getenv());
  }

  static FormationClient fromEnv(Map<String, String> env) {
    return builder()
        .baseUrl(Checks.env(env, BASE_URL_ENV))
        .accessToken(Checks.env(env, ACCESS_TOKEN_ENV))
        .build();
  }

  /** {@return the version of this SDK, such as {@code 0.1.0}; also in its jar's manifest} */
  public static String version() {
    return Version.SDK;
  }

  /** {@return the teams the token can act for} */
  public Teams teams() {
    return parts.teams;
  }

  /** {@return document sets: create, read, wait for completion} */
  public DocumentSets documentSets() {
    return parts.documentSets;
  }

  /** {@return forms and their actions} */
  public Forms forms() {
    return parts.forms;
  }

  /** {@return the tracer the client was built with, if any, for code acting for the client} */
  public Optional<FormationTracer> tracer() {
    return parts.events.tracer();
  }

  /**
   * Releases the client's threads and idle connections; later calls fail with {@link
   * IllegalStateException}. Calls in flight are cancelled. Idempotent.
   */
  @Override
  public void close() {
    parts.close();
  }

  /** Shows the base URL; never the token. */
  @Override
  public String toString() {
    return "FormationClient{baseUrl=" + parts.baseUrl + "}";
  }

  /**
   * Configures a {@link FormationClient}: a base URL and a token, or a {@link #tokenProvider
   * provider} of tokens that rotate, are required; everything else has a default.
   */
  public static final class Builder {
    String baseUrl;
    String accessToken;
    TokenProvider tokenProvider;
    Duration connectTimeout = Duration.ofSeconds(10);
    Duration readTimeout = Duration.ofSeconds(30);
    Duration writeTimeout = Duration.ofSeconds(30);
    Duration callTimeout = Duration.ofSeconds(60);
    int maxRetries = 2;
    Duration maxRetryAfter = Duration.ofSeconds(60);
    long maxResponseBytes = DEFAULT_MAX_RESPONSE_BYTES;
    FormationListener listener;
    FormationTracer tracer;
    double budgetPerSecond;
    int budgetBurst;
    SharedLimit sharedLimit;
    OkHttpClient httpClient;
    Executor completionExecutor;
    final List<String> trustedOrigins = new ArrayList<>();
    boolean allowInsecureHttp;
    String userAgentProduct;
    Clock clock = Clock.systemUTC();
    Ticker ticker = Time.SYSTEM_TICKER;
    Sleeper sleeper;
    DoubleSupplier random = Time.THREAD_RANDOM;

    private Builder() {}

    /**
     * The service's base URL, such as {@code https://api.example.com}; endpoints are {@code
     * <baseUrl>/v1/...}. A path prefix is kept. Plain http is refused unless the host is loopback
     * or {@link #allowInsecureHttp} is set (checked on {@link #build()}).
     *
     * @param baseUrl the base URL, without {@code /v1}
     * @return this builder
     */
    public Builder baseUrl(String baseUrl) {
      this.baseUrl = Objects.requireNonNull(baseUrl, "baseUrl");
      return this;
    }

    /**
     * A fixed access token.
     *
     * @param accessToken the token, without the {@code Bearer} prefix
     * @return this builder
     */
    public Builder accessToken(String accessToken) {
      this.accessToken = Checks.notBlank("accessToken", accessToken);
      this.tokenProvider = Tokens.fixed(accessToken);
      return this;
    }

    /**
     * A source of access tokens, asked before each request, for tokens that rotate. A token that is
     * not a valid header value fails that call with a {@link FormationException}, nothing sent.
     *
     * @param tokenProvider asked for the token before each request
     * @return this builder
     */
    public Builder tokenProvider(TokenProvider tokenProvider) {
      this.accessToken = null;
      this.tokenProvider = Objects.requireNonNull(tokenProvider, "tokenProvider");
      return this;
    }

    /**
     * Timeout for a connection; default 10 s; zero for none. Timeouts are whole milliseconds: a
     * shorter positive one is rounded up to 1 ms, never down to "none".
     *
     * @param timeout the timeout; zero for none
     * @return this builder
     * @throws IllegalArgumentException if negative or longer than {@code Integer.MAX_VALUE} ms
     */
    public Builder connectTimeout(Duration timeout) {
      this.connectTimeout = Timeout.http("connectTimeout", timeout).value();
      return this;
    }

    /**
     * Timeout between two reads of a response; default 30 s; as {@link #connectTimeout}.
     *
     * @param timeout the timeout; zero for none
     * @return this builder
     */
    public Builder readTimeout(Duration timeout) {
      this.readTimeout = Timeout.http("readTimeout", timeout).value();
      return this;
    }

    /**
     * Timeout between two writes of a request; default 30 s; as {@link #connectTimeout}.
     *
     * @param timeout the timeout; zero for none
     * @return this builder
     */
    public Builder writeTimeout(Duration timeout) {
      this.writeTimeout = Timeout.http("writeTimeout", timeout).value();
      return this;
    }

    /**
     * Timeout for one whole attempt of a call; default 60 s; as {@link #connectTimeout}.
     *
     * @param timeout the timeout; zero for none
     * @return this builder
     */
    public Builder callTimeout(Duration timeout) {
      this.callTimeout = Timeout.http("callTimeout", timeout).value();
      return this;
    }

    /**
     * How many times a failed call may be retried; default 2, zero to disable retries.
     *
     * @param maxRetries retries after the first attempt; zero or more
     * @return this builder
     */
    public Builder maxRetries(int maxRetries) {
      this.maxRetries = Checks.maxRetries(maxRetries);
      return this;
    }

    /**
     * The longest Retry-After the SDK honours before retrying; default 60 s.
     *
     * @param max the longest Retry-After waited out
     * @return this builder
     */
    public Builder maxRetryAfter(Duration max) {
      this.maxRetryAfter = Checks.nonNegative("maxRetryAfter", max);
      return this;
    }

    /**
     * A {@link FormationListener} of each attempt, retry, poll and state change. Default: none.
     *
     * @param listener the listener; it must not block for long
     * @return this builder
     */
    public Builder listener(FormationListener listener) {
      this.listener = Objects.requireNonNull(listener, "listener");
      return this;
    }

    /**
     * A tracer of every call and attempt, such as {@code FormationOpenTelemetry}. Default: none.
     *
     * @param tracer the tracer; it must not block for long
     * @return this builder
     */
    public Builder tracer(FormationTracer tracer) {
      this.tracer = Objects.requireNonNull(tracer, "tracer");
      return this;
    }

    /**
     * A ceiling on the rate to each origin: {@code requestsPerSecond} on average, {@code burst} at
     * once, the rate learned from 429s under it. Calls beyond it wait, none past its timeout or its
     * wait's deadline, where it fails with a {@link RateLimitException}. Default: none.
     *
     * @param requestsPerSecond the average number of requests per second, per origin
     * @param burst the number of requests let through at once after a quiet spell
     * @return this builder
     * @throws IllegalArgumentException if the rate is not positive and finite or the burst below 1
     */
    public Builder requestBudget(double requestsPerSecond, int burst) {
      Checks.requestBudget(requestsPerSecond, burst);
      this.budgetPerSecond = requestsPerSecond;
      this.budgetBurst = burst;
      return this;
    }

    /**
     * Shares each origin's rate limit with the other instances on this token: a cut one instance's
     * refusals call for slows them all, each to an even share, and a {@link #requestBudget budget}
     * is split over the live instances. Default: none, each client learns alone.
     *
     * @param sharedLimit where the instances meet, such as tracking's {@code DatabaseLimit}
     * @return this builder
     */
    public Builder sharedLimit(SharedLimit sharedLimit) {
      this.sharedLimit = Objects.requireNonNull(sharedLimit, "sharedLimit");
      return this;
    }

    /**
     * The most of a response body the SDK reads, after decompression; default 8 MiB. A longer
     * success fails with {@link InvalidResponseException}; an error keeps its status, body cut
     * short.
     *
     * @param bytes the limit, in bytes
     * @return this builder
     * @throws IllegalArgumentException if not positive, or 2 GiB or more
     */
    public Builder maxResponseBytes(long bytes) {
      this.maxResponseBytes = Checks.maxResponseBytes(bytes);
      return this;
    }

    /**
     * An OkHttp client to share its connection pool and dispatcher with: the SDK derives its own
     * with {@code newBuilder()}, its rules apply, and closing the FormationClient leaves it as is.
     *
     * @param httpClient the client the SDK derives its own from
     * @return this builder
     */
    public Builder httpClient(OkHttpClient httpClient) {
      this.httpClient = Objects.requireNonNull(httpClient, "httpClient");
      return this;
    }

    /**
     * Where the futures of async calls complete, and callbacks on them run. Default: the client's
     * daemon threads, one per core, more while callbacks that block hold them all, shut down by
     * {@link FormationClient#close()}; never OkHttp's. Slow work belongs on yours.
     *
     * @param executor completes every future the client returns; the caller's to shut down
     * @return this builder
     */
    public Builder completionExecutor(Executor executor) {
      this.completionExecutor = Objects.requireNonNull(executor, "executor");
      return this;
    }

    /**
     * Trusts one more origin ({@code https://host[:port]}) with the token, for links or action urls
     * on another host. Repeatable.
     *
     * @param origin an origin, such as {@code https://files.example.com}
     * @return this builder
     */
    public Builder trustOrigin(String origin) {
      trustedOrigins.add(Objects.requireNonNull(origin, "origin"));
      return this;
    }

    /**
     * Allows plain {@code http} for hosts that are not loopback. Never do this in production.
     *
     * @param allow true to allow plain {@code http} to any host
     * @return this builder
     */
    public Builder allowInsecureHttp(boolean allow) {
      this.allowInsecureHttp = allow;
      return this;
    }

    /**
     * Your product token, such as {@code acme-onboarding/2.1}, before the SDK's User-Agent.
     *
     * @param product your product token
     * @return this builder
     */
    public Builder userAgent(String product) {
      this.userAgentProduct = Checks.userAgent(product);
      return this;
    }

    /**
     * {@return a new client, to share and to close when done}
     *
     * @throws IllegalStateException if the base URL or the token is missing
     * @throws IllegalArgumentException if a URL is invalid or uses plain http where not allowed
     */
    public FormationClient build() {
      return new FormationClient(this);
    }
  }
}
