package io.formation.examples;

import java.io.IOException;
import java.io.PrintStream;
import java.util.concurrent.TimeUnit;
import okhttp3.OkHttpClient;
import okhttp3.Request;

/**
 * What {@code --debug} adds on standard error: one {@code # http <METHOD> <url> -> <status> in <n>
 * ms} line per request on the wire, retries and redirects included. The SDK adds the token in its
 * own last network interceptor, after this one, so there is no token here to hide.
 */
final class DebugLog {
  private DebugLog() {}

  /** An OkHttp client for {@code FormationClient.Builder.httpClient}; release it with shutdown. */
  static OkHttpClient httpClient(PrintStream err) {
    return new OkHttpClient.Builder()
        .addNetworkInterceptor(
            chain -> {
              Request request = chain.request();
              String exchange = "# http " + request.method() + " " + request.url();
              long start = System.nanoTime();
              try {
                okhttp3.Response response = chain.proceed(request);
                err.println(exchange + " -> " + response.code() + " in " + millis(start) + " ms");
                return response;
              } catch (IOException e) {
                err.println(exchange + " failed after " + millis(start) + " ms: " + e);
                throw e;
              }
            })
        .build();
  }

  /** The SDK leaves a client it was given alone when it closes; this ends its threads. */
  static void shutdown(OkHttpClient http) {
    if (http != null) {
      http.dispatcher().executorService().shutdown();
      http.connectionPool().evictAll();
    }
  }

  private static long millis(long start) {
    return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
  }
}
