package io.formation.spring.autoconfigure;

import java.net.Proxy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.util.unit.DataSize;

/**
 * The {@code formation.*} properties the auto-configured {@code FormationClient} is built from.
 * Relaxed binding maps the SDK's own environment variables onto them: {@code FORMATION_BASE_URL} is
 * {@code formation.base-url} and {@code FORMATION_ACCESS_TOKEN} is {@code formation.access-token}.
 * A value left unset keeps the SDK's default. They are checked when the client is built, at
 * startup; a bad one stops the application with a message naming it.
 *
 * <pre>{@code
 * formation.base-url=https://api.example.com
 * formation.access-token=${FORMATION_ACCESS_TOKEN}
 * formation.read-timeout=20s
 * formation.request-budget.requests-per-second=5
 * formation.request-budget.burst=10
 * }</pre>
 */
@ConfigurationProperties("formation")
public class FormationProperties {
  /**
   * The service's base URL, such as https://api.example.com (endpoints are <base-url>/v1/...).
   * Unset, with the sandbox asked for, the development sandbox is started instead.
   */
  private String baseUrl;

  /**
   * The OAuth access token, without the "Bearer " prefix; never logged nor shown. A TokenProvider
   * bean, for tokens that rotate, takes its place.
   */
  private String accessToken;

  /** Your product token, such as acme-onboarding/2.1, put in front of the SDK's User-Agent. */
  private String userAgent;

  /** Timeout for establishing a connection; zero for none. The SDK's default is 10s. */
  private Duration connectTimeout;

  /** Timeout between two reads of a response; zero for none. The SDK's default is 30s. */
  private Duration readTimeout;

  /** Timeout between two writes of a request; zero for none. The SDK's default is 30s. */
  private Duration writeTimeout;

  /** Timeout for one whole attempt of a call; zero for none. The SDK's default is 60s. */
  private Duration callTimeout;

  /** How many times a failed call may be retried; zero disables retries. The SDK's default: 2. */
  private Integer maxRetries;

  /** The longest Retry-After the SDK waits out before retrying. The SDK's default is 60s. */
  private Duration maxRetryAfter;

  /** The most of a response body the SDK reads. The SDK's default is 8MB. */
  private DataSize maxResponseSize;

  /** More origins (https://host[:port]) trusted with the token, for links to other hosts. */
  private List<String> trustedOrigins = new ArrayList<>();

  /** Whether plain http is allowed for hosts that are not loopback. Never in production. */
  private boolean allowInsecureHttp;

  private final RequestBudget requestBudget = new RequestBudget();

  private final ProxySettings proxy = new ProxySettings();

  private final Sandbox sandbox = new Sandbox();

  private final Tracking tracking = new Tracking();

  /** {@return the base URL, or null} */
  public String getBaseUrl() {
    return baseUrl;
  }

  /**
   * Sets the base URL.
   *
   * @param baseUrl the base URL
   */
  public void setBaseUrl(String baseUrl) {
    this.baseUrl = baseUrl;
  }

  /** {@return the access token, or null} */
  public String getAccessToken() {
    return accessToken;
  }

  /**
   * Sets the access token.
   *
   * @param accessToken the token
   */
  public void setAccessToken(String accessToken) {
    this.accessToken = accessToken;
  }

  /** {@return the product token for the User-Agent, or null} */
  public String getUserAgent() {
    return userAgent;
  }

  /**
   * Sets the product token for the User-Agent.
   *
   * @param userAgent the product token
   */
  public void setUserAgent(String userAgent) {
    this.userAgent = userAgent;
  }

  /** {@return the connect timeout, or null for the SDK's} */
  public Duration getConnectTimeout() {
    return connectTimeout;
  }

  /**
   * Sets the connect timeout.
   *
   * @param connectTimeout the timeout
   */
  public void setConnectTimeout(Duration connectTimeout) {
    this.connectTimeout = connectTimeout;
  }

  /** {@return the read timeout, or null for the SDK's} */
  public Duration getReadTimeout() {
    return readTimeout;
  }

