package io.formation.sdk;

import static io.formation.sdk.Fixtures.ok;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.formation.sdk.model.Page;
import io.formation.sdk.model.Team;
import io.formation.testkit.FakeTime;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;
import mockwebserver3.junit5.StartStop;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class TeamsTest {
  @StartStop final MockWebServer server = new MockWebServer();
  final FakeTime time = new FakeTime();

  static final String CURSOR_LINK = "/v1/teams?page%5Bsize%5D=2&page%5Bafter%5D=a%2Fb%3D%3D~x";

  @Test
  void pagerFollowsTheNextLinkVerbatimUntilItIsNull() throws Exception {
    server.enqueue(ok(page(List.of("t1", "t2"), "\"" + CURSOR_LINK + "\"")));
    server.enqueue(ok(page(List.of("t3"), "null")));
    try (FormationClient client = TestClients.client(server, time)) {
      assertThat(client.teams().list().pageSize(2).stream().map(Team::id))
          .containsExactly("t1", "t2", "t3");
    }
    RecordedRequest first = server.takeRequest();
    assertThat(first.getTarget()).isEqualTo("/v1/teams?page%5Bsize%5D=2");
    assertThat(first.getMethod()).isEqualTo("GET");
    assertThat(server.takeRequest().getTarget()).isEqualTo(CURSOR_LINK);
    assertThat(server.getRequestCount()).isEqualTo(2);
  }

  @Test
  void pagerFollowsAnAbsoluteNextLinkOnTheSameOrigin() throws Exception {
    String absolute = server.url("/v1/teams").toString() + "?page[after]=opaque%20cursor";
    server.enqueue(ok(page(List.of("t1"), "\"" + absolute + "\"")));
    server.enqueue(ok(page(List.of("t2"), "null")));
    try (FormationClient client = TestClients.client(server, time)) {
      assertThat(client.teams().list().stream().count()).isEqualTo(2);
    }
    server.takeRequest();
    assertThat(server.takeRequest().getTarget()).isEqualTo("/v1/teams?page[after]=opaque%20cursor");
  }

  @Test
  void pagerFetchesNothingUntilIterationNeedsAPage() throws Exception {
    server.enqueue(ok(page(List.of("t1", "t2"), "\"" + CURSOR_LINK + "\"")));
    server.enqueue(ok(page(List.of("t3"), "null")));
    try (FormationClient client = TestClients.client(server, time)) {
      Pager<Team> pager = client.teams().list();
      Iterator<Team> teams = pager.iterator();
      assertThat(server.getRequestCount()).isZero();
      assertThat(teams.next().id()).isEqualTo("t1");
      assertThat(teams.next().id()).isEqualTo("t2");
      assertThat(server.getRequestCount()).isEqualTo(1);
      assertThat(teams.next().id()).isEqualTo("t3");
      assertThat(server.getRequestCount()).isEqualTo(2);
      assertThat(teams.hasNext()).isFalse();
    }
  }

  @Test
  void aStreamThatStopsEarlyFetchesNoFurtherPage() {
    server.enqueue(ok(page(List.of("t1", "t2"), "\"" + CURSOR_LINK + "\"")));
    try (FormationClient client = TestClients.client(server, time)) {
      assertThat(client.teams().list().stream().limit(2).map(Team::id)).containsExactly("t1", "t2");
    }
    assertThat(server.getRequestCount()).isEqualTo(1);
  }

  @Test
  void aNextLinkThatRepeatsAVisitedPageFailsInsteadOfLooping() {
    server.enqueue(ok(page(List.of("t1"), "\"" + CURSOR_LINK + "\"")));
    server.enqueue(ok(page(List.of("t2"), "\"/v1/teams\"")));
    try (FormationClient client = TestClients.client(server, time)) {
      Iterator<Team> teams = client.teams().list().iterator();
      assertThat(teams.next().id()).isEqualTo("t1");
      assertThat(teams.next().id()).isEqualTo("t2");
      assertThatThrownBy(teams::hasNext)
          .isInstanceOf(InvalidResponseException.class)
          .hasMessageContaining("repeats a page already visited")
          .hasMessageContaining("/v1/teams");
    }
    assertThat(server.getRequestCount()).isEqualTo(2);
  }

  @Test
  void aPageKeepsTheDocumentAsServedWithItsNullLinksAndMeta() {
    server.enqueue(
        ok(
            "{\"data\": [{\"type\": \"teams\", \"id\": \"t1\", \"attributes\": {\"name\": \"A\"}}],"
                + " \"links\": {\"self\": \"/v1/teams\", \"prev\": null, \"next\": null},"
                + " \"meta\": {\"count\": 1}}"));
    try (FormationClient client = TestClients.client(server, time)) {
      Page<Team> page = client.teams().list().pages().iterator().next();
      assertThat(page.raw().path("meta").path("count").asInt()).isEqualTo(1);
      assertThat(page.raw().path("links").has("prev")).isTrue();
      assertThat(page.raw().path("links").get("prev").isNull()).isTrue();
    }
  }

  @Test
  void aRepeatedNextLinkIsNamedInTheFailureWithoutItsQuery() {
    String secret = "/v1/teams?page%5Bafter%5D=c1&signature=s3cr3t";
    for (int i = 0; i < 4; i++) {
      server.enqueue(ok(page(List.of("t" + i), "\"" + secret + "\"")));
    }
    try (FormationClient client = TestClients.client(server, time)) {
      assertThatThrownBy(() -> client.teams().list().stream().count())
          .isInstanceOf(InvalidResponseException.class)
          .hasMessageContaining("repeats a page already visited")
          .hasMessageContaining("/v1/teams?<redacted>")
          .hasMessageNotContaining("s3cr3t");
    }
  }

  @Test
  void aLongerCycleOfNextLinksIsCaughtToo() {
    // a -> b -> c -> d -> b: the pager must stop, having fetched only a bounded few pages more.
    server.enqueue(ok(page(List.of("a"), "\"/v1/teams?c=b\"")));
    server.enqueue(ok(page(List.of("b"), "\"/v1/teams?c=c\"")));
    server.enqueue(ok(page(List.of("c"), "\"/v1/teams?c=d\"")));
    for (int i = 0; i < 4; i++) {
      server.enqueue(ok(page(List.of("d"), "\"/v1/teams?c=b\"")));
      server.enqueue(ok(page(List.of("b"), "\"/v1/teams?c=c\"")));
      server.enqueue(ok(page(List.of("c"), "\"/v1/teams?c=d\"")));
    }
    try (FormationClient client = TestClients.client(server, time)) {
      assertThatThrownBy(() -> client.teams().list().stream().count())
          .isInstanceOf(InvalidResponseException.class)
          .hasMessageContaining("repeats a page already visited");
    }
    assertThat(server.getRequestCount()).isLessThanOrEqualTo(8);
  }

  @Test
  void emptyPagesInTheMiddleAreSkipped() {
    server.enqueue(ok(page(List.of(), "\"" + CURSOR_LINK + "\"")));
    server.enqueue(ok(page(List.of("t1"), "null")));
    try (FormationClient client = TestClients.client(server, time)) {
      assertThat(client.teams().list().stream().map(Team::id)).containsExactly("t1");
    }
  }

  @ParameterizedTest
  @ValueSource(ints = {0, -1, 101, Integer.MAX_VALUE})
  void pageSizeOutsideOneToOneHundredIsRejected(int size) {
    try (FormationClient client = TestClients.client(server, time)) {
      assertThatThrownBy(() -> client.teams().list().pageSize(size))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessage("page size must be between 1 and 100, was " + size);
    }
    assertThat(server.getRequestCount()).isZero();
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 100})
  void pageSizeAtTheBoundsIsSent(int size) throws Exception {
    server.enqueue(ok(page(List.of(), "null")));
    try (FormationClient client = TestClients.client(server, time)) {
      client.teams().list().pageSize(size).pages().iterator().next();
    }
    assertThat(server.takeRequest().getUrl().queryParameter("page[size]")).isEqualTo("" + size);
  }

  @Test
  void pagesExposeTheirItemsAndLinks() {
    server.enqueue(ok(page(List.of("t1"), "\"" + CURSOR_LINK + "\"")));
    server.enqueue(ok(page(List.of("t2"), "null")));
    try (FormationClient client = TestClients.client(server, time)) {
      Iterator<Page<Team>> pages = client.teams().list().pages().iterator();
      Page<Team> first = pages.next();
      assertThat(first.items()).extracting(Team::id).containsExactly("t1");
      assertThat(first.links().next()).contains(CURSOR_LINK);
      assertThat(first.links().self()).contains("/v1/teams");
      assertThat(first.links().prev()).isEmpty();
      assertThat(first.hasNext()).isTrue();
      Page<Team> second = pages.next();
      assertThat(second.hasNext()).isFalse();
      assertThat(pages.hasNext()).isFalse();
    }
  }

  @Test
  void aListingResumesFromASavedNextLink() throws Exception {
    server.enqueue(ok(page(List.of("t3"), "null")));
    try (FormationClient client = TestClients.client(server, time)) {
      assertThat(client.teams().list().startingAt(CURSOR_LINK).stream().map(Team::id))
          .containsExactly("t3");
    }
    assertThat(server.takeRequest().getTarget()).isEqualTo(CURSOR_LINK);
  }

  @Test
  void aSavedLinkOnAnotherOriginIsRefusedAtOnce() {
    try (FormationClient client = TestClients.client(server, time)) {
      assertThatThrownBy(
              () -> client.teams().list().startingAt("https://evil.example/v1/teams?page[after]=x"))
          .isInstanceOf(UntrustedOriginException.class)
          .hasMessageContaining("https://evil.example:443");
    }
    assertThat(server.getRequestCount()).isZero();
  }

  @Test
  void aTeamKeepsAttributesTheSdkDoesNotModel() {
    server.enqueue(
        ok(
            "{\"data\":[{\"type\":\"teams\",\"id\":\"t1\",\"attributes\":{\"name\":\"One\",\"region\":\"eu\"},\"meta\":{\"plan\":\"pro\"}}],\"links\":{\"next\":null}}"));
    try (FormationClient client = TestClients.client(server, time)) {
      Team team = client.teams().list().iterator().next();
      assertThat(team.name()).isEqualTo("One");
      assertThat(team.attribute("region")).map(n -> n.asText()).contains("eu");
      assertThat(team.raw().path("meta").path("plan").asText()).isEqualTo("pro");
    }
  }

  @Test
  void pagesCanBeFetchedWithoutBlocking() throws Exception {
    server.enqueue(ok(page(List.of("t1"), "\"" + CURSOR_LINK + "\"")));
    server.enqueue(ok(page(List.of("t2"), "null")));
    try (FormationClient client = TestClients.client(server, time)) {
      Pager<Team> pager = client.teams().list();
      Page<Team> first = pager.firstPageAsync().get();
      Optional<Page<Team>> second = pager.nextPageAsync(first).get();
      assertThat(second).map(p -> p.items().get(0).id()).contains("t2");
      assertThat(pager.nextPageAsync(second.get()).get()).isEmpty();
    }
    server.takeRequest();
    assertThat(server.takeRequest().getTarget()).isEqualTo(CURSOR_LINK);
  }

  @Test
  void aCollectionWithoutADataArrayIsAnInvalidResponse() {
    server.enqueue(ok("{\"teams\":[]}"));
    try (FormationClient client = TestClients.client(server, time)) {
      assertThatThrownBy(() -> client.teams().list().iterator().hasNext())
          .isInstanceOf(InvalidResponseException.class)
          .hasMessageContaining("data array");
    }
  }

  static String page(List<String> ids, String next) {
    StringBuilder data = new StringBuilder();
    for (String id : ids) {
      if (data.length() > 0) {
        data.append(',');
      }
      data.append("{\"type\":\"teams\",\"id\":\"")
          .append(id)
          .append("\",\"attributes\":{\"name\":\"Team ")
          .append(id)
          .append("\"}}");
    }
    return "{\"data\":["
        + data
        + "],\"links\":{\"self\":\"/v1/teams\",\"first\":\"/v1/teams?page%5Bsize%5D=2\",\"prev\":null,\"next\":"
        + next
        + ",\"last\":null}}";
  }
}
