package io.formation.examples;

import io.formation.examples.cli.Args;
import io.formation.sdk.FormationClient;
import io.formation.sdk.Pager;
import io.formation.sdk.model.Team;
import java.io.PrintStream;

/**
 * {@code teams}: every team the token can act for, one {@code <id><TAB><name>} line each, printed
 * as the pages arrive; every other line starts with {@code #}.
 */
final class TeamsCommand implements Cli.Command {
  private final PrintStream out;

  TeamsCommand(PrintStream out) {
    this.out = out;
  }

  @Override
  public int run(FormationClient client) {
    int count = 0;
    // The largest page the service allows: fewest round trips; the pager follows links.next.
    for (Team team : client.teams().list().pageSize(Pager.MAX_PAGE_SIZE)) {
      out.println(team.id() + "\t" + oneLine(team.name()));
      count++;
    }
    out.println("# " + count + (count == 1 ? " team" : " teams"));
    return Args.EXIT_SUCCESS;
  }

  /** A name with a tab or a line break would break the one-team-per-line format. */
  static String oneLine(String text) {
    return text.replaceAll("\\p{Cntrl}", " ");
  }
}