  /**
   * Sets the read timeout.
   *
   * @param readTimeout the timeout
   */
  public void setReadTimeout(Duration readTimeout) {
    this.readTimeout = readTimeout;
  }

  /** {@return the write timeout, or null for the SDK's} */
  public Duration getWriteTimeout() {
    return writeTimeout;
  }

  /**
   * Sets the write timeout.
   *
   * @param writeTimeout the timeout
   */
  public void setWriteTimeout(Duration writeTimeout) {
    this.writeTimeout = writeTimeout;
  }

  /** {@return the call timeout, or null for the SDK's} */
  public Duration getCallTimeout() {
    return callTimeout;
  }

  /**
   * Sets the call timeout.
   *
   * @param callTimeout the timeout
   */
  public void setCallTimeout(Duration callTimeout) {
    this.callTimeout = callTimeout;
  }

  /** {@return the most retries, or null for the SDK's} */
  public Integer getMaxRetries() {
    return maxRetries;
  }

  /**
   * Sets the most retries.
   *
   * @param maxRetries the most retries
   */
  public void setMaxRetries(Integer maxRetries) {
    this.maxRetries = maxRetries;
  }

  /** {@return the longest Retry-After waited out, or null for the SDK's} */
  public Duration getMaxRetryAfter() {
    return maxRetryAfter;
  }

  /**
   * Sets the longest Retry-After waited out.
   *
   * @param maxRetryAfter the longest wait
   */
  public void setMaxRetryAfter(Duration maxRetryAfter) {
    this.maxRetryAfter = maxRetryAfter;
  }

  /** {@return the most of a response body read, or null for the SDK's} */
  public DataSize getMaxResponseSize() {
    return maxResponseSize;
  }

  /**
   * Sets the most of a response body read.
   *
   * @param maxResponseSize the size
   */
  public void setMaxResponseSize(DataSize maxResponseSize) {
    this.maxResponseSize = maxResponseSize;
  }

  /** {@return the more origins trusted with the token} */
  public List<String> getTrustedOrigins() {
    return trustedOrigins;
  }

  /**
   * Sets the more origins trusted with the token.
   *
   * @param trustedOrigins the origins
   */
  public void setTrustedOrigins(List<String> trustedOrigins) {
    this.trustedOrigins = trustedOrigins;
  }

  /** {@return whether plain http is allowed for hosts that are not loopback} */
  public boolean isAllowInsecureHttp() {
    return allowInsecureHttp;
  }

  /**
   * Sets whether plain http is allowed for hosts that are not loopback.
   *
   * @param allowInsecureHttp whether it is
   */
  public void setAllowInsecureHttp(boolean allowInsecureHttp) {
    this.allowInsecureHttp = allowInsecureHttp;
  }

  /** {@return the request budget} */
  public RequestBudget getRequestBudget() {
    return requestBudget;
  }

  /** {@return the proxy} */
  public ProxySettings getProxy() {
    return proxy;
  }

  /** {@return the development sandbox's settings} */
  public Sandbox getSandbox() {
    return sandbox;
  }

  /** {@return the tracker's settings} */
  public Tracking getTracking() {
    return tracking;
  }

  // Configuration ends up in logs and failure reports: the token is never part of it.
  @Override
  public String toString() {
    return "FormationProperties[baseUrl="
        + baseUrl
        + ", accessToken="
        + (accessToken == null || accessToken.isEmpty() ? "<none>" : "<redacted>")
        + "]";
  }

  /**
   * A request budget every call of the client shares ({@code
   * FormationClient.Builder#requestBudget}); none unless both are set.
   */
  public static class RequestBudget {
    /** The average number of requests per second; set it at or under the service's rate limit. */
    private Double requestsPerSecond;

    /** The number of requests let through at once after a quiet spell. */
    private Integer burst;

    /** {@return the average number of requests per second, or null} */
    public Double getRequestsPerSecond() {
      return requestsPerSecond;
    }

    /**
     * Sets the average number of requests per second.
     *
     * @param requestsPerSecond the rate
     */
    public void setRequestsPerSecond(Double requestsPerSecond) {
      this.requestsPerSecond = requestsPerSecond;
    }

