package io.formation.recipes;

import io.formation.sdk.ApiResponse;
import io.formation.sdk.CreateDocumentSetParams;
import io.formation.sdk.DocumentSets;
import io.formation.sdk.FormationClient;
import io.formation.sdk.PollOptions;
import io.formation.sdk.PollResult;
import io.formation.sdk.WaitState;
import io.formation.sdk.model.ActionResult;
import io.formation.sdk.model.DocumentSet;
import io.formation.sdk.model.Form;
import io.formation.sdk.model.Page;
import io.formation.sdk.model.Team;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;

/**
 * The docs' java blocks that are not part of a recipe, compiled here (DocsCodeTest checks that each
 * block appears in a compiled source) and run by DocSnippetsTest where the sandbox can.
 */
final class DocSnippets {
  private DocSnippets() {}

  /** docs/workflow.md, "A client". */
  static FormationClient client() {
    FormationClient client =
        FormationClient.builder()
            .baseUrl("https://api.example.com") // or FormationClient.fromEnv()
            .accessToken(System.getenv("FORMATION_ACCESS_TOKEN"))
            .build();
    return client;
  }

  /** docs/workflow.md, "Saved waits": a wait saved once the forms are submitted. */
  static WaitState save(FormationClient client, DocumentSet set, Path inFlight) throws IOException {
    PollOptions days =
        PollOptions.builder()
            .initialInterval(Duration.ofSeconds(30)) // a set filing for days needs no 1 s polls
            .maxInterval(Duration.ofMinutes(5))
            .timeout(Duration.ofDays(30))
            .build();
    WaitState wait = client.documentSets().startWait(set.id(), days); // knows the submissions
    Files.writeString(inFlight, wait.encode() + "\n", StandardOpenOption.APPEND);
    return wait;
  }

  /** docs/workflow.md, "Saved waits": waits resumed after a restart, from their strings. */
  static void resume(FormationClient client, Path inFlight) throws IOException {
    PollOptions resumed =
        PollOptions.builder()
            .firstPollWithin(Duration.ofMinutes(2)) // overdue first polls spread over two minutes
            .onStateChange(set -> System.out.println(set.id() + " is " + set.state().value()))
            .build();
    for (String saved : Files.readAllLines(inFlight)) { // one WaitState.encode() per set
      client
          .documentSets()
          .awaitCompletionAsync(WaitState.decode(saved), resumed)
          .thenAccept(done -> System.out.println(done.id() + " is complete"));
    }
  }

  /** docs/workflow.md, "One poll at a time": the step a scheduler of your own runs. */
  static Instant pollOnce(
      FormationClient client, Map<String, String> waits, String id, PollOptions options) {
    PollResult result = client.documentSets().poll(WaitState.decode(waits.get(id)), options);
    switch (result.kind()) {
      case COMPLETE -> System.out.println(id + " is complete");
      case INPUT_NEEDED -> System.out.println(result.failure().orElseThrow().getMessage());
      case CHANGED -> System.out.println(id + " is " + result.set().orElseThrow().state());
      case UNCHANGED, FAILED_TRANSIENTLY, FAILED -> {}
    }
    waits.put(id, result.waitState().encode()); // saved before the next poll is scheduled
    return result.nextPollAt(); // run this again then (unless complete)
  }

  /** docs/debugging.md: status, headers and request id of a successful call. */
  static ApiResponse<Page<Team>> withResponse(FormationClient client, Form form, Object values) {
    ApiResponse<DocumentSet> created =
        client
            .documentSets()
            .withResponse()
            .create(CreateDocumentSetParams.of(DocumentSets.DELAWARE_CORPORATION));
    System.out.println(created.value().id() + ", request id " + created.requestId().orElse("none"));
    ApiResponse<ActionResult> sent = client.forms().withResponse().submit(form, values);
    ApiResponse<Page<Team>> first = client.teams().withResponse().page(null); // or a links.next
    System.out.println(sent.statusCode());
    return first;
  }
}
