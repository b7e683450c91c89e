package io.formation.recipes;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.formation.sdk.DocumentSets;
import io.formation.sdk.FormationClient;
import io.formation.sdk.model.Form;
import java.nio.file.Path;

public final class HelloFormation {
  public static void main(String[] args) throws Exception {
    JsonNode answers = new ObjectMapper().readTree(Path.of(args[0]).toFile()); // form id -> values
    try (FormationClient client = FormationClient.fromEnv()) {
      var set = client.documentSets().create(DocumentSets.DELAWARE_CORPORATION);
      for (Form form : client.forms().list(set.id())) {
        client.forms().submit(form, answers.get(form.id())); // through the form's own action
      }
      var done = client.documentSets().awaitCompletion(set.id());
      System.out.println(done.id() + " is " + done.state().value());
    }
  }
}
