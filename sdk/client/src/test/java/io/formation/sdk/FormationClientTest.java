package io.formation.sdk;

import static io.formation.sdk.Fixtures.ok;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.formation.testkit.FakeTime;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import mockwebserver3.MockWebServer;
import mockwebserver3.junit5.StartStop;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.Response;
import org.junit.jupiter.api.Test;

class FormationClientTest {
  @StartStop final MockWebServer server = new MockWebServer();
  final FakeTime time = new FakeTime();

  @Test
  void buildingWithoutABaseUrlOrTokenSaysWhatIsMissing() {
    assertThatThrownBy(() -> FormationClient.builder().accessToken("t").build())
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("baseUrl is required");
    assertThatThrownBy(() -> FormationClient.builder().baseUrl("https://api.example.com").build())
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("an accessToken or a tokenProvider is required");
    assertThatThrownBy(() -> FormationClient.builder().accessToken(" "))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(
            () -> FormationClient.builder().baseUrl("not a url").accessToken("t").build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("not an http(s) URL");
  }

  @Test
  void fromEnvReadsTheBaseUrlAndToken() throws Exception {
    server.enqueue(ok(TransportTest.SET));
    try (FormationClient client =
        FormationClient.fromEnv(
            Map.of(
                "FORMATION_BASE_URL",
                server.url("/").toString(),
                "FORMATION_ACCESS_TOKEN",
                "env-token"))) {
      client.documentSets().get("ds1");
    }
    assertThat(server.takeRequest().getHeaders().get("Authorization"))
        .isEqualTo("Bearer env-token");
    assertThatThrownBy(
            () -> FormationClient.fromEnv(Map.of("FORMATION_BASE_URL", "https://x.example")))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("The environment variable FORMATION_ACCESS_TOKEN is not set");
  }

  @Test
  void aCallerSuppliedOkHttpClientIsSharedWithoutSwitchingSdkBehaviourOff() throws Exception {
    AtomicInteger seen = new AtomicInteger();
    OkHttpClient shared =
        new OkHttpClient.Builder()
            .addInterceptor(
                chain -> {
                  seen.incrementAndGet();
                  return chain.proceed(chain.request());
                })
            .build();
    server.enqueue(Fixtures.jsonApi(503, ""));
    server.enqueue(ok(TransportTest.SET));
    try (FormationClient client = TestClients.builder(server, time).httpClient(shared).build()) {
      client.documentSets().get("ds1");
    }
    assertThat(seen).hasValue(2);
    assertThat(time.sleeps()).hasSize(1);
    server.takeRequest();
    assertThat(server.takeRequest().getHeaders().get("Authorization"))
        .isEqualTo("Bearer " + TestClients.TOKEN);

    // Closing the FormationClient leaves the caller's client, pool and dispatcher usable.
    server.enqueue(ok("{}"));
    try (Response response =
        shared.newCall(new Request.Builder().url(server.url("/ping")).build()).execute()) {
      assertThat(response.code()).isEqualTo(200);
    }
  }

  @Test
  void callsAfterCloseFailClearly() {
    FormationClient client = TestClients.client(server, time);
    client.close();
    client.close();
    assertThatThrownBy(() -> client.documentSets().get("ds1"))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("closed");
    assertThat(client.documentSets().getAsync("ds1")).isCompletedExceptionally();
    assertThat(server.getRequestCount()).isZero();
  }

  @Test
  void closeCancelsACallInFlightWhichIsNotRetried() throws Exception {
    server.enqueue(ok(TransportTest.SET).newBuilder().bodyDelay(1, TimeUnit.HOURS).build());
    FormationClient client = TestClients.client(server, time);
    java.util.concurrent.CompletableFuture<Throwable> failure =
        java.util.concurrent.CompletableFuture.supplyAsync(
            () -> {
              try {
                client.documentSets().get("ds1");
                return null;
              } catch (RuntimeException e) {
                return e;
              }
            });
    // The request has reached the server; its body will not come for an hour.
    assertThat(server.takeRequest(10, TimeUnit.SECONDS)).isNotNull();
    client.close();
    assertThat(failure.get(30, TimeUnit.SECONDS))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("closed during GET");
    assertThat(server.getRequestCount()).isEqualTo(1);
    assertThat(time.sleeps()).isEmpty();
  }

  @Test
  void closeReleasesTheSdksThreads() throws Exception {
    server.enqueue(ok(TransportTest.SET));
    server.enqueue(Fixtures.jsonApi(503, ""));
    server.enqueue(ok(TransportTest.SET));
    FormationClient client =
        FormationClient.builder()
            .baseUrl(server.url("/").toString())
            .accessToken("t")
            .maxRetryAfter(Duration.ZERO)
            .build();
    client.documentSets().getAsync("ds1").get(10, TimeUnit.SECONDS);
    client.documentSets().getAsync("ds1").get(10, TimeUnit.SECONDS);
    assertThat(sdkThreads()).isNotEmpty().allMatch(Thread::isDaemon);
    client.close();
    for (Thread thread : sdkThreads()) {
      thread.join(10_000);
    }
    assertThat(sdkThreads()).isEmpty();
  }

  @Test
  void aJvmRunningOnlyAClosedClientExits() throws Exception {
    server.enqueue(ok(TransportTest.SET));
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    Process process =
        new ProcessBuilder(
                java,
                "-cp",
                System.getProperty("java.class.path"),
                ExitProbe.class.getName(),
                server.url("/").toString())
            .redirectErrorStream(true)
            .start();
    // The bound only keeps a broken build from hanging; the assertion is that the JVM exits.
    boolean exited = process.waitFor(60, TimeUnit.SECONDS);
    if (!exited) {
      process.destroyForcibly();
    }
    String output = new String(process.getInputStream().readAllBytes());
    assertThat(exited).as("JVM exited; output: %s", output).isTrue();
    assertThat(process.exitValue()).as(output).isZero();
    assertThat(output).contains("got ds1");
  }

  @Test
  void theUserAgentNamesTheSdkAndRuntime() throws Exception {
    server.enqueue(ok(TransportTest.SET));
    try (FormationClient client = TestClients.client(server, time)) {
      client.documentSets().get("ds1");
    }
    assertThat(server.takeRequest().getHeaders().get("User-Agent"))
        .matches("formation-java/\\d+\\.\\d+\\.\\d+(-SNAPSHOT)? java/.+");
  }

  private static java.util.List<Thread> sdkThreads() {
    return Thread.getAllStackTraces().keySet().stream()
        .filter(t -> t.getName().startsWith("formation-") && t.isAlive())
        .toList();
  }

  /** Runs in a child JVM: one call with a fresh client, close, and return from main. */
  static final class ExitProbe {
    public static void main(String[] args) {
      FormationClient client = FormationClient.builder().baseUrl(args[0]).accessToken("t").build();
      System.out.println("got " + client.documentSets().get("ds1").id());
      client.close();
    }
  }
}
