package io.formation.opentelemetry;

import io.formation.sdk.AttemptEvent;
import io.formation.sdk.FormationClient;
import io.formation.sdk.FormationTracer;
import io.formation.sdk.StateChange;
import io.formation.sdk.model.DocumentSet;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.common.AttributesBuilder;
import io.opentelemetry.api.metrics.DoubleHistogram;
import io.opentelemetry.api.metrics.LongCounter;
import io.opentelemetry.api.metrics.LongUpDownCounter;
import io.opentelemetry.api.metrics.Meter;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanBuilder;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.SpanId;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.TraceFlags;
import io.opentelemetry.api.trace.TraceId;
import io.opentelemetry.api.trace.TraceState;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.Scope;
import io.opentelemetry.context.propagation.TextMapPropagator;
import io.opentelemetry.context.propagation.TextMapSetter;
import java.net.URI;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * The Formation SDK on OpenTelemetry: a span for each call of the SDK with a CLIENT span for each
 * attempt inside it, on the stable HTTP client conventions; the {@code traceparent} sent to the
 * service's origins only; the {@code http.client.request.duration} histogram and the formation's
 * own metrics. A document set's saved wait keeps the context of the span that created it, so that
 * every later poll, by any instance, and the tracking handler's completion join that trace.
 *
 * <pre>{@code
 * FormationClient client = FormationClient.builder()
 *     .baseUrl("https://api.example.com")
 *     .accessToken(token)
 *     .tracer(FormationOpenTelemetry.create(openTelemetry))
 *     .build();
 * }</pre>
 *
 * <p>See {@code docs/debugging.md} for the trace of one formation and what each name means.
 */
public final class FormationOpenTelemetry implements FormationTracer {
  static final String SCOPE = "io.formation.sdk";

  static final AttributeKey<String> METHOD = AttributeKey.stringKey("http.request.method");
  static final AttributeKey<String> METHOD_ORIGINAL =
      AttributeKey.stringKey("http.request.method_original");
  static final AttributeKey<String> SERVER_ADDRESS = AttributeKey.stringKey("server.address");
  static final AttributeKey<Long> SERVER_PORT = AttributeKey.longKey("server.port");
  static final AttributeKey<String> URL_FULL = AttributeKey.stringKey("url.full");
  static final AttributeKey<Long> STATUS = AttributeKey.longKey("http.response.status_code");
  static final AttributeKey<String> ERROR_TYPE = AttributeKey.stringKey("error.type");
  static final AttributeKey<Long> RESEND_COUNT = AttributeKey.longKey("http.request.resend_count");
  static final AttributeKey<String> SET_ID = AttributeKey.stringKey("formation.document_set.id");
  static final AttributeKey<String> FORM_ID = AttributeKey.stringKey("formation.form.id");
  static final AttributeKey<String> STATE = AttributeKey.stringKey("formation.document_set.state");
  static final AttributeKey<String> REFUSED_BY = AttributeKey.stringKey("formation.refused_by");

  private static final Set<String> KNOWN_METHODS =
      Set.of("GET", "HEAD", "POST", "PUT", "DELETE", "CONNECT", "OPTIONS", "TRACE", "PATCH");

  // The buckets the HTTP conventions advise for request durations, in seconds.
  private static final List<Double> DURATION_BUCKETS =
      List.of(0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1.0, 2.5, 5.0, 7.5, 10.0);

  // Days: a state can last from seconds to weeks.
  private static final List<Double> STATE_BUCKETS =
      List.of(1.0, 10.0, 60.0, 600.0, 3600.0, 21600.0, 86400.0, 259200.0, 604800.0, 2592000.0);

  private static final TextMapSetter<Map<String, String>> MAP_SETTER = Map::put;

  private static final int MAX_ENDPOINTS = 64;
  private static final Attributes SERVICE_REFUSAL = Attributes.of(REFUSED_BY, "service");

