package io.formation.examples;

import com.fasterxml.jackson.databind.JsonNode;
import io.formation.sdk.FormationClient;
import io.formation.sdk.InputNeededException;
import io.formation.sdk.PollOptions;
import io.formation.sdk.ValidationException;
import io.formation.sdk.model.DocumentSet;
import io.formation.sdk.model.Form;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The two halves of the partner workflow that {@code quickstart} and {@code status --wait} share:
 * submitting forms through their own actions, and waiting for completion while filling in again
 * whatever the service asks for on the way.
 */
final class Workflow {
  // Times the service may ask for input again (after a review, say) before we give up.
  private static final int MAX_ROUNDS = 5;
  private static final Duration TIMEOUT = Duration.ofMinutes(10);

  private final FormationClient client;
  private final FormFiller filler;
  private final Cli cli;
  // What the waits saw: the last state printed, and whether the set got past input_needed.
  private String lastState;
  private boolean movedOn;

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
    movedOn = false;
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

  /**
   * Polls until the set is complete, printing each state as it is seen. When the service asks for
   * input again, the forms whose values no longer fit their schema are filled in and submitted
   * again (all of them if none is found wanting), and the wait goes on.
   */
  DocumentSet awaitCompletion(String id) {
    // Often enough to see each state of the sandbox (700 ms by default), at most once a second.
    PollOptions options =
        PollOptions.builder()
            .initialInterval(cli.firstPoll)
            .multiplier(1.1)
            .maxInterval(cli.firstPoll.multipliedBy(4))
            .timeout(TIMEOUT)
            .onStateChange(this::print)
            .build();
    Instant giveUp = Instant.now().plus(TIMEOUT);
    int rounds = 0;
    while (true) {
      try {
        return client.documentSets().awaitCompletion(id, options);
      } catch (InputNeededException e) {
        List<Form> forms = client.forms().list(id);
        List<Form> asked =
            forms.stream().filter(f -> !f.actions().isEmpty() && !FormFiller.fits(f)).toList();
        if (asked.isEmpty() && !movedOn) {
          // Every value fits and the set has not moved on since: the service is still taking them
          // up (an SDK whose wait ends at the first input_needed lands here at once). Look again.
          pauseOrGiveUp(giveUp, e);
          continue;
        }
        if (++rounds > MAX_ROUNDS) {
          throw e;
        }
        cli.out.println("# document set " + id + " needs input again");
        fillAndSubmit(asked.isEmpty() ? forms : asked);
      }
    }
  }

  /** {@code <id><TAB><state>} once per change, also across the several waits of one run. */
  private void print(DocumentSet set) {
    String state = set.state().value();
    if (!state.equals(lastState)) {
      cli.out.println(set.id() + "\t" + state);
      cli.out.flush();
      lastState = state;
    }
    movedOn |= !set.state().needsInput();
  }

  private void pauseOrGiveUp(Instant giveUp, InputNeededException e) {
    if (Instant.now().isAfter(giveUp)) {
      throw e;
    }
    try {
      Thread.sleep(cli.firstPoll.toMillis());
    } catch (InterruptedException interrupted) {
      Thread.currentThread().interrupt();
      throw e;
    }
  }
}
