package io.formation.recipes;

import io.formation.sdk.ApiResponse;
import io.formation.sdk.CreateDocumentSetParams;
import io.formation.sdk.DocumentSets;
import io.formation.sdk.FormationClient;
import io.formation.sdk.PollOptions;
import io.formation.sdk.model.ActionResult;
import io.formation.sdk.model.DocumentSet;
import io.formation.sdk.model.Form;
import io.formation.sdk.model.Page;
import io.formation.sdk.model.Team;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

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

  /** docs/workflow.md, "Thousands of formations in flight": waits resumed after a restart. */
  static void resume(FormationClient client, Path inFlight) throws IOException {
    PollOptions resumed =
        PollOptions.builder()
            .firstPollWithin(Duration.ofMinutes(2)) // first polls spread over two minutes
            .initialInterval(Duration.ofSeconds(30)) // a set filing for days needs no 1 s polls
            .maxInterval(Duration.ofMinutes(5))
            .timeout(Duration.ofDays(30))
            .onStateChange(set -> System.out.println(set.id() + " is " + set.state().value()))
            .build();
    for (String id : Files.readAllLines(inFlight)) { // the ids you kept at each create
      client
          .documentSets()
          .awaitCompletionAsync(id, resumed)
          .thenAccept(done -> System.out.println(done.id() + " is complete"));
    }
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
