package io.formation.sdk.internal.transport;

import io.formation.sdk.internal.time.SchedulerSleeper;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import okhttp3.ConnectionPool;
import okhttp3.Dispatcher;
import okhttp3.OkHttpClient;

/** The OkHttp client and the completion executor a client owns when given none. */
public final class HttpClients {
  private static final int MAX_REQUESTS = 64;
  private static final int MAX_REQUESTS_PER_HOST = 16;

  private HttpClients() {}

  /**
   * A client whose dispatcher has as many daemon threads as calls may run at once, no more, and as
   * many idle connections as calls to one origin; OkHttp's own executor keeps more threads.
   */
  public static OkHttpClient own(int origins) {
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
    return new OkHttpClient.Builder()
        .dispatcher(dispatcher)
        .connectionPool(new ConnectionPool(MAX_REQUESTS_PER_HOST, 5, TimeUnit.MINUTES))
        .build();
  }

  /** The client derived from {@code base} with the client's four timeouts. */
  public static OkHttpClient withTimeouts(
      OkHttpClient base, Duration connect, Duration read, Duration write, Duration call) {
    return base.newBuilder()
        .connectTimeout(connect)
        .readTimeout(read)
        .writeTimeout(write)
        .callTimeout(call)
        .build();
  }

  /** The completion executor a client owns; it looks for held threads on the client's scheduler. */
  public static ExecutorService completions(SchedulerSleeper scheduler) {
    return new CompletionExecutor(scheduler);
  }
}
