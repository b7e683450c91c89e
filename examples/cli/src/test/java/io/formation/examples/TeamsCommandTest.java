package io.formation.examples;

import static org.assertj.core.api.Assertions.assertThat;

import io.formation.sandbox.FormationSandbox;
import io.formation.sandbox.SandboxOptions;
import io.formation.sandbox.SandboxRequest;
import io.formation.sdk.FormationClient;
import io.formation.sdk.model.Page;
import io.formation.sdk.model.Team;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

final class TeamsCommandTest {
  private FormationSandbox sandbox;

  @BeforeEach
  void start() {
    sandbox = FormationSandbox.start();
  }

  @AfterEach
  void stop() {
    sandbox.close();
  }

  @Test
  void teamsPrintsEveryTeamAsIdTabNameAndEveryOtherLineAsAComment() {
    ProgramRun run = ProgramRun.against(sandbox, "teams");

    assertThat(run.code()).as(run.toString()).isZero();
    assertThat(run.err()).isEmpty();
    List<String> teams = run.results();
    assertThat(teams)
        .hasSize(SandboxOptions.DEFAULT_TEAM_COUNT)
        .allMatch(line -> line.matches("team_[a-z0-9]+\t[^\t]+"));
    assertThat(teams.stream().map(line -> line.split("\t")[0])).doesNotHaveDuplicates();
    assertThat(run.outLines())
        .filteredOn(line -> !teams.contains(line))
        .isNotEmpty()
        .allMatch(line -> line.startsWith("#"));
    assertThat(run.lastLine()).isEqualTo("# 120 teams");
  }

  @Test
  void teamsFetchesSeveralPagesFollowingEachNextLinkAsReturned() {
    ProgramRun run = ProgramRun.against(sandbox, "teams");
    assertThat(run.code()).as(run.toString()).isZero();

    List<String> paths =
        sandbox.requests().stream()
            .filter(request -> request.path().equals("/v1/teams"))
            .map(SandboxRequest::target)
            .toList();
    assertThat(paths).hasSizeGreaterThan(1);
    // The same sandbox issues the same links: read page one's next link with the SDK.
    try (FormationClient client =
        FormationClient.builder().baseUrl(sandbox.baseUrl()).accessToken(sandbox.token()).build()) {
      Page<Team> first = client.teams().list().pageSize(100).pages().iterator().next();
      assertThat(paths.get(1)).isEqualTo(first.links().next().orElseThrow());
    }
  }

  @Test
  void aTeamNameWithTabsOrLineBreaksStaysOnOneLine() {
    assertThat(TeamsCommand.oneLine("Acme\tRobotics\nEast")).isEqualTo("Acme Robotics East");
  }
}
