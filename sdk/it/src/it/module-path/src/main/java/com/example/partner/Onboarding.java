package com.example.partner;

import com.fasterxml.jackson.databind.JsonNode;
import io.formation.sdk.DocumentSets;
import io.formation.sdk.FormationClient;
import io.formation.sdk.model.DocumentSet;
import io.formation.sdk.model.Form;
import java.util.function.Function;

/** The partner's code: forms a company, with its own record for the company form. */
public final class Onboarding {
  /** The values of the company form, as this application models them. */
  public record Company(String name, String suffix, String website) {}

  private final FormationClient client;

  public Onboarding(FormationClient client) {
    this.client = client;
  }

  /** Creates a document set, submits every form and waits until the formation is complete. */
  public DocumentSet formCompany(Company company, Function<String, JsonNode> valuesOfOtherForms) {
    DocumentSet set = client.documentSets().create(DocumentSets.DELAWARE_CORPORATION);
    for (Form form : client.forms().list(set.id())) {
      Object values = form.id().equals("company") ? company : valuesOfOtherForms.apply(form.id());
      client.forms().submit(form, values);
    }
    return client.documentSets().awaitCompletion(set.id());
  }

  /** The company form's values as the service holds them. */
  public Company company(String documentSetId) {
    Form form =
        client.forms().list(documentSetId).stream()
            .filter(candidate -> candidate.id().equals("company"))
            .findFirst()
            .orElseThrow();
    return client.forms().valuesAs(form, Company.class);
  }
}
