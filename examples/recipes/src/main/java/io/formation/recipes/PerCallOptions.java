package io.formation.recipes;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.formation.sandbox.FormationSandbox;
import io.formation.sdk.CreateDocumentSetParams;
import io.formation.sdk.DocumentSets;
import io.formation.sdk.FormationClient;
import io.formation.sdk.RequestOptions;
import io.formation.sdk.model.DocumentSet;
import io.formation.sdk.model.Form;
import java.nio.file.Path;
import java.time.Duration;
import java.util.UUID;

/**
 * Settings for some calls only: a {@code withOptions} view of a service sends its calls with a
 * timeout of their own, extra headers or a number of retries. An idempotency key is not among them:
 * it belongs to one create, so it goes with that create's params (without one, the SDK makes one
 * per create); the create's retries carry it and no other request does.
 */
public final class PerCallOptions {
  private PerCallOptions() {}

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
      run(client, answers);
    }
  }

  static void run(FormationClient client, JsonNode answers) {
    String correlationId = UUID.randomUUID().toString();
    RequestOptions tagged =
        RequestOptions.builder().header("X-Correlation-Id", correlationId).build();
    RequestOptions quick =
        RequestOptions.builder()
            .timeout(Duration.ofSeconds(5)) // each attempt, instead of the client's callTimeout
            .maxRetries(4) // instead of the client's maxRetries
            .header("X-Correlation-Id", correlationId)
            .build();
    String orderId = "order-" + correlationId; // your own id for this one formation
    DocumentSet set =
        client
            .documentSets()
            .withOptions(tagged)
            .create(
                CreateDocumentSetParams.of(DocumentSets.DELAWARE_CORPORATION)
                    .withIdempotencyKey(orderId));
    for (Form form : client.forms().withOptions(quick).list(set.id())) {
      client.forms().withOptions(quick).submit(form, answers.get(form.id()));
    }
    System.out.println(set.id() + " created and filled in, correlation id " + correlationId);
  }
}
