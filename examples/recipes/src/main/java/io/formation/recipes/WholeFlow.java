package io.formation.recipes;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.formation.sandbox.FormationSandbox;
import io.formation.sdk.DocumentSets;
import io.formation.sdk.FormationClient;
import io.formation.sdk.PollOptions;
import io.formation.sdk.ValidationException;
import io.formation.sdk.model.DocumentSet;
import io.formation.sdk.model.Form;
import java.nio.file.Path;

/**
 * The whole flow: create a document set, submit each form's values through the form's own action,
 * and wait until the set is complete, printing each state as it is seen.
 */
public final class WholeFlow {
  private WholeFlow() {}

  public static void main(String[] args) throws Exception {
    // Each form's values, by form id: in a product, what your user typed.
    Path file = Path.of(args.length > 0 ? args[0] : "examples/recipes/answers.json");
    JsonNode answers = new ObjectMapper().readTree(file.toFile());
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
      run(client, answers);
    }
  }

  static void run(FormationClient client, JsonNode answers) {
    DocumentSets sets = client.documentSets();
    DocumentSet set = sets.create(DocumentSets.DELAWARE_CORPORATION); // 1. create
    set.appLink().ifPresent(link -> System.out.println("App: " + link));
    for (Form form : client.forms().list(set.id())) { // 2. the forms
      JsonNode values = answers.get(form.id()); //    your user's values
      try {
        client.forms().submit(form, values); // 3. its own action
      } catch (ValidationException e) { //    422: per field
        e.messagesByPointer()
            .forEach(
                (pointer, message) -> System.out.println(form.id() + pointer + ": " + message));
      }
    }
    DocumentSet done =
        sets.awaitCompletion(
            set.id(),
            PollOptions.builder() // 4. poll
                .onStateChange(s -> System.out.println(s.state()))
                .build());
    System.out.println(done.id() + " is " + done.state().value());
  }
}