  private final Map<String, Endpoint> endpoints = new ConcurrentHashMap<>();
  private final Tracer tracer;
  private final TextMapPropagator propagator;
  private final DoubleHistogram requestDuration;
  private final LongUpDownCounter setsByState;
  private final DoubleHistogram timeInState;
  private final DoubleHistogram pollLag;
  private final LongCounter refusals;
  private final LongCounter pauses;

  private FormationOpenTelemetry(OpenTelemetry openTelemetry) {
    this.tracer = openTelemetry.getTracer(SCOPE, FormationClient.version());
    this.propagator = openTelemetry.getPropagators().getTextMapPropagator();
    Meter meter =
        openTelemetry
            .meterBuilder(SCOPE)
            .setInstrumentationVersion(FormationClient.version())
            .build();
    this.requestDuration =
        meter
            .histogramBuilder("http.client.request.duration")
            .setUnit("s")
            .setDescription("Duration of HTTP client requests.")
            .setExplicitBucketBoundariesAdvice(DURATION_BUCKETS)
            .build();
    this.setsByState =
        meter
            .upDownCounterBuilder("formation.document_sets")
            .setUnit("{document_set}")
            .setDescription(
                "Document sets by the state their waits last saw, summed over the instances.")
            .build();
    this.timeInState =
        meter
            .histogramBuilder("formation.document_set.state.duration")
            .setUnit("s")
            .setDescription("Time a document set spent in a state, from poll to poll.")
            .setExplicitBucketBoundariesAdvice(STATE_BUCKETS)
            .build();
    this.pollLag =
        meter
            .histogramBuilder("formation.document_set.poll.lag")
            .setUnit("s")
            .setDescription(
                "How late a state change can have been seen: the time since the poll before it.")
            .setExplicitBucketBoundariesAdvice(STATE_BUCKETS)
            .build();
    this.refusals =
        meter
            .counterBuilder("formation.client.refusals")
            .setUnit("{request}")
            .setDescription("Requests refused for the rate: by the service (429) or by the client.")
            .build();
    this.pauses =
        meter
            .counterBuilder("formation.client.pauses")
            .setUnit("{pause}")
            .setDescription("Times the client paused an origin's calls as the service asked.")
            .build();
  }

  /**
   * The tracer to give {@link io.formation.sdk.FormationClient.Builder#tracer}.
   *
   * @param openTelemetry the application's OpenTelemetry (its SDK, or the agent's {@code
   *     GlobalOpenTelemetry.get()})
   * @return the tracer
   */
  public static FormationOpenTelemetry create(OpenTelemetry openTelemetry) {
    return new FormationOpenTelemetry(Objects.requireNonNull(openTelemetry, "openTelemetry"));
  }

  @Override
  public CallSpan startCall(Call call) {
    Context parent = Context.current();
    SpanContext creation = call.linkedTo().map(FormationOpenTelemetry::extract).orElse(null);
    SpanContext caller = Span.fromContext(parent).getSpanContext();
    if (creation != null) {
      // One formation, one trace: a saved wait's calls join the trace of the set's creation,
      // whichever thread, instance or caller's span they run in; the caller's span is linked.
      parent = Context.root().with(Span.wrap(creation));
    }
    SpanBuilder builder =
        tracer.spanBuilder(call.name()).setSpanKind(SpanKind.INTERNAL).setParent(parent);
    call.documentSetId().ifPresent(id -> builder.setAttribute(SET_ID, id));
    call.formId().ifPresent(id -> builder.setAttribute(FORM_ID, id));
    if (creation != null) {
      builder.addLink(creation);
      if (caller.isValid()) {
        builder.addLink(caller);
      }
    }
    return new Traced(builder.startSpan());
  }

