package io.formation.sdk;

import static org.assertj.core.api.Assertions.assertThat;

import io.formation.sdk.model.Team;
import java.util.List;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;
import mockwebserver3.junit5.StartStop;
import org.junit.jupiter.api.Test;

class TeamsTest {
  @StartStop final MockWebServer server = new MockWebServer();
  final FakeTime time = new FakeTime();

  @Test
  void listsTeamsFollowingNextLinks() throws Exception {
    server.enqueue(json("{\"data\":[{\"type\":\"teams\",\"id\":\"t1\",\"attributes\":{\"name\":\"One\"}}],\"links\":{\"next\":\"/v1/teams?page%5Bafter%5D=abc\"}}"));
    server.enqueue(json("{\"data\":[{\"type\":\"teams\",\"id\":\"t2\",\"attributes\":{\"name\":\"Two\"}}],\"links\":{\"next\":null}}"));
    try (FormationClient client = TestClients.client(server, time)) {
      List<Team> teams = client.teams().list().stream().toList();
      assertThat(teams).extracting(Team::name).containsExactly("One", "Two");
    }
    RecordedRequest first = server.takeRequest();
    assertThat(first.getTarget()).isEqualTo("/v1/teams");
    assertThat(first.getHeaders().get("Authorization")).isEqualTo("Bearer " + TestClients.TOKEN);
    assertThat(server.takeRequest().getTarget()).isEqualTo("/v1/teams?page%5Bafter%5D=abc");
  }

  static MockResponse json(String body) {
    return new MockResponse.Builder()
        .code(200)
        .addHeader("Content-Type", "application/vnd.api+json")
        .body(body)
        .build();
  }
}
