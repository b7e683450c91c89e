package io.formation.sdk.bench;

import io.formation.sdk.FormationClient;
import java.time.Duration;
import okhttp3.OkHttpClient;

/**
 * The one OkHttp configuration both sides of a benchmark use: the baseline calls it directly, and
 * the SDK gets it through {@link FormationClient.Builder#httpClient}. Its timeouts are the SDK's
 * defaults, so the client the SDK derives from it has the same settings as the baseline's.
 */
final class SharedHttp {
  static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(10);
  static final Duration READ_TIMEOUT = Duration.ofSeconds(30);
  static final Duration WRITE_TIMEOUT = Duration.ofSeconds(30);
  static final Duration CALL_TIMEOUT = Duration.ofSeconds(60);

  private SharedHttp() {}

  static OkHttpClient okHttp() {
    return new OkHttpClient.Builder()
        .connectTimeout(CONNECT_TIMEOUT)
        .readTimeout(READ_TIMEOUT)
        .writeTimeout(WRITE_TIMEOUT)
        .callTimeout(CALL_TIMEOUT)
        .build();
  }

  /** An SDK client on the shared OkHttp client, its timeouts set to the same values. */
  static FormationClient sdk(String baseUrl, OkHttpClient http) {
    return FormationClient.builder()
        .baseUrl(baseUrl)
        .accessToken(LocalServer.TOKEN)
        .httpClient(http)
        .connectTimeout(CONNECT_TIMEOUT)
        .readTimeout(READ_TIMEOUT)
        .writeTimeout(WRITE_TIMEOUT)
        .callTimeout(CALL_TIMEOUT)
        .build();
  }

  /** Shuts down what an OkHttp client holds, so a run ends with no stray threads. */
  static void release(OkHttpClient http) {
    http.dispatcher().executorService().shutdown();
    http.connectionPool().evictAll();
  }
}