  /** The span context a saved {@code traceparent} names, or null if it names none. */
  static SpanContext extract(String traceparent) {
    String[] parts = traceparent.split("-", -1);
    if (parts.length != 4
        || !parts[0].equals("00")
        || !TraceId.isValid(parts[1])
        || !SpanId.isValid(parts[2])
        || parts[3].length() != 2) {
      return null;
    }
    SpanContext context;
    try {
      context =
          SpanContext.createFromRemoteParent(
              parts[1], parts[2], TraceFlags.fromHex(parts[3], 0), TraceState.getDefault());
    } catch (IllegalArgumentException notHex) {
      return null;
    }
    return context.isValid() ? context : null;
  }

  /** The saved form of a span's context: its W3C {@code traceparent}. */
  static String traceparent(SpanContext context) {
    return "00-"
        + context.getTraceId()
        + "-"
        + context.getSpanId()
        + "-"
        + context.getTraceFlags().asHex();
  }

  private final class Traced implements CallSpan {
    private final Span span;

    Traced(Span span) {
      this.span = span;
    }

    @Override
    public AttemptSpan startAttempt(AttemptEvent attempt) {
      Endpoint endpoint = endpoint(attempt.method(), attempt.url());
      SpanBuilder builder =
          tracer
              .spanBuilder(endpoint.spanName)
              .setSpanKind(SpanKind.CLIENT)
              .setParent(Context.root().with(span))
              .setAllAttributes(endpoint.common)
              .setAttribute(URL_FULL, endpoint.urlFull(attempt.url()));
      if (endpoint.methodOriginal != null) {
        builder.setAttribute(METHOD_ORIGINAL, endpoint.methodOriginal);
      }
      if (attempt.attempt() > 1) {
        builder.setAttribute(RESEND_COUNT, attempt.attempt() - 1L);
      }
      return new TracedAttempt(builder.startSpan(), endpoint);
    }

    @Override
    public void end(Optional<DocumentSet> set, Optional<Throwable> failure) {
      set.ifPresent(
          read -> {
            span.setAttribute(SET_ID, read.id());
            span.setAttribute(STATE, state(read.state().value()).get(STATE));
          });
      failure.ifPresent(
          e -> {
            span.setStatus(StatusCode.ERROR);
            span.setAttribute(ERROR_TYPE, e.getClass().getName());
          });
      span.end();
    }

    @Override
    public Optional<String> context() {
      SpanContext context = span.getSpanContext();
      return context.isValid() ? Optional.of(traceparent(context)) : Optional.empty();
    }

    @Override
    public void run(Runnable work) {
      Scope scope = span.makeCurrent();
      try {
        work.run();
      } finally {
        scope.close();
      }
    }
  }

  private final class TracedAttempt implements AttemptSpan {
    private final Span span;
    private final Endpoint endpoint;

    TracedAttempt(Span span, Endpoint endpoint) {
      this.span = span;
      this.endpoint = endpoint;
    }

    @Override
    public Map<String, String> headers() {
      Map<String, String> carrier = new HashMap<>();
      propagator.inject(Context.root().with(span), carrier, MAP_SETTER);
      return carrier;
    }

    @Override
    public void end(AttemptEvent attempt) {
      int status = attempt.statusCode();
      Attributes measured;
      String errorType = null;
      if (status > 0) {
        span.setAttribute(STATUS, (long) status);
        if (status >= 400) {
          errorType = Integer.toString(status);
        }
        if (status == 429) {
          refusals.add(1, SERVICE_REFUSAL);
        }
        measured = endpoint.answered(status);
      } else {
        errorType = attempt.failure().map(e -> e.getClass().getName()).orElse("_OTHER");
        measured = endpoint.failed(errorType);
      }
      if (errorType != null) {
        span.setAttribute(ERROR_TYPE, errorType);
        span.setStatus(StatusCode.ERROR);
      }
      requestDuration.record(attempt.took().toNanos() / 1e9, measured);
      span.end();
    }
  }

