package io.formation.examples;

import java.io.IOException;
import java.io.PrintStream;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import okhttp3.Dispatcher;
import okhttp3.Interceptor;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.Response;

/**
 * What {@code --debug} adds on standard error: lines starting with {@code #}, among them one per
 * HTTP exchange with method, URL, status and duration. The token is never shown: the SDK adds the
 * Authorization header in its own last network interceptor, after this log's, so the log only says
 * whether the header went out.
 */
final class DebugLog {
  private static final DebugLog OFF = new DebugLog(null);

  private final PrintStream err;

  private DebugLog(PrintStream err) {
    this.err = err;
  }

  static DebugLog off() {
    return OFF;
  }

  static DebugLog to(PrintStream err) {
    return new DebugLog(err);
  }

  boolean enabled() {
    return err != null;
  }

  void log(String message) {
    if (err != null) {
      err.println("# " + message);
      err.flush();
    }
  }

  /**
   * An OkHttp client that logs each exchange, for {@code FormationClient.Builder.httpClient}. Its
   * dispatcher runs on daemon threads; release it with {@link #shutdown}, as the SDK leaves a
   * caller's client alone when it closes.
   */
  OkHttpClient httpClient() {
    AtomicInteger count = new AtomicInteger();
    ExecutorService executor =
        Executors.newCachedThreadPool(
            runnable -> {
              Thread thread = new Thread(runnable, "examples-http-" + count.incrementAndGet());
              thread.setDaemon(true);
              return thread;
            });
    return new OkHttpClient.Builder()
        .dispatcher(new Dispatcher(executor))
        .addNetworkInterceptor(new RequestLog(this))
        .build();
  }

  static void shutdown(OkHttpClient http) {
    if (http != null) {
      http.dispatcher().cancelAll();
      http.dispatcher().executorService().shutdown();
      http.connectionPool().evictAll();
    }
  }

  /** One line per request on the wire, redirects and retries included. */
  private static final class RequestLog implements Interceptor {
    private final DebugLog log;

    RequestLog(DebugLog log) {
      this.log = log;
    }

    @Override
    public Response intercept(Chain chain) throws IOException {
      Request request = chain.request();
      long start = System.nanoTime();
      String exchange = "http " + request.method() + " " + request.url();
      try {
        Response response = chain.proceed(request);
        // The SDK adds the token after this interceptor and hides it from the response too, so
        // there is nothing here to redact.
        log.log(exchange + " -> " + response.code() + " in " + millis(start) + " ms");
        return response;
      } catch (IOException e) {
        log.log(exchange + " failed after " + millis(start) + " ms: " + e);
        throw e;
      }
    }

    private static long millis(long start) {
      return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
    }
  }
}
