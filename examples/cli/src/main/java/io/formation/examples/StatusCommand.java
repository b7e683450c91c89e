package io.formation.examples;

import io.formation.sdk.model.DocumentSet;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code status <id>}: prints {@code <id><TAB><state>}; with {@code --wait}, one such line per
 * state until the set is complete, then {@code complete <id>}.
 */
@Command(
    name = "status",
    header = "Shows the state of a document set; --wait polls until complete.",
    description = {
      "Shows the state of the document set <id>. With --wait, polls until it "
          + "is complete; when the service asks for input on the way, fills in the "
          + "forms it asks for as quickstart does.",
      ""
    })
final class StatusCommand implements Callable<Integer> {
  @ParentCommand private Cli cli;
  @Spec private CommandSpec spec;
  @Mixin private Cli.HelpOption help;
  @Mixin private FormFiller.Options fill;

  @Parameters(paramLabel = "<id>", description = "The document set's id")
  private String id;

  @Option(names = "--wait", description = "Poll until the document set is complete")
  private boolean waitUntilComplete;

  @Override
  public Integer call() {
    FormFiller filler = new FormFiller(cli, spec, fill);
    return cli.withClient(
        spec,
        client -> {
          if (waitUntilComplete) {
            DocumentSet done = new Workflow(client, filler, cli).awaitCompletion(id);
            cli.out.println("complete " + done.id());
          } else {
            DocumentSet set = client.documentSets().get(id);
            cli.out.println(set.id() + "\t" + set.state().value());
            set.appLink().ifPresent(link -> cli.out.println("# app: " + link));
          }
          return 0;
        });
  }
}