  /** The endpoint of an attempt: one per method and origin, its attributes built once. */
  private Endpoint endpoint(String method, String url) {
    int scheme = url.indexOf("://");
    int path = scheme < 0 ? -1 : url.indexOf('/', scheme + 3);
    String key = method + ' ' + (path < 0 ? url : url.substring(0, path));
    Endpoint known = endpoints.get(key);
    if (known == null) {
      known = new Endpoint(method, URI.create(url));
      // A client calls one origin or a few; the bound keeps a stray one from growing the map.
      if (endpoints.size() < MAX_ENDPOINTS) {
        endpoints.putIfAbsent(key, known);
      }
    }
    return known;
  }

  private static final class Endpoint {
    final String spanName;
    final String methodOriginal;
    final Attributes common;
    final boolean userInfo;
    // The duration's attributes per status and per failure, few of each.
    final AtomicReferenceArray<Attributes> byStatus = new AtomicReferenceArray<>(600);
    final Map<String, Attributes> byFailure = new ConcurrentHashMap<>();

    Endpoint(String method, URI url) {
      boolean known = KNOWN_METHODS.contains(method);
      this.spanName = known ? method : "HTTP";
      this.methodOriginal = known ? null : method;
      this.common =
          Attributes.builder()
              .put(METHOD, known ? method : "_OTHER")
              .put(SERVER_ADDRESS, url.getHost())
              .put(SERVER_PORT, port(url))
              .build();
      this.userInfo = url.getRawUserInfo() != null;
    }

    String urlFull(String url) {
      return userInfo ? withoutUserInfo(URI.create(url)) : url;
    }

    Attributes answered(int status) {
      if (status >= byStatus.length()) {
        return common.toBuilder().put(STATUS, (long) status).build();
      }
      Attributes attributes = byStatus.get(status);
      if (attributes == null) {
        AttributesBuilder builder = common.toBuilder().put(STATUS, (long) status);
        if (status >= 400) {
          builder.put(ERROR_TYPE, Integer.toString(status));
        }
        attributes = builder.build();
        byStatus.set(status, attributes);
      }
      return attributes;
    }

    Attributes failed(String errorType) {
      return byFailure.computeIfAbsent(
          errorType, type -> common.toBuilder().put(ERROR_TYPE, type).build());
    }
  }

  @Override
  public void stateChanged(StateChange change) {
    Attributes state = state(change.set().state().value());
    setsByState.add(1, state);
    change
        .previous()
        .ifPresent(
            previous -> {
              Attributes was = state(previous.value());
              setsByState.add(-1, was);
              change.timeInPrevious().ifPresent(took -> timeInState.record(seconds(took), was));
            });
    change.seenWithin().ifPresent(lag -> pollLag.record(seconds(lag), state));
  }

  @Override
  public void paused(String origin, Duration pause) {
    pauses.add(1);
  }

  @Override
  public void heldBack(String origin, Duration retryAfter) {
    refusals.add(1, Attributes.of(REFUSED_BY, "client"));
  }

  /**
   * A state as a metric attribute: the service's few states as they are; anything longer or odder
   * (the digest a saved wait keeps for a state it cannot hold) as {@code _OTHER}, so that a state's
   * +1 and -1 always meet and the series stay few.
   */
  static Attributes state(String value) {
    boolean plain = !value.isEmpty() && value.length() <= 64;
    for (int i = 0; plain && i < value.length(); i++) {
      char c = value.charAt(i);
      plain = c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_';
    }
    return Attributes.of(STATE, plain ? value : "_OTHER");
  }

  private static double seconds(Duration duration) {
    return duration.toNanos() / 1e9;
  }

  private static long port(URI url) {
    if (url.getPort() > 0) {
      return url.getPort();
    }
    return "http".equalsIgnoreCase(url.getScheme()) ? 80 : 443;
  }

  /** The URL as the SDK gives it (never a query), without user info should one be there. */
  private static String withoutUserInfo(URI url) {
    if (url.getRawUserInfo() == null) {
      return url.toString();
    }
    return url.getScheme()
        + "://"
        + url.getHost()
        + (url.getPort() > 0 ? ":" + url.getPort() : "")
        + Optional.ofNullable(url.getRawPath()).orElse("");
  }
}
