package io.formation.recipes;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.formation.sandbox.FormationSandbox;
import io.formation.sdk.DocumentSets;
import io.formation.sdk.FormationClient;
import io.formation.sdk.ValidationException;
import io.formation.sdk.model.DocumentSet;
import io.formation.sdk.model.Form;

/**
 * Handling a 422: the service rejects values with one message per field, keyed by the JSON Pointer
 * of the value (here {@code /directors/0/email}), so each message can be shown at its field and the
 * corrected values sent again.
 */
public final class FieldErrors {
  private FieldErrors() {}

  public static void main(String[] args) throws Exception {
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
      run(client);
    }
  }

  static void run(FormationClient client) throws Exception {
    DocumentSet set = client.documentSets().create(DocumentSets.DELAWARE_CORPORATION);
    Form people =
        client.forms().list(set.id()).stream()
            .filter(form -> form.id().equals("people"))
            .findFirst()
            .orElseThrow();
    ObjectNode values =
        (ObjectNode)
            new ObjectMapper()
                .readTree(
                    """
                    {"directors": [{"name": "Ada Lovelace", "email": "ada at example.com"}],
                     "officers": [{"name": "Ada Lovelace", "title": "CEO", "email": "ada@example.com"}]}
                    """);
    try {
      client.forms().submit(people, values);
    } catch (ValidationException e) {
      // In a page: show each message next to the field its pointer names.
      e.messagesByPointer()
          .forEach(
              (pointer, message) ->
                  System.out.println(pointer + " = " + values.at(pointer) + ": " + message));
      ((ObjectNode) values.at("/directors/0")).put("email", "ada@example.com");
      client.forms().submit(people, values);
      System.out.println("accepted after the correction");
    }
  }
}
