package io.formation.sdk;

import io.formation.sdk.internal.Port;
import io.formation.sdk.internal.guards.Checks;
import io.formation.sdk.internal.guards.Compatibility;
import io.formation.sdk.internal.guards.Log;
import io.formation.sdk.internal.guards.Origins;
import io.formation.sdk.internal.limits.RetryPolicy;
import io.formation.sdk.internal.limits.Throttle;
import io.formation.sdk.internal.time.SchedulerSleeper;
import io.formation.sdk.internal.time.Time;
import io.formation.sdk.internal.transport.HttpClients;
import io.formation.sdk.internal.transport.Transport;
import io.formation.sdk.internal.transport.Version;
import java.util.concurrent.ExecutorService;
import okhttp3.OkHttpClient;

/** What a {@link FormationClient} is made of, built from its builder, and closed with it. */
final class Parts {
  final String baseUrl;
  final Transport transport;
  final OkHttpClient ownHttp;
  final SchedulerSleeper scheduler = new SchedulerSleeper();
  final ExecutorService ownCompletions;
  final Throttle throttle;
  final ExecutorService exchanges;
  final Teams teams;
  final DocumentSets documentSets;
  final Forms forms;
  final Events events;

  Parts(FormationClient.Builder builder) {
    // Too old a Kotlin stdlib, OkHttp 4 or too old a Jackson fails here, with the fix.
    Compatibility.check();
    if (builder.baseUrl == null) {
      throw Port.illegalState("baseUrl is required");
    }
    if (builder.tokenProvider == null) {
      throw Port.illegalState("an accessToken or a tokenProvider is required");
    }
    if (builder.accessToken != null) {
      Checks.headerValue("accessToken", builder.accessToken);
    }
    Log log = Log.fromEnvironment();
    this.events = new Events(builder.listener, builder.tracer, log);
    Origins origins =
        new Origins(builder.baseUrl, builder.trustedOrigins, builder.allowInsecureHttp, events);
    this.baseUrl = origins.base().toString();
    this.ownHttp = builder.httpClient == null ? HttpClients.own(origins.count()) : null;
    OkHttpClient http =
        HttpClients.withTimeouts(
            builder.httpClient == null ? ownHttp : builder.httpClient,
            builder.connectTimeout,
            builder.readTimeout,
            builder.writeTimeout,
            builder.callTimeout);
    Time time =
        new Time(
            builder.clock,
            builder.ticker,
            builder.sleeper != null ? builder.sleeper : scheduler,
            builder.random);
    RetryPolicy retryPolicy =
        new RetryPolicy(builder.maxRetries, builder.maxRetryAfter, builder.callTimeout, time);
    this.ownCompletions =
        builder.completionExecutor == null ? HttpClients.completions(scheduler) : null;
    this.throttle =
        new Throttle(time, retryPolicy, events, builder.budgetPerSecond, builder.budgetBurst);
    this.exchanges = builder.sharedLimit == null ? null : SharedLimits.exchanges();
    if (exchanges != null) {
      throttle.shareWith(new SharedLimits(builder.sharedLimit, log), exchanges, origins.base());
    }
    this.transport =
        new Transport(
            http,
            origins,
            new Tokens(builder.tokenProvider),
            retryPolicy,
            throttle,
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

  void close() {
    throttle.close();
    if (exchanges != null) {
      exchanges.shutdownNow();
    }
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
}
