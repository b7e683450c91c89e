package io.formation.examples;

import io.formation.sdk.DocumentSets;
import io.formation.sdk.model.DocumentSet;
import io.formation.sdk.model.Form;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code quickstart}: the partner workflow from start to finish. Creates a document set, fills in
 * and submits each of its forms through the form's own action, then polls until it is complete,
 * printing each state as it is seen. The last line is {@code complete <id>}.
 */
@Command(
    name = "quickstart",
    header = "Forms a company: creates a set, fills in its forms, waits.",
    description = {
      "Creates a document set from a template, fills in each form that needs "
          + "values and submits it through the action the form came with, then "
          + "waits until the set is complete. Values come from the service, then "
          + "--answers, then --autofill or questions on a terminal; without a "
          + "terminal, a required field left open is a usage error.",
      ""
    })
final class QuickstartCommand implements Callable<Integer> {
  @ParentCommand private Cli cli;
  @Spec private CommandSpec spec;
  @Mixin private Cli.HelpOption help;
  @Mixin private FormFiller.Options fill;

  @Option(
      names = "--template",
      paramLabel = "T",
      defaultValue = DocumentSets.DELAWARE_CORPORATION,
      description = "Template to start from (default: ${DEFAULT-VALUE})")
  private String template;

  @Override
  public Integer call() {
    FormFiller filler = new FormFiller(cli, spec, fill);
    return cli.withClient(
        spec,
        client -> {
          DocumentSet set = client.documentSets().create(template);
          cli.out.println("# document set " + set.id() + " created (" + set.state().value() + ")");
          set.appLink().ifPresent(link -> cli.out.println("# app: " + link));

          List<Form> forms = client.forms().list(set.id());
          filler.warnAboutAnswersFor(forms);
          Workflow workflow = new Workflow(client, filler, cli);
          workflow.fillAndSubmit(forms);
          DocumentSet done = workflow.awaitCompletion(set.id());
          cli.out.println("complete " + done.id());
          return 0;
        });
  }
}
