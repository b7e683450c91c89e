package io.formation.recipes;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.formation.sandbox.FormationSandbox;
import io.formation.sdk.DocumentSets;
import io.formation.sdk.FormationClient;
import io.formation.sdk.PollOptions;
import io.formation.sdk.model.DocumentSet;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * Many formations at once, without a thread each: every step is a {@code CompletableFuture}, and
 * the waits between polls share the client's one scheduler thread.
 */
public final class ManySetsAsync {
  private ManySetsAsync() {}

  public static void main(String[] args) throws Exception {
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
      run(client, answers, 10);
    }
  }

  static void run(FormationClient client, JsonNode answers, int count) {
    List<CompletableFuture<DocumentSet>> formations = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      formations.add(
          client
              .documentSets()
              .createAsync(DocumentSets.DELAWARE_CORPORATION)
              .thenCompose(set -> submitAll(client, set, answers))
              .thenCompose(
                  set ->
                      client
                          .documentSets()
                          .awaitCompletionAsync(set.id(), PollOptions.defaults())));
    }
    for (CompletableFuture<DocumentSet> formation : formations) {
      DocumentSet done = formation.join();
      System.out.println(done.id() + " is " + done.state().value());
    }
  }

  /** Submits every form of the set, all at once, each through its own action. */
  private static CompletableFuture<DocumentSet> submitAll(
      FormationClient client, DocumentSet set, JsonNode answers) {
    return client
        .forms()
        .listAsync(set.id())
        .thenCompose(
            forms ->
                CompletableFuture.allOf(
                    forms.stream()
                        .map(form -> client.forms().submitAsync(form, answers.get(form.id())))
                        .toArray(CompletableFuture<?>[]::new)))
        .thenApply(submitted -> set);
  }
}
