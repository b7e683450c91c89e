package io.formation.recipes;

import io.formation.sandbox.FormationSandbox;
import io.formation.sdk.FormationClient;
import io.formation.sdk.model.Page;
import io.formation.sdk.model.Team;

/**
 * Listing the teams the token can act for: the pager follows the service's {@code links.next}
 * exactly as returned, one page in memory at a time, and can stop and resume from a saved link.
 */
public final class ListTeams {
  private ListTeams() {}

  public static void main(String[] args) {
    // FORMATION_BASE_URL unset: the embedded sandbox stands in for the service.
    boolean local = System.getenv(FormationClient.BASE_URL_ENV) == null;
    try (FormationSandbox sandbox = local ? FormationSandbox.start() : null;
        FormationClient client =
            local
                ? FormationClient.builder()
                    .baseUrl(sandbox.baseUrl())
                    .accessToken(sandbox.token())
                    .build()
                : FormationClient.fromEnv()) {
      run(client);
    }
  }

  static void run(FormationClient client) {
    for (Team team : client.teams().list()) { // lazy: one page in memory at a time
      System.out.println(team.id() + "\t" + team.name());
    }

    long named =
        client.teams().list().pageSize(100).stream() // 1..100, service default 50
            .filter(team -> team.name().startsWith("A"))
            .count();
    System.out.println(named + " teams' names start with A");

    Page<Team> first = client.teams().list().pages().iterator().next(); // one page, with links
    String resumeAt = first.links().next().orElseThrow(); // keep it, even across a restart
    for (Team team : client.teams().list().startingAt(resumeAt)) {
      System.out.println("resumed: " + team.id() + "\t" + team.name());
    }
  }
}