    /** {@return the burst, or null} */
    public Integer getBurst() {
      return burst;
    }

    /**
     * Sets the burst.
     *
     * @param burst the burst
     */
    public void setBurst(Integer burst) {
      this.burst = burst;
    }
  }

  /** A proxy every request of the client goes through; none unless a host is set. */
  public static class ProxySettings {
    /** The proxy's host name or address. */
    private String host;

    /** The proxy's port. */
    private Integer port;

    /** The kind of proxy: HTTP or SOCKS. */
    private Proxy.Type type = Proxy.Type.HTTP;

    /** {@return the proxy's host, or null} */
    public String getHost() {
      return host;
    }

    /**
     * Sets the proxy's host.
     *
     * @param host the host
     */
    public void setHost(String host) {
      this.host = host;
    }

    /** {@return the proxy's port, or null} */
    public Integer getPort() {
      return port;
    }

    /**
     * Sets the proxy's port.
     *
     * @param port the port
     */
    public void setPort(Integer port) {
      this.port = port;
    }

    /** {@return the kind of proxy} */
    public Proxy.Type getType() {
      return type;
    }

    /**
     * Sets the kind of proxy.
     *
     * @param type HTTP or SOCKS
     */
    public void setType(Proxy.Type type) {
      this.type = type;
    }
  }

  /**
   * The development sandbox: with no base URL, formation-sandbox on the class path and this asked
   * for, the application talks to a sandbox it starts on a loopback port.
   */
  public static class Sandbox {
    static final List<String> DEFAULT_PROFILES = List.of("dev", "local");

    /** Whether to start the sandbox when no base URL is configured. */
    private boolean enabled;

    /** Profiles that, when active, ask for the sandbox as enabled=true does. */
    private List<String> profiles = new ArrayList<>(DEFAULT_PROFILES);

    /** {@return whether the sandbox is asked for} */
    public boolean isEnabled() {
      return enabled;
    }

    /**
     * Sets whether the sandbox is asked for.
     *
     * @param enabled whether it is
     */
    public void setEnabled(boolean enabled) {
      this.enabled = enabled;
    }

    /** {@return the profiles that ask for the sandbox} */
    public List<String> getProfiles() {
      return profiles;
    }

    /**
     * Sets the profiles that ask for the sandbox.
     *
     * @param profiles the profiles
     */
    public void setProfiles(List<String> profiles) {
      this.profiles = profiles;
    }
  }

  /**
   * The {@code FormationTracker} built when formation-tracking is on the class path and the
   * application has a DataSource and a TrackingHandler. A value left unset keeps the tracker's
   * default.
   */
  public static class Tracking {
    /** Whether to build and start a tracker when a DataSource and a TrackingHandler exist. */
    private boolean enabled = true;

    /** The tracker's table, its own: never the table of another db-scheduler scheduler. */
    private String tableName;

    /** How many sets this instance polls at once. */
    private Integer threads;

    /** How often this instance looks in the table for sets that fall due. */
    private Duration pollingInterval;

    /** How long tracking pauses when the service refuses the client (401, 403). */
    private Duration pauseOnRefusal;

    /** How long to wait before polling again after a poll failed for a passing reason. */
    private Duration retryAfterFailure;

    /** The instance's name in the table; by default the host's name. */
    private String instanceName;

    private final Poll poll = new Poll();

    /** {@return whether tracking is on} */
    public boolean isEnabled() {
      return enabled;
    }

    /**
     * Sets whether tracking is on.
     *
     * @param enabled whether it is
     */
    public void setEnabled(boolean enabled) {
      this.enabled = enabled;
    }

    /** {@return the table's name, or null for the tracker's default} */
    public String getTableName() {
      return tableName;
    }

    /**
     * Sets the table's name.
     *
     * @param tableName the name
     */
    public void setTableName(String tableName) {
      this.tableName = tableName;
    }

    /** {@return the number of polling threads, or null} */
    public Integer getThreads() {
      return threads;
    }

