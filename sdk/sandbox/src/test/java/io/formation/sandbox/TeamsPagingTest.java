package io.formation.sandbox;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.formation.sandbox.SandboxHttp.Reply;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** GET /v1/teams: a keyset-paginated JSON:API collection. */
final class TeamsPagingTest extends SandboxFixture {
  @Test
  void followingNextLinksWalksEveryTeamOnceAndEndsWithNull() {
    List<String> ids = new ArrayList<>();
    List<Integer> pageSizes = new ArrayList<>();
    String link = "/v1/teams";
    while (link != null) {
      Reply page = http.get(link);
      assertThat(page.status()).isEqualTo(200);
      assertThat(page.contentType()).isEqualTo("application/vnd.api+json");
      JsonNode data = page.json().get("data");
      pageSizes.add(data.size());
      data.forEach(team -> ids.add(team.get("id").asText()));
      JsonNode next = page.json().at("/links/next");
      link = next.isNull() ? null : next.asText();
    }

    assertThat(pageSizes).containsExactly(50, 50, 20);
    assertThat(ids).hasSize(120).doesNotHaveDuplicates();
    assertThat(ids).isSorted();
  }

  @Test
  void teamsAreJsonApiResourcesWithPlausibleNames() {
    JsonNode team = http.get("/v1/teams").json().at("/data/0");

    assertThat(team.get("type").asText()).isEqualTo("teams");
    assertThat(team.get("id").asText()).matches("team_[a-z0-9]{12}");
    assertThat(team.at("/attributes/name").asText()).matches("[A-Z][a-z]+ [A-Z][a-z]+");
  }

  @Test
  void teamNamesAreDistinct() {
    Set<String> names = new HashSet<>();
    http.get("/v1/teams?page%5Bsize%5D=100")
        .json()
        .get("data")
        .forEach(team -> names.add(team.at("/attributes/name").asText()));

    assertThat(names).hasSize(100);
  }

  @Test
  void firstPageLinksCarryThePageSizeAndHaveNoPrevious() {
    JsonNode links = http.get("/v1/teams").json().get("links");

    assertThat(links.get("self").asText()).isEqualTo("/v1/teams?page%5Bsize%5D=50");
    assertThat(links.get("first").asText()).isEqualTo("/v1/teams?page%5Bsize%5D=50");
    assertThat(links.get("prev").isNull()).isTrue();
    assertThat(links.get("next").asText())
        .matches("/v1/teams\\?page%5Bsize%5D=50&page%5Bafter%5D=[A-Za-z0-9_-]+");
    assertThat(links.get("last").asText())
        .startsWith("/v1/teams?page%5Bsize%5D=50&page%5Bafter%5D=");
  }

  @Test
  void lastPageLinksToItselfAsLastAndHasNoNext() {
    JsonNode second = http.get(http.get("/v1/teams").json().at("/links/next").asText()).json();
    JsonNode third = http.get(second.at("/links/next").asText()).json();

    assertThat(third.at("/links/next").isNull()).isTrue();
    assertThat(third.at("/links/last").asText()).isEqualTo(third.at("/links/self").asText());
    assertThat(second.at("/links/last").asText()).isEqualTo(third.at("/links/self").asText());
    assertThat(second.at("/links/prev").asText()).isEqualTo("/v1/teams?page%5Bsize%5D=50");
  }

  @Test
  void prevLinkLeadsBackToThePreviousPage() {
    JsonNode first = http.get("/v1/teams?page%5Bsize%5D=7").json();
    JsonNode second = http.get(first.at("/links/next").asText()).json();
    JsonNode third = http.get(second.at("/links/next").asText()).json();

    JsonNode back = http.get(third.at("/links/prev").asText()).json();

    assertThat(back.get("data")).isEqualTo(second.get("data"));
    assertThat(back.at("/links/self").asText()).isEqualTo(second.at("/links/self").asText());
  }

  @Test
  void cursorIsOpaqueRatherThanAnIndexOrAnId() {
    String next = http.get("/v1/teams").json().at("/links/next").asText();
    String cursor = next.substring(next.indexOf("page%5Bafter%5D=") + "page%5Bafter%5D=".length());
    String lastId = http.get("/v1/teams").json().at("/data/49/id").asText();

    assertThat(cursor).doesNotMatch("[0-9]+").doesNotContain(lastId);
  }

  @ParameterizedTest
  @ValueSource(strings = {"1", "42", "100"})
  void pageSizeWithinBoundsIsHonoured(String size) {
    JsonNode page = http.get("/v1/teams?page%5Bsize%5D=" + size).json();

    assertThat(page.get("data")).hasSize(Integer.parseInt(size));
    assertThat(page.at("/links/first").asText()).isEqualTo("/v1/teams?page%5Bsize%5D=" + size);
  }

  @ParameterizedTest
  @ValueSource(strings = {"0", "101", "-1", "abc", "1.5", "", "99999999999"})
  void pageSizeOutOfBoundsOrNotAnIntegerIsABadRequest(String size) {
    Reply reply = http.get("/v1/teams?page%5Bsize%5D=" + size);

    assertThat(reply.status()).isEqualTo(400);
    assertThat(reply.json().at("/errors/0/status").asText()).isEqualTo("400");
    assertThat(reply.json().at("/errors/0/source/parameter").asText()).isEqualTo("page[size]");
  }

  @ParameterizedTest
  @ValueSource(
      strings = {"abc", "50", "dDF8dGVhbV8wMDAwMDAwMDAwMDB8MDAwMDAwMDAwMDAwMDAwMA", "%25%25"})
  void cursorThatTheSandboxDidNotIssueIsABadRequest(String cursor) {
    Reply reply = http.get("/v1/teams?page%5Bafter%5D=" + cursor);

    assertThat(reply.status()).isEqualTo(400);
    assertThat(reply.json().at("/errors/0/source/parameter").asText()).isEqualTo("page[after]");
  }

  @Test
  void cursorFromAnotherSandboxIsABadRequest() {
    String next = http.get("/v1/teams").json().at("/links/next").asText();
    try (FormationSandbox other = FormationSandbox.start()) {
      assertThat(new SandboxHttp(other).get(next).status()).isEqualTo(400);
    }
  }

  @Test
  void teamCountFollowsTheOptions() {
    try (FormationSandbox small =
        FormationSandbox.start(SandboxOptions.defaults().withTeamCount(3))) {
      JsonNode page = new SandboxHttp(small).get("/v1/teams").json();

      assertThat(page.get("data")).hasSize(3);
      assertThat(page.at("/links/next").isNull()).isTrue();
      assertThat(page.at("/links/last").asText()).isEqualTo("/v1/teams?page%5Bsize%5D=50");
    }
  }

  @Test
  void noTeamsIsAnEmptyCollection() {
    try (FormationSandbox empty =
        FormationSandbox.start(SandboxOptions.defaults().withTeamCount(0))) {
      JsonNode page = new SandboxHttp(empty).get("/v1/teams").json();

      assertThat(page.get("data")).isEmpty();
      assertThat(page.at("/links/next").isNull()).isTrue();
    }
  }
}
