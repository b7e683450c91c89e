package it.consumer;

import com.fasterxml.jackson.databind.JsonNode;
import io.formation.sdk.DocumentSets;
import io.formation.sdk.FormationClient;
import io.formation.sdk.PollOptions;
import io.formation.sdk.model.DocumentSet;
import io.formation.sdk.model.Form;
import java.util.function.Function;

/** A partner's code: forms a company with the values its user gave for each form. */
public final class Onboarding {
  private final FormationClient client;

  public Onboarding(FormationClient client) {
    this.client = client;
  }

  public DocumentSet formCompany(Function<String, JsonNode> valuesByFormId) {
    DocumentSet set = client.documentSets().create(DocumentSets.DELAWARE_CORPORATION);
    for (Form form : client.forms().list(set.id())) {
      client.forms().submit(form, valuesByFormId.apply(form.id()));
    }
    return client
        .documentSets()
        .awaitCompletion(set.id(), PollOptions.builder().waitThroughInputNeeded(true).build());
  }
}
