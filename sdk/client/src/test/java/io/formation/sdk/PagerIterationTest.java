package io.formation.sdk;

import static io.formation.sdk.Fixtures.ok;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.formation.sdk.model.Team;
import io.formation.testkit.FakeTime;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Spliterator;
import mockwebserver3.MockWebServer;
import mockwebserver3.junit5.StartStop;
import org.junit.jupiter.api.Test;

class PagerIterationTest {
  @StartStop final MockWebServer server = new MockWebServer();
  final FakeTime time = new FakeTime();

  @Test
  void anIteratorWhoseForEachRemainingActionThrewGoesOnWithTheNextItemOfThatPage() {
    server.enqueue(ok(TeamsTest.page(List.of("t1", "t2"), "\"" + TeamsTest.CURSOR_LINK + "\"")));
    server.enqueue(ok(TeamsTest.page(List.of("t3"), "null")));
    try (FormationClient client = TestClients.client(server, time)) {
      Iterator<Team> teams = client.teams().list().iterator();
      assertThatThrownBy(
              () ->
                  teams.forEachRemaining(
                      team -> {
                        throw new IllegalStateException("stop at " + team.id());
                      }))
          .hasMessage("stop at t1");
      assertThat(teams.next().id()).isEqualTo("t2");
      assertThat(server.getRequestCount()).isEqualTo(1);
    }
  }

  @Test
  void splittingAParallelStreamFetchesOnlyThePagesItsBatchOfItemsNeeds() {
    int pages = 12;
    for (int p = 0; p < pages; p++) {
      List<String> ids = new ArrayList<>();
      for (int i = 0; i < Pager.MAX_PAGE_SIZE; i++) {
        ids.add("t" + (p * Pager.MAX_PAGE_SIZE + i));
      }
      String next = p + 1 < pages ? "\"/v1/teams?page%5Bafter%5D=p" + (p + 1) + "\"" : "null";
      server.enqueue(ok(TeamsTest.page(ids, next)));
    }
    try (FormationClient client = TestClients.client(server, time)) {
      Spliterator<Team> teams = client.teams().list().stream().parallel().spliterator();
      assertThat(server.getRequestCount()).isZero();
      assertThat(teams.trySplit()).isNotNull();
      // The JDK splits an iterator by a batch of items, so a split holds a few pages, never all.
      assertThat(server.getRequestCount()).isBetween(1, pages - 1);
    }
  }
}
