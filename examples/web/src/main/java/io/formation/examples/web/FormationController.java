package io.formation.examples.web;

import com.fasterxml.jackson.databind.JsonNode;
import io.formation.sdk.DocumentSets;
import io.formation.sdk.FormationClient;
import io.formation.sdk.model.ActionResult;
import io.formation.sdk.model.DocumentSet;
import io.formation.sdk.model.Form;
import jakarta.servlet.http.HttpSession;
import java.util.List;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.servlet.mvc.method.annotation.SseEmitter;

/**
 * The page's API: start a formation, list its forms, submit one form's values, follow its state.
 * The browser never sees the access token nor an action url: it names a form by id, and the backend
 * looks that form up at the service and calls the form's own action.
 *
 * <p>Requests with a body must be {@code application/json} (anything else is a 415): a page on
 * another site cannot send that without a CORS preflight, and this application allows none.
 */
@RestController
@RequestMapping(path = "/api/formations", produces = MediaType.APPLICATION_JSON_VALUE)
final class FormationController {
  private final FormationClient client;

  FormationController(FormationClient client) {
    this.client = client;
  }

  @PostMapping(consumes = MediaType.APPLICATION_JSON_VALUE)
  @ResponseStatus(HttpStatus.CREATED)
  FormationView start(HttpSession session) {
    // The product decides what is formed; the browser only asks to start.
    DocumentSet set = client.documentSets().create(DocumentSets.DELAWARE_CORPORATION);
    SessionFormations.remember(session, set.id());
    return FormationView.of(set);
  }

  @GetMapping("/{id}/forms")
  List<FormView> forms(@PathVariable String id, HttpSession session) {
    SessionFormations.require(session, id);
    return client.forms().list(id).stream().map(FormView::of).toList();
  }

  @PostMapping(path = "/{id}/forms/{formId}", consumes = MediaType.APPLICATION_JSON_VALUE)
  FormView submit(
      @PathVariable String id,
      @PathVariable String formId,
      @RequestBody JsonNode values,
      HttpSession session) {
    SessionFormations.require(session, id);
    // Fetched now, not remembered: the service may have reopened the form under a new action.
    Form form =
        client.forms().list(id).stream()
            .filter(candidate -> candidate.id().equals(formId))
            .findFirst()
            .orElseThrow(() -> NotHere.form(id, formId));
    if (form.actions().isEmpty()) {
      throw new FormClosed(formId);
    }
    ActionResult result = client.forms().submit(form, values);
    return result
        .form()
        .map(FormView::of)
        .orElseGet(() -> new FormView(form.id(), form.schema(), form.uiSchema(), values));
  }

  @GetMapping(path = "/{id}/events", produces = MediaType.TEXT_EVENT_STREAM_VALUE)
  SseEmitter events(@PathVariable String id, HttpSession session) {
    SessionFormations.require(session, id);
    return ProgressStream.follow(client.documentSets(), id);
  }
}
