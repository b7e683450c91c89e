package com.example.partner;

import io.formation.sdk.DocumentSets;
import io.formation.sdk.Forms;
import io.formation.sdk.Teams;
import io.formation.sdk.model.DocumentSet;
import io.formation.sdk.model.Form;
import io.formation.sdk.model.Page;
import io.formation.sdk.model.Team;
import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ResponseStatusException;

/** Returns the SDK's models as they are: the starter makes them the JSON the service sent. */
@RestController
class FormationController {
  private final DocumentSets documentSets;
  private final Forms forms;
  private final Teams teams;

  FormationController(DocumentSets documentSets, Forms forms, Teams teams) {
    this.documentSets = documentSets;
    this.forms = forms;
    this.teams = teams;
  }

  @PostMapping("/formations")
  DocumentSet start() {
    return documentSets.create(DocumentSets.DELAWARE_CORPORATION);
  }

  @GetMapping("/formations/{id}")
  DocumentSet formation(@PathVariable("id") String id) {
    return documentSets.get(id);
  }

  @GetMapping("/formations/{id}/forms/{formId}")
  Form form(@PathVariable("id") String id, @PathVariable("formId") String formId) {
    return forms.list(id).stream()
        .filter(form -> form.id().equals(formId))
        .findFirst()
        .orElseThrow(() -> new ResponseStatusException(HttpStatus.NOT_FOUND));
  }

  @GetMapping("/teams")
  Page<Team> teams() {
    return teams.withResponse().page(null).value();
  }
}
