package io.formation.examples;

import com.fasterxml.jackson.databind.JsonNode;
import io.formation.sdk.FormationClient;
import io.formation.sdk.PollOptions;
import io.formation.sdk.PollResult;
import io.formation.sdk.ValidationException;
import io.formation.sdk.WaitState;
import io.formation.sdk.model.DocumentSet;
import io.formation.sdk.model.Form;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The two halves of the partner workflow that {@code quickstart} and {@code status --wait} share:
 * submitting forms through their own actions, and waiting for completion while filling in again
 * whatever the service asks for on the way. The wait is the SDK's: every rule (the grace after a
 * submission, backoff, deadline) is in its {@code poll}; this class only prints and sleeps.
 */
final class Workflow {
  // Times the service may ask for input again (after a review, say) before we give up.
  private static final int MAX_ROUNDS = 5;
  private static final Duration TIMEOUT = Duration.ofMinutes(10);

  private final FormationClient client;
  private final FormFiller filler;
  private final Cli cli;

  Workflow(FormationClient client, FormFiller filler, Cli cli) {
    this.client = client;
    this.filler = filler;
    this.cli = cli;
  }

  /**
   * Completes every form's values first, so that a field nothing covers stops the run before any
   * form is submitted; then submits each through its own action.
   */
  void fillAndSubmit(List<Form> forms) {
    List<Form> open = new ArrayList<>();
    List<JsonNode> values = new ArrayList<>();
    for (Form form : forms) {
      if (form.actions().isEmpty()) {
        cli.out.println("# form " + form.id() + " takes no values now; skipped");
      } else {
        open.add(form);
        values.add(filler.complete(form));
      }
    }
    for (int i = 0; i < open.size(); i++) {
      submit(open.get(i), values.get(i));
    }
  }

  /** Submits through the form's own action; on a terminal, a person corrects what is rejected. */
  private void submit(Form form, JsonNode values) {
    while (true) {
      try {
        client.forms().submit(form, values);
        cli.out.println("# submitted " + form.id());
        return;
      } catch (ValidationException e) {
        JsonNode corrected =
            cli.interactive ? filler.correct(form, values, e.messagesByPointer()) : values;
        if (corrected.equals(values)) {
          throw new FormRejected(form.id(), values, e);
        }
        values = corrected;
      }
    }
  }

  /** Starts a wait for the set, which knows of the submissions this run made, and follows it. */
  DocumentSet awaitCompletion(String id) {
    return awaitCompletion(client.documentSets().startWait(id, options()));
  }

  /**
   * Follows a wait, one SDK poll at a time, until the set is complete, printing each state as it is
   * seen and, at the start and after each change, the wait as a string {@code status --resume}
   * takes back. When the service asks for input (the SDK says so once its grace after the last
   * submission is over, or at once when the set comes back to {@code input_needed}), the forms
   * whose values no longer fit their schema are filled in and submitted again (all of them if none
   * is found wanting), the wait is told of the submission, and it goes on.
   */
  DocumentSet awaitCompletion(WaitState wait) {
    PollOptions options = options();
    printResume(wait);
    int rounds = 0;
    while (true) {
      PollResult result = client.documentSets().poll(wait, options);
      wait = result.waitState();
      if (result.kind() == PollResult.Kind.COMPLETE) {
        return result.set().orElseThrow();
      }
      // Acted on whether told by this poll or by one before a resume.
      if (result.needsInput()) {
        if (++rounds > MAX_ROUNDS) {
          throw new IllegalStateException(
              "document set "
                  + wait.setId()
                  + " still needs input after "
                  + MAX_ROUNDS
                  + " rounds");
        }
        cli.out.println("# document set " + wait.setId() + " needs input again");
        List<Form> forms = client.forms().list(wait.setId());
        List<Form> asked =
            forms.stream().filter(f -> !f.actions().isEmpty() && !FormFiller.fits(f)).toList();
        fillAndSubmit(asked.isEmpty() ? forms : asked);
        wait = wait.withSubmission(Instant.now());
        printResume(wait);
      } else if (result.kind() == PollResult.Kind.CHANGED) {
        printResume(wait);
      }
      pause(result.nextPollIn());
    }
  }

  /** Often enough to see each state of the sandbox (700 ms by default). */
  private PollOptions options() {
    return PollOptions.builder()
        .initialInterval(cli.firstPoll)
        .multiplier(1.1)
        .maxInterval(cli.firstPoll.multipliedBy(4))
        .timeout(TIMEOUT)
        .onStateChange(this::print)
        .build();
  }

  /** {@code <id><TAB><state>}: the SDK calls this once per change of state. */
  private void print(DocumentSet set) {
    cli.out.println(set.id() + "\t" + set.state().value());
    cli.out.flush();
  }

  private void printResume(WaitState wait) {
    cli.out.println(
        "# to resume this wait: status " + wait.setId() + " --wait --resume " + wait.encode());
  }

  private static void pause(Duration wait) {
    try {
      Thread.sleep(wait.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while waiting", e);
    }
  }
}
