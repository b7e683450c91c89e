package io.formation.sdk;

import io.formation.sdk.internal.Port;
import io.formation.sdk.internal.guards.Checks;
import io.formation.sdk.internal.guards.Compatibility;
import io.formation.sdk.internal.guards.Log;
import io.formation.sdk.internal.guards.Origins;
import io.formation.sdk.internal.guards.Timeout;
import io.formation.sdk.internal.limits.RetryPolicy;
import io.formation.sdk.internal.limits.Throttle;
import io.formation.sdk.internal.time.SchedulerSleeper;
import io.formation.sdk.internal.time.Sleeper;
import io.formation.sdk.internal.time.Ticker;
import io.formation.sdk.internal.time.Time;
import io.formation.sdk.internal.transport.Transport;
import io.formation.sdk.internal.transport.Version;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.DoubleSupplier;
import java.util.function.Supplier;
import okhttp3.ConnectionPool;
import okhttp3.Dispatcher;
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

  private static final long LARGEST_RESPONSE_BYTES = Integer.MAX_VALUE - 8;
  private static final int MAX_REQUESTS = 64;
  private static final int MAX_REQUESTS_PER_HOST = 16;

  private final String baseUrl;
  private final Transport transport;
  private final OkHttpClient ownHttp;
  private final SchedulerSleeper scheduler = new SchedulerSleeper();
  private final ExecutorService ownCompletions;
  private final Teams teams;
  private final DocumentSets documentSets;
  private final Forms forms;

  private FormationClient(Builder builder) {
    // A partner's stack with too old a Kotlin stdlib, OkHttp 4 or too old a Jackson fails here,
    // with the fix, instead of with a NoClassDefFoundError in the middle of a call.
    Compatibility.check();
    if (builder.baseUrl == null) {
      throw Port.illegalState("baseUrl is required");
    }
    if (builder.tokenProvider == null) {
      throw Port.illegalState("an accessToken or a tokenProvider is required");
    }
    if (builder.accessToken != null) {
      int bad = Checks.invalidHeaderCharAt(builder.accessToken);
      if (bad >= 0) {
        // The token itself is never part of the message.
        throw Port.invalid(
            "accessToken has a character not allowed in an HTTP header (at index " + bad + ")");
      }
    }
    Events events = new Events(builder.listener, Log.fromEnvironment());
    Origins origins =
        new Origins(builder.baseUrl, builder.trustedOrigins, builder.allowInsecureHttp, events);
    this.baseUrl = origins.base().toString();
    this.ownHttp = builder.httpClient == null ? newHttpClient(origins.count()) : null;
    OkHttpClient http =
        (builder.httpClient == null ? ownHttp : builder.httpClient)
            .newBuilder()
            .connectTimeout(builder.connectTimeout)
            .readTimeout(builder.readTimeout)
            .writeTimeout(builder.writeTimeout)
            .callTimeout(builder.callTimeout)
            .build();
    Time time =
        new Time(
            builder.clock,
            builder.ticker,
            builder.sleeper != null ? builder.sleeper : scheduler,
            builder.random);
    RetryPolicy retryPolicy =
        new RetryPolicy(builder.maxRetries, builder.maxRetryAfter, builder.callTimeout, time);
    this.ownCompletions = builder.completionExecutor == null ? newCompletionExecutor() : null;
    this.transport =
        new Transport(
            http,
            origins,
            new Builder.Tokens(builder.tokenProvider),
            retryPolicy,
            new Throttle(time, retryPolicy, events, builder.budgetPerSecond, builder.budgetBurst),
            time,
            scheduler,
            builder.completionExecutor == null ? ownCompletions : builder.completionExecutor,
            events,
            Version.userAgent(builder.userAgentProduct),
            builder.maxResponseBytes);
    this.teams = new Teams(transport, origins, RequestOptions.none());
    Submissions submissions = new Submissions(builder.ticker);
    this.forms = new Forms(transport, origins, RequestOptions.none(), submissions);
    this.documentSets =
        new DocumentSets(
            transport,
            origins,
            forms,
            submissions,
            new WaitLoop(transport, events, null, time, retryPolicy),
            RequestOptions.none());
  }

  /** {@return a builder for a client} */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * A client configured from the environment variables {@value #BASE_URL_ENV} and {@value
   * #ACCESS_TOKEN_ENV}.
   *
   * @return a client for the service and token the environment names
   * @throws IllegalStateException if either is unset or blank
   */
  public static FormationClient fromEnv() {
    return fromEnv(System.getenv());
  }

  static FormationClient fromEnv(Map<String, String> env) {
    return builder()
        .baseUrl(require(env, BASE_URL_ENV))
        .accessToken(require(env, ACCESS_TOKEN_ENV))
        .build();
  }

  private static String require(Map<String, String> env, String name) {
    String value = env.get(name);
    if (value == null || value.isBlank()) {
      throw Port.illegalState("The environment variable " + name + " is not set");
    }
    return value;
  }

  /** {@return the version of this SDK, such as {@code 0.1.0}; also in its jar's manifest} */
  public static String version() {
    return Version.SDK;
  }

  /** {@return the teams the token can act for} */
  public Teams teams() {
    return teams;
  }

  /** {@return document sets: create, read, wait for completion} */
  public DocumentSets documentSets() {
    return documentSets;
  }

  /** {@return forms and their actions} */
  public Forms forms() {
    return forms;
  }

  /**
   * Releases the client's threads and idle connections; later calls fail with {@link
   * IllegalStateException}. Calls in flight are cancelled. Idempotent.
   */
  @Override
  public void close() {
    transport.close();
    scheduler.close();
    if (ownCompletions != null) {
      // The futures failed by the close above complete first: shutdown runs what was queued.
      ownCompletions.shutdown();
    }
    if (ownHttp != null) {
      ownHttp.dispatcher().cancelAll();
      ownHttp.dispatcher().executorService().shutdown();
      ownHttp.connectionPool().evictAll();
    }
  }

  /** Shows the base URL; never the token. */
  @Override
  public String toString() {
    return "FormationClient{baseUrl=" + baseUrl + "}";
  }

  /**
   * An OkHttp client whose dispatcher runs on daemon threads the SDK names and shuts down: as many
   * as calls may run at once to the origins calls go to, and no more. OkHttp's own executor starts
   * a thread whenever none is idle, and a finishing call hands the next one over before its thread
   * is idle again, so 16 calls at once kept 26 to 28 threads; here the next call waits in the queue
   * for that very thread, a moment later.
   */
  private static OkHttpClient newHttpClient(int origins) {
    int threads = Math.min(MAX_REQUESTS, MAX_REQUESTS_PER_HOST * origins);
    ThreadPoolExecutor executor =
        new ThreadPoolExecutor(
            threads,
            threads,
            60,
            TimeUnit.SECONDS,
            new LinkedBlockingQueue<>(),
            SchedulerSleeper.daemonThreads("formation-http"));
    executor.allowCoreThreadTimeOut(true);
    Dispatcher dispatcher = new Dispatcher(executor);
    dispatcher.setMaxRequests(MAX_REQUESTS);
    dispatcher.setMaxRequestsPerHost(MAX_REQUESTS_PER_HOST);
    // As many idle connections as calls may run to the service, so a busy client reuses them
    // instead of opening (and TLS-handshaking) a new one every few requests.
    return new OkHttpClient.Builder()
        .dispatcher(dispatcher)
        .connectionPool(new ConnectionPool(MAX_REQUESTS_PER_HOST, 5, TimeUnit.MINUTES))
        .build();
  }

  /**
   * The default completion executor: daemon threads handed each completion, a new one only when
   * every other is busy, ended after ten seconds idle, so a caller's slow callback holds one thread
   * and never delays an unrelated call's completion.
   */
  private static ExecutorService newCompletionExecutor() {
    return new ThreadPoolExecutor(
        0,
        Integer.MAX_VALUE,
        10,
        TimeUnit.SECONDS,
        new SynchronousQueue<>(),
        SchedulerSleeper.daemonThreads("formation-completion"));
  }

  /**
   * Configures a {@link FormationClient}. A base URL and a token (or token provider) are required;
   * everything else has a default.
   *
   * <pre>{@code
   * FormationClient client = FormationClient.builder()
   *     .baseUrl("https://api.example.com")
   *     .tokenProvider(tokens::current)
   *     .httpClient(sharedOkHttpClient)
   *     .maxRetries(3)
   *     .userAgent("acme-onboarding/2.1")
   *     .build();
   * }</pre>
   */
  public static final class Builder {
    private String baseUrl;
    private String accessToken;
    private TokenProvider tokenProvider;
    private Duration connectTimeout = Duration.ofSeconds(10);
    private Duration readTimeout = Duration.ofSeconds(30);
    private Duration writeTimeout = Duration.ofSeconds(30);
    private Duration callTimeout = Duration.ofSeconds(60);
    private int maxRetries = 2;
    private Duration maxRetryAfter = Duration.ofSeconds(60);
    private long maxResponseBytes = DEFAULT_MAX_RESPONSE_BYTES;
    private FormationListener listener;
    private double budgetPerSecond;
    private int budgetBurst;
    private OkHttpClient httpClient;
    private Executor completionExecutor;
    private final List<String> trustedOrigins = new ArrayList<>();
    private boolean allowInsecureHttp;
    private String userAgentProduct;
    private Clock clock = Clock.systemUTC();
    private Ticker ticker = Time.SYSTEM_TICKER;
    private Sleeper sleeper;
    private DoubleSupplier random = new ThreadRandom();

    private Builder() {}

    // Classes, not lambdas, as on the rest of the way to a first call (see SchedulerSleeper).

    private static final class ThreadRandom implements DoubleSupplier {
      @Override
      public double getAsDouble() {
        return ThreadLocalRandom.current().nextDouble();
      }
    }

    /** The token provider as the transport asks it. */
    private static final class Tokens implements Supplier<String> {
      private final TokenProvider provider;

      Tokens(TokenProvider provider) {
        this.provider = provider;
      }

      @Override
      public String get() {
        return provider.token();
      }
    }

    private static final class FixedToken implements TokenProvider {
      private final String token;

      FixedToken(String token) {
        this.token = token;
      }

      @Override
      public String token() {
        return token;
      }
    }

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
      Objects.requireNonNull(accessToken, "accessToken");
      if (accessToken.isBlank()) {
        throw Port.invalid("accessToken must not be blank");
      }
      this.accessToken = accessToken;
      this.tokenProvider = new FixedToken(accessToken);
      return this;
    }

    /**
     * A source of access tokens, asked before each request, for tokens that rotate. A token it
     * returns that is not a valid header value fails that call with a {@link FormationException},
     * and nothing is sent.
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
     * Timeout for establishing a connection; default 10 s; zero for none. Timeouts are kept in
     * whole milliseconds: a shorter positive one is rounded up to 1 ms, never down to "none".
     *
     * @param timeout the timeout; zero for none
     * @return this builder
     * @throws IllegalArgumentException if negative or longer than {@code Integer.MAX_VALUE} ms
     */
    public Builder connectTimeout(Duration timeout) {
      this.connectTimeout = timeout("connectTimeout", timeout);
      return this;
    }

    /**
     * Timeout between two reads of a response; default 30 s; as {@link #connectTimeout}.
     *
     * @param timeout the timeout; zero for none
     * @return this builder
     */
    public Builder readTimeout(Duration timeout) {
      this.readTimeout = timeout("readTimeout", timeout);
      return this;
    }

    /**
     * Timeout between two writes of a request; default 30 s; as {@link #connectTimeout}.
     *
     * @param timeout the timeout; zero for none
     * @return this builder
     */
    public Builder writeTimeout(Duration timeout) {
      this.writeTimeout = timeout("writeTimeout", timeout);
      return this;
    }

    /**
     * Timeout for one whole attempt of a call; default 60 s; as {@link #connectTimeout}.
     *
     * @param timeout the timeout; zero for none
     * @return this builder
     */
    public Builder callTimeout(Duration timeout) {
      this.callTimeout = timeout("callTimeout", timeout);
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
     * A listener told of every attempt, retry, poll and state change, for metrics or tracing; see
     * {@link FormationListener}. Default: none.
     *
     * @param listener the listener; it must not block for long
     * @return this builder
     */
    public Builder listener(FormationListener listener) {
      this.listener = Objects.requireNonNull(listener, "listener");
      return this;
    }

    /**
     * A ceiling on the rate of this client's calls to each origin, blocking and async alike: at
     * most {@code requestsPerSecond} on average, and {@code burst} at once after a quiet spell.
     * Without it the client still adapts: it learns each origin's rate from the service's 429s (and
     * 503s with {@code Retry-After}), slows below it, and probes upward again once refusals stop;
     * the budget caps what it probes up to. Calls beyond the rate wait their turn, first come,
     * first served (async ones without parking a thread); polls of {@code awaitCompletion} give way
     * to creates, forms and actions, but never for longer than a second, and no call waits past its
     * own timeout or its wait's deadline: it fails with a {@link RateLimitException} that says when
     * to retry. Set it at or a little under the service's rate limit when you know it. Default:
     * none.
     *
     * @param requestsPerSecond the average number of requests per second, per origin
     * @param burst the number of requests let through at once after a quiet spell
     * @return this builder
     * @throws IllegalArgumentException if the rate is not positive and finite or the burst below 1
     */
    public Builder requestBudget(double requestsPerSecond, int burst) {
      if (!(requestsPerSecond > 0) || Double.isInfinite(requestsPerSecond)) {
        throw Port.invalid("requestsPerSecond must be positive, was " + requestsPerSecond);
      }
      if (burst < 1) {
        throw Port.invalid("burst must be at least 1, was " + burst);
      }
      this.budgetPerSecond = requestsPerSecond;
      this.budgetBurst = burst;
      return this;
    }

    /**
     * The most of a response body the SDK reads, counted after decompression; default 8 MiB. A
     * successful answer that is longer fails with {@link InvalidResponseException} instead of
     * filling the heap; an error answer keeps its status, with its body cut short.
     *
     * @param bytes the limit, in bytes
     * @return this builder
     * @throws IllegalArgumentException if not positive, or 2 GiB or more
     */
    public Builder maxResponseBytes(long bytes) {
      if (bytes < 1 || bytes > LARGEST_RESPONSE_BYTES) {
        throw Port.invalid(
            "maxResponseBytes must be between 1 and " + LARGEST_RESPONSE_BYTES + ", was " + bytes);
      }
      this.maxResponseBytes = bytes;
      return this;
    }

    /**
     * An OkHttp client to share its connection pool and dispatcher with. The SDK derives its own
     * client from it with {@code newBuilder()}, so its auth, retries, timeouts and origin rules
     * still apply, and closing the FormationClient leaves this client untouched.
     *
     * @param httpClient the client the SDK derives its own from
     * @return this builder
     */
    public Builder httpClient(OkHttpClient httpClient) {
      this.httpClient = Objects.requireNonNull(httpClient, "httpClient");
      return this;
    }

    /**
     * Where the futures of async calls complete, and so where callbacks attached to them run
     * ({@code thenAccept} and the like). Default: daemon threads of the client's own, a new one
     * only when every other is busy, ended after ten seconds idle and shut down by {@link
     * FormationClient#close()}, so a callback that blocks holds one thread and delays no other
     * call's completion. Never OkHttp's threads: a slow callback there would hold a connection slot
     * and stall unrelated calls. Slow work still belongs on an executor of your own ({@code
     * thenAcceptAsync(work, yours)}), or give one here.
     *
     * @param executor runs the completion of every future the client returns; it stays the caller's
     *     to shut down
     * @return this builder
     */
    public Builder completionExecutor(Executor executor) {
      this.completionExecutor = Objects.requireNonNull(executor, "executor");
      return this;
    }

    /**
     * Trusts one more origin ({@code https://host[:port]}) with the access token, for links or
     * action urls the service returns on another host. Repeatable.
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
     * Your product token, such as {@code acme-onboarding/2.1}, put in front of the SDK's User-Agent
     * ({@code formation-java/<version> java/<runtime>}).
     *
     * @param product your product token
     * @return this builder
     */
    public Builder userAgent(String product) {
      Objects.requireNonNull(product, "product");
      if (product.isBlank()) {
        throw Port.invalid("userAgent must not be blank");
      }
      int bad = Checks.invalidHeaderCharAt(product);
      if (bad >= 0) {
        throw Port.invalid(
            "userAgent has a character not allowed in an HTTP header (at index " + bad + ")");
      }
      this.userAgentProduct = product.strip();
      return this;
    }

    Builder clock(Clock clock) {
      this.clock = Objects.requireNonNull(clock, "clock");
      return this;
    }

    Builder ticker(Ticker ticker) {
      this.ticker = Objects.requireNonNull(ticker, "ticker");
      return this;
    }

    Builder sleeper(Sleeper sleeper) {
      this.sleeper = Objects.requireNonNull(sleeper, "sleeper");
      return this;
    }

    Builder random(DoubleSupplier random) {
      this.random = Objects.requireNonNull(random, "random");
      return this;
    }

    /**
     * The client.
     *
     * @return a new client, to share and to close when done
     * @throws IllegalStateException if the base URL or the token is missing
     * @throws IllegalArgumentException if a URL is invalid or uses plain http where not allowed
     */
    public FormationClient build() {
      return new FormationClient(this);
    }

    private static Duration timeout(String name, Duration value) {
      return Timeout.http(name, value).value();
    }
  }
}
