package io.formation.examples;

import io.formation.sdk.WaitState;
import io.formation.sdk.model.DocumentSet;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code status <id>}: prints {@code <id><TAB><state>}; with {@code --wait}, one such line per
 * state until the set is complete, then {@code complete <id>}; with {@code --resume <wait>}, the
 * same, going on with a wait an earlier run printed (the SDK's {@link WaitState} as a string).
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

  @Option(
      names = "--resume",
      paramLabel = "WAIT",
      description =
          "Go on with a wait an earlier run printed ('# to resume this wait: ...'): "
              + "same deadline, backoff and grace; implies --wait")
  private String resume;

  @Override
  public Integer call() {
    // Read before anything starts: a string that is not a saved wait is a usage error.
    WaitState saved = resume == null ? null : WaitState.decode(resume);
    if (saved != null && !saved.setId().equals(id)) {
      throw new ParameterException(
          spec.commandLine(),
          "--resume is a wait for document set " + saved.setId() + ", not for " + id);
    }
    FormFiller filler = new FormFiller(cli, spec, fill);
    return cli.withClient(
        spec,
        client -> {
          if (saved != null || waitUntilComplete) {
            Workflow workflow = new Workflow(client, filler, cli);
            DocumentSet done =
                saved != null ? workflow.awaitCompletion(saved) : workflow.awaitCompletion(id);
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
