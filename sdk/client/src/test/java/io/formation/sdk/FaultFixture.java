package io.formation.sdk;

import io.formation.testkit.FakeTime;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/** A fresh fault server for each test, and the client under test closed after it. */
abstract class FaultFixture {
  FaultServer server;
  FormationClient client;
  final FakeTime time = new FakeTime();

  @BeforeEach
  void startServer() throws Exception {
    server = new FaultServer();
  }

  @AfterEach
  void closeClientAndServer() {
    if (client != null) {
      client.close();
    }
    server.close();
  }
}
