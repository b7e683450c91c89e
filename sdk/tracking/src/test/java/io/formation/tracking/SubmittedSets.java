package io.formation.tracking;

import io.formation.sandbox.SandboxTemplates;
import io.formation.sdk.DocumentSets;
import io.formation.sdk.FormationClient;
import io.formation.sdk.model.Form;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/** Document sets made as a partner's users make them: created, then every form submitted. */
final class SubmittedSets {
  private SubmittedSets() {}

  static String one(FormationClient client) {
    String id = client.documentSets().create(DocumentSets.DELAWARE_CORPORATION).id();
    for (Form form : client.forms().list(id)) {
      client
          .forms()
          .submit(
              form,
              SandboxTemplates.form(SandboxTemplates.DELAWARE_CORPORATION, form.id())
                  .orElseThrow()
                  .example());
    }
    return id;
  }

  static List<String> many(FormationClient client, int count, int threads) {
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      List<CompletableFuture<String>> made = new ArrayList<>();
      for (int i = 0; i < count; i++) {
        made.add(CompletableFuture.supplyAsync(() -> one(client), pool));
      }
      return made.stream().map(CompletableFuture::join).toList();
    } finally {
      pool.shutdownNow();
    }
  }
}
