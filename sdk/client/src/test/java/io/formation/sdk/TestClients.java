package io.formation.sdk;

import io.formation.sdk.internal.time.Sleeper;
import io.formation.sdk.internal.time.TestSleepers;
import io.formation.testkit.FakeTime;
import java.io.IOException;
import java.util.function.DoubleSupplier;
import mockwebserver3.MockWebServer;

/** Clients wired to a MockWebServer with fake time and no jitter, as the tests need them. */
final class TestClients {
  static final String TOKEN = "secret-token-123";

  private TestClients() {}

  /** A builder for the server, with fake time and jitter fixed at its maximum. */
  static FormationClient.Builder builder(MockWebServer server, FakeTime time) {
    return builder(server.url("/").toString(), time);
  }

  /** A builder for the base URL and {@link #TOKEN}, with fake time and jitter at its maximum. */
  static FormationClient.Builder builder(String baseUrl, FakeTime time) {
    return fakeTime(FormationClient.builder().baseUrl(baseUrl).accessToken(TOKEN), time);
  }

  /** A client for the server on real time, its own threads and scheduler, as a partner's. */
  static FormationClient realTime(MockWebServer server) {
    return FormationClient.builder().baseUrl(server.url("/").toString()).accessToken(TOKEN).build();
  }

  /** Fake time and jitter fixed at its maximum: retries and polls never wait for real. */
  static FormationClient.Builder fakeTime(FormationClient.Builder builder, FakeTime time) {
    builder.clock = time;
    builder.ticker = time::nanoTime;
    return random(sleeper(builder, TestSleepers.of(time::sleep, time::delay)), () -> 1.0);
  }

  /** The builder, its waits on this sleeper. */
  static FormationClient.Builder sleeper(FormationClient.Builder builder, Sleeper sleeper) {
    builder.sleeper = sleeper;
    return builder;
  }

  /** The builder, its jitter drawn from this random. */
  static FormationClient.Builder random(FormationClient.Builder builder, DoubleSupplier random) {
    builder.random = random;
    return builder;
  }

  /** A client for the server's address once the server is closed: every connection is refused. */
  static FormationClient refusedBy(MockWebServer server, FakeTime time) throws IOException {
    String url = "http://127.0.0.1:" + server.getPort();
    server.close();
    return builder(url, time).build();
  }

  static FormationClient client(MockWebServer server, FakeTime time) {
    return builder(server, time).build();
  }
}
