package io.formation.examples;

import io.formation.sdk.Pager;
import io.formation.sdk.model.Team;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/** {@code teams}: one {@code <id><TAB><name>} line per team, printed as the pages arrive. */
@Command(
    name = "teams",
    header = "Lists the teams the access token can act for.",
    description = {
      "Lists the teams the access token can act on behalf of, following the "
          + "service's pages to the end. The token needs the documentSets.read "
          + "scope.",
      ""
    })
final class TeamsCommand implements Callable<Integer> {
  @ParentCommand private Cli cli;
  @Spec private CommandSpec spec;
  @Mixin private Cli.HelpOption help;

  @Override
  public Integer call() {
    return cli.withClient(
        spec,
        client -> {
          int count = 0;
          // The largest page the service allows: fewest round trips. The pager follows links.next.
          for (Team team : client.teams().list().pageSize(Pager.MAX_PAGE_SIZE)) {
            cli.out.println(team.id() + "\t" + oneLine(team.name()));
            count++;
          }
          cli.out.println("# " + count + (count == 1 ? " team" : " teams"));
          return 0;
        });
  }

  /** A tab or a line break in a name would break the one-team-per-line format. */
  static String oneLine(String text) {
    return text.replaceAll("\\p{Cntrl}", " ");
  }
}