    /**
     * Sets the number of polling threads.
     *
     * @param threads the number
     */
    public void setThreads(Integer threads) {
      this.threads = threads;
    }

    /** {@return how often the table is looked in, or null} */
    public Duration getPollingInterval() {
      return pollingInterval;
    }

    /**
     * Sets how often the table is looked in.
     *
     * @param pollingInterval the interval
     */
    public void setPollingInterval(Duration pollingInterval) {
      this.pollingInterval = pollingInterval;
    }

    /** {@return the pause after a refusal, or null} */
    public Duration getPauseOnRefusal() {
      return pauseOnRefusal;
    }

    /**
     * Sets the pause after a refusal.
     *
     * @param pauseOnRefusal the pause
     */
    public void setPauseOnRefusal(Duration pauseOnRefusal) {
      this.pauseOnRefusal = pauseOnRefusal;
    }

    /** {@return the wait after a failed poll, or null} */
    public Duration getRetryAfterFailure() {
      return retryAfterFailure;
    }

    /**
     * Sets the wait after a failed poll.
     *
     * @param retryAfterFailure the wait
     */
    public void setRetryAfterFailure(Duration retryAfterFailure) {
      this.retryAfterFailure = retryAfterFailure;
    }

    /** {@return the instance's name, or null} */
    public String getInstanceName() {
      return instanceName;
    }

    /**
     * Sets the instance's name.
     *
     * @param instanceName the name
     */
    public void setInstanceName(String instanceName) {
      this.instanceName = instanceName;
    }

    /** {@return the wait of every tracked set} */
    public Poll getPoll() {
      return poll;
    }
  }

  /** The wait of every tracked set; what is unset keeps the tracker's default wait. */
  public static class Poll {
    /** The wait after the first poll; it grows from there. */
    private Duration initialInterval;

    /** The longest wait between two polls. */
    private Duration maxInterval;

    /** How much the wait grows after each poll. */
    private Double multiplier;

    /** How long a set is tracked before tracking ends with a timeout. */
    private Duration timeout;

    /** How long input_needed is waited through after a submission. */
    private Duration inputNeededGrace;

    /** The window in which the first polls of sets tracked together are spread. */
    private Duration firstPollWithin;

    /** {@return the first wait, or null} */
    public Duration getInitialInterval() {
      return initialInterval;
    }

    /**
     * Sets the first wait.
     *
     * @param initialInterval the wait
     */
    public void setInitialInterval(Duration initialInterval) {
      this.initialInterval = initialInterval;
    }

    /** {@return the longest wait, or null} */
    public Duration getMaxInterval() {
      return maxInterval;
    }

    /**
     * Sets the longest wait.
     *
     * @param maxInterval the wait
     */
    public void setMaxInterval(Duration maxInterval) {
      this.maxInterval = maxInterval;
    }

    /** {@return the growth factor, or null} */
    public Double getMultiplier() {
      return multiplier;
    }

    /**
     * Sets the growth factor.
     *
     * @param multiplier the factor
     */
    public void setMultiplier(Double multiplier) {
      this.multiplier = multiplier;
    }

    /** {@return how long a set is tracked, or null} */
    public Duration getTimeout() {
      return timeout;
    }

    /**
     * Sets how long a set is tracked.
     *
     * @param timeout the timeout
     */
    public void setTimeout(Duration timeout) {
      this.timeout = timeout;
    }

    /** {@return the input_needed grace, or null} */
    public Duration getInputNeededGrace() {
      return inputNeededGrace;
    }

    /**
     * Sets the input_needed grace.
     *
     * @param inputNeededGrace the grace
     */
    public void setInputNeededGrace(Duration inputNeededGrace) {
      this.inputNeededGrace = inputNeededGrace;
    }

    /** {@return the first-poll window, or null} */
    public Duration getFirstPollWithin() {
      return firstPollWithin;
    }

    /**
     * Sets the first-poll window.
     *
     * @param firstPollWithin the window
     */
    public void setFirstPollWithin(Duration firstPollWithin) {
      this.firstPollWithin = firstPollWithin;
    }
  }
}
