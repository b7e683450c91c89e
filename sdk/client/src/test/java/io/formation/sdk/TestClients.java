package io.formation.sdk;

import mockwebserver3.MockWebServer;

/** Clients wired to a MockWebServer with fake time and no jitter, as the tests need them. */
final class TestClients {
  static final String TOKEN = "secret-token-123";

  private TestClients() {}

  /** A builder for the server, with fake time and jitter fixed at its maximum. */
  static FormationClient.Builder builder(MockWebServer server, FakeTime time) {
    return FormationClient.builder()
        .baseUrl(server.url("/").toString())
        .accessToken(TOKEN)
        .clock(time)
        .ticker(time)
        .sleeper(time)
        .random(() -> 1.0);
  }

  static FormationClient client(MockWebServer server, FakeTime time) {
    return builder(server, time).build();
  }
}
