package io.formation.examples;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.formation.examples.cli.Args;
import io.formation.examples.cli.Autofill;
import io.formation.examples.cli.CommandLine;
import io.formation.examples.cli.Prompter;
import io.formation.sdk.FormationClient;
import io.formation.sdk.InputNeededException;
import io.formation.sdk.ValidationException;
import io.formation.sdk.model.DocumentSet;
import io.formation.sdk.model.Form;
import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code quickstart}: the partner workflow from start to finish.
 *
 * <ol>
 *   <li>create a document set from the template;
 *   <li>fetch its forms, and complete each one's values: the form's current values, then the
 *       answers file, then sample data ({@code --autofill}) or questions to the user;
 *   <li>submit each form through its own action, asking again for what the service rejects;
 *   <li>poll until the set is complete, printing each state as it is seen.
 * </ol>
 *
 * The last line is {@code complete <id>}.
 */
final class QuickstartCommand implements Cli.Command {
  // Rounds of filling in forms: more only if the service asks for input again after a round.
  private static final int MAX_ROUNDS = 3;

  private final String template;
  private final Answers answers;
  private final boolean autofill;
  private final Prompter prompter;
  private final PrintStream out;

  private QuickstartCommand(
      String template, Answers answers, boolean autofill, Prompter prompter, PrintStream out) {
    this.template = template;
    this.answers = answers;
    this.autofill = autofill;
    this.prompter = prompter;
    this.out = out;
  }

  /**
   * The command for this line; reads the answers file now, so that a bad one fails before anything
   * is created.
   *
   * @param interactive whether to ask for missing values on {@code in} (and again after a 422)
   */
  static QuickstartCommand of(
      CommandLine line, InputStream in, PrintStream out, boolean interactive) {
    Answers answers = line.answers().map(Answers::read).orElseGet(Answers::none);
    Prompter prompter =
        interactive
            ? new Prompter(
                new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8)), out)
            : null;
    return new QuickstartCommand(line.template(), answers, line.autofill(), prompter, out);
  }

  @Override
  public int run(FormationClient client) {
    DocumentSet set = client.documentSets().create(template);
    out.println("# document set " + set.id() + " created (" + set.state().value() + ")");
    set.appLink().ifPresent(link -> out.println("# app: " + link));
    List<Form> forms = client.forms().list(set.id());
    warnAboutUnknownForms(forms);
    Set<String> handled = new HashSet<>();
    for (int round = 1; ; round++) {
      fillAndSubmit(client, forms, handled);
      try {
        DocumentSet done =
            client.documentSets().awaitCompletion(set.id(), StatusCommand.pollOptions(out, false));
        out.println("complete " + done.id());
        return Args.EXIT_SUCCESS;
      } catch (InputNeededException e) {
        // The service may ask for more once it has seen the first answers; fill what is new.
        forms = client.forms().list(set.id());
        if (round == MAX_ROUNDS || forms.stream().allMatch(form -> handled.contains(form.id()))) {
          throw e;
        }
        out.println("# the document set needs more input");
      }
    }
  }

  private void warnAboutUnknownForms(List<Form> forms) {
    Set<String> ids = new HashSet<>();
    forms.forEach(form -> ids.add(form.id()));
    for (String id : answers.formIds()) {
      if (!ids.contains(id)) {
        out.println(
            "# warning: the answers file "
                + answers.source()
                + " has values for form '"
                + id
                + "', which this document set does not have; they are not used");
      }
    }
  }

  /**
   * Completes the values of every form first, so that a field nothing covers stops the run before
   * any form is submitted; then submits each.
   */
  private void fillAndSubmit(FormationClient client, List<Form> forms, Set<String> handled) {
    List<Form> pending = new ArrayList<>();
    List<JsonNode> values = new ArrayList<>();
    for (Form form : forms) {
      if (!handled.add(form.id())) {
        continue;
      }
      if (form.actions().isEmpty()) {
        out.println("# form " + form.id() + " takes no values now; skipped");
        continue;
      }
      pending.add(form);
      values.add(valuesFor(form));
    }
    for (int i = 0; i < pending.size(); i++) {
      submit(client, pending.get(i), values.get(i));
      out.println("# submitted " + pending.get(i).id());
    }
  }

  private JsonNode valuesFor(Form form) {
    JsonNode schema = form.schema();
    JsonNode given = overlay(form.values(), answers.forForm(form.id()).orElse(null));
    if (autofill) {
      int sampled = Autofill.missing(schema, given).size();
      if (sampled > 0) {
        out.println(
            "# "
                + form.id()
                + ": "
                + sampled
                + (sampled == 1 ? " value" : " values")
                + " filled in by --autofill");
      }
      return Autofill.fill(schema, given);
    }
    if (prompter != null) {
      return prompter.fill(form.id(), schema, given);
    }
    return Prompter.requireComplete(form.id(), schema, given);
  }

  /** Submits through the form's own action; a person may correct rejected values and retry. */
  private void submit(FormationClient client, Form form, JsonNode values) {
    while (true) {
      try {
        client.forms().submit(form, values);
        return;
      } catch (ValidationException e) {
        if (prompter == null) {
          throw new FormRejected(form.id(), values, e);
        }
        Map<String, String> messages = e.messagesByPointer();
        JsonNode revised = prompter.reask(form.id(), form.schema(), values, messages);
        if (revised.equals(values)) {
          // Nothing the user can change here would help: the errors name no field we can ask for.
          throw new FormRejected(form.id(), values, e);
        }
        values = revised;
      }
    }
  }

  /** The base values with the given ones laid over them, objects merged field by field. */
  static JsonNode overlay(JsonNode base, JsonNode given) {
    if (given == null || given.isNull() || given.isMissingNode()) {
      return base;
    }
    if (base == null || !base.isObject() || !given.isObject()) {
      return given.deepCopy();
    }
    ObjectNode merged = ((ObjectNode) base).deepCopy();
    for (Map.Entry<String, JsonNode> field : given.properties()) {
      merged.set(field.getKey(), overlay(merged.get(field.getKey()), field.getValue()));
    }
    return merged;
  }
}
