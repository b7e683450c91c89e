package io.formation.tracking;

import io.formation.sandbox.SandboxTemplates;
import io.formation.sdk.DocumentSets;
import io.formation.sdk.FormationClient;
import io.formation.sdk.model.Form;

/** A document set made as a partner's user makes one: created, then every form submitted. */
final class SubmittedSets {
  private SubmittedSets() {}

  static String one(FormationClient client) {
    String id = created(client);
    submitEveryForm(client, id);
    return id;
  }

  /** A set just created: its forms wait for their values. */
  static String created(FormationClient client) {
    return client.documentSets().create(DocumentSets.DELAWARE_CORPORATION).id();
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
