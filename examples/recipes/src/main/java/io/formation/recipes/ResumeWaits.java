package io.formation.recipes;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.formation.sandbox.FormationSandbox;
import io.formation.sdk.DocumentSets;
import io.formation.sdk.FormationClient;
import io.formation.sdk.PollOptions;
import io.formation.sdk.WaitState;
import io.formation.sdk.model.DocumentSet;
import io.formation.sdk.model.Form;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;

/**
 * Waits that survive a restart: a formation takes days, so save each set's wait (a {@link
 * WaitState}, a string of about 100 bytes) in your own store (here a file) and, after a restart or
 * on another instance, resume every wait where it stopped: the same deadline, backoff and grace
 * after the last submission, the first polls spread so the restart causes no burst.
 */
public final class ResumeWaits {
  private ResumeWaits() {}

  public static void main(String[] args) throws Exception {
    Path file = Path.of(args.length > 0 ? args[0] : "examples/recipes/answers.json");
    JsonNode answers = new ObjectMapper().readTree(file.toFile());
    Path inFlight = Files.createTempFile("formations-in-flight", ".txt");
    // FORMATION_BASE_URL unset: the embedded sandbox stands in for the service.
    boolean local = System.getenv(FormationClient.BASE_URL_ENV) == null;
    try (FormationSandbox sandbox = local ? FormationSandbox.start() : null) {
      try (FormationClient client = connect(sandbox)) {
        for (int i = 0; i < 3; i++) {
          start(client, answers, inFlight);
        }
      }
      // The process restarts here: only the file is left.
      try (FormationClient client = connect(sandbox)) {
        resume(client, inFlight);
      }
    }
  }

  private static FormationClient connect(FormationSandbox sandbox) {
    return sandbox == null
        ? FormationClient.fromEnv()
        : FormationClient.builder().baseUrl(sandbox.baseUrl()).accessToken(sandbox.token()).build();
  }

  static void start(FormationClient client, JsonNode answers, Path inFlight) throws Exception {
    DocumentSet set = client.documentSets().create(DocumentSets.DELAWARE_CORPORATION);
    for (Form form : client.forms().list(set.id())) {
      client.forms().submit(form, answers.get(form.id()));
    }
    // Started after the submissions, the wait counts its input_needed grace from them.
    WaitState wait = client.documentSets().startWait(set.id(), PollOptions.defaults());
    Files.writeString(inFlight, wait.encode() + "\n", StandardOpenOption.APPEND);
  }

  static void resume(FormationClient client, Path inFlight) throws Exception {
    // In production: first polls spread over minutes (docs/workflow.md); here seconds.
    PollOptions resumed =
        PollOptions.builder().firstPollWithin(Duration.ofSeconds(3)).build(); // no burst
    CompletableFuture<?>[] waits =
        Files.readAllLines(inFlight).stream()
            .map(WaitState::decode) // each wait where it stopped
            .map(
                wait ->
                    client
                        .documentSets()
                        .awaitCompletionAsync(wait, resumed)
                        .thenAccept(done -> System.out.println(done.id() + " is complete")))
            .toArray(CompletableFuture<?>[]::new);
    CompletableFuture.allOf(waits).join();
  }
}
