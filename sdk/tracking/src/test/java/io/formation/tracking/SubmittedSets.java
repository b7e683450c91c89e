package io.formation.tracking;

import io.formation.sandbox.SandboxTemplates;
import io.formation.sdk.DocumentSets;
import io.formation.sdk.FormationClient;
import io.formation.sdk.model.Form;

/** A document set made as a partner's user makes one: created, then every form submitted. */
final class SubmittedSets {
  private SubmittedSets() {}

  static String one(FormationClient client) {
    String id = client.documentSets().create(DocumentSets.DELAWARE_CORPORATION).id();
    submitEveryForm(client, id);
    return id;
  }

  /** Submits each form of the set with its template's example values. */
  static void submitEveryForm(FormationClient client, String id) {
    for (Form form : client.forms().list(id)) {
      client
          .forms()
          .submit(
              form,
              SandboxTemplates.form(SandboxTemplates.DELAWARE_CORPORATION, form.id())
                  .orElseThrow()
                  .example());
    }
  }
}
