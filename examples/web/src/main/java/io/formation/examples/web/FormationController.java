package io.formation.examples.web;

import com.fasterxml.jackson.databind.JsonNode;
import io.formation.sdk.CreateDocumentSetParams;
import io.formation.sdk.DocumentSets;
import io.formation.sdk.FormationClient;
import io.formation.sdk.model.ActionResult;
import io.formation.sdk.model.DocumentSet;
import io.formation.sdk.model.Form;
import io.formation.tracking.FormationTracker;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.servlet.mvc.method.annotation.SseEmitter;

/**
 * The page's API: start a formation, list the person's formations, list a formation's forms, submit
 * one form's values, follow a formation's state. The browser never sees the access token nor an
 * action url: it names a form by id, and the backend looks that form up at the service and calls
 * the form's own action.
 *
 * <p>Requests with a body must be {@code application/json} (anything else is a 415): a page on
 * another site cannot send that without a CORS preflight, and this application allows none.
 */
@RestController
@RequestMapping(path = "/api/formations", produces = MediaType.APPLICATION_JSON_VALUE)
final class FormationController {
  private static final Logger log = LoggerFactory.getLogger(FormationController.class);
  private static final Pattern START_KEY = Pattern.compile("[A-Za-z0-9-]{8,64}");

  private final FormationClient client;
  private final People people;
  private final PersonFormations formations;
  private final ProgressStream progress;
  private final ServiceRetry retry;

  /** Absent with {@code formation.tracking.enabled=false}: then only an open page follows a set. */
  private final ObjectProvider<FormationTracker> tracker;

  private final Clock clock = Clock.systemUTC();

  /**
   * How many formations one person may start in {@link #startsPer}: each is work at the service.
   */
  private final int startsAllowed;

  private final Duration startsPer;

  FormationController(
      FormationClient client,
      People people,
      PersonFormations formations,
      ProgressStream progress,
      ServiceRetry retry,
      ObjectProvider<FormationTracker> tracker,
      @Value("${formation-web.limits.starts:10}") int startsAllowed,
      @Value("${formation-web.limits.starts-per:PT24H}") Duration startsPer) {
    this.client = client;
    this.people = people;
    this.formations = formations;
    this.progress = progress;
    this.retry = retry;
    this.tracker = tracker;
    this.startsAllowed = startsAllowed;
    this.startsPer = startsPer;
  }

  /** What the page sends to start: the key of this one deliberate start, made by the page. */
  record StartRequest(String startKey) {}

  /**
   * Starts a formation, once per start key: the page sends the same key again when it did not hear
   * the answer, and gets the set that start created instead of a second one.
   */
  @PostMapping(consumes = MediaType.APPLICATION_JSON_VALUE)
  ResponseEntity<FormationView> start(
      // Required, so that only a JSON body matches: a page on another site cannot send one.
      @RequestBody StartRequest body, HttpServletRequest request, HttpServletResponse response) {
    Person person = people.ofOrNew(request, response);
    String startKey = body.startKey();
    if (startKey != null && !START_KEY.matcher(startKey).matches()) {
      throw new BadRequest("startKey must be 8 to 64 letters, digits or dashes.");
    }
    if (startKey != null) {
      var earlier = formations.startedWith(person, startKey);
      if (earlier.isPresent()) {
        // The first answer may have been lost before the set was tracked; tracking twice is fine.
        tracker.ifAvailable(t -> t.track(earlier.get().id()));
        return ResponseEntity.ok(FormationView.of(earlier.get()));
      }
    }
    allowStart(person);
    // The product decides what is formed; the browser only asks to start.
    CreateDocumentSetParams params = CreateDocumentSetParams.of(DocumentSets.DELAWARE_CORPORATION);
    // The same key in every round, as the SDK's own retries send it.
    CreateDocumentSetParams create =
        startKey == null ? params : params.withIdempotencyKey(idempotencyKey(person, startKey));
    DocumentSet set = retry.create(() -> client.documentSets().create(create));
    formations.remember(
        person,
        new PersonFormations.Started(
            set.id(),
            startKey,
            clock.instant(),
            set.state().value(),
            set.appLink().map(Object::toString).orElse(null)));
    // Followed from now on by whichever instance finds it due, whether a tab follows it or not.
    tracker.ifAvailable(t -> t.track(set.id()));
    return ResponseEntity.status(HttpStatus.CREATED).body(FormationView.of(set));
  }

  /**
   * The create's {@code Idempotency-Key}: the page's start key scoped to the person, so that a key
   * sent by someone else cannot return this person's set; hashed, so the service's logs hold no
   * person id (the cookie's value).
   */
  private static String idempotencyKey(Person person, String startKey) {
    try {
      byte[] digest =
          MessageDigest.getInstance("SHA-256")
              .digest((person.id() + ":" + startKey).getBytes(StandardCharsets.UTF_8));
      return "start-" + Base64.getUrlEncoder().withoutPadding().encodeToString(digest);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("Every JVM has SHA-256", e);
    }
  }

  /**
   * The person's formations, the newest first, each with the last state the page's stream or
   * tracking saw: read from the database alone, however many there are. The stream of the one the
   * page follows says its state as the service says it now.
   */
  @GetMapping
  List<FormationView> mine(HttpServletRequest request) {
    return people
        .of(request)
        .map(person -> formations.of(person).stream().map(FormationView::of).toList())
        .orElse(List.of());
  }

  @GetMapping("/{id}/forms")
  List<FormView> forms(@PathVariable String id, HttpServletRequest request) {
    require(request, id);
    return client.forms().list(id).stream().map(FormView::of).toList();
  }

  @PostMapping(path = "/{id}/forms/{formId}", consumes = MediaType.APPLICATION_JSON_VALUE)
  FormView submit(
      @PathVariable String id,
      @PathVariable String formId,
      @RequestBody JsonNode values,
      HttpServletRequest request) {
    require(request, id);
    FormView saved = retry.submission(() -> send(id, formId, values));
    told(id);
    return saved;
  }

  private FormView send(String id, String formId, JsonNode values) {
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
  SseEmitter events(@PathVariable String id, HttpServletRequest request) {
    Person person = require(request, id);
    return progress.follow(person, id, state -> formations.seen(id, state));
  }

  /** Refuses a start beyond the person's allowance, saying when the next one is allowed. */
  private void allowStart(Person person) {
    Instant now = clock.instant();
    List<Instant> recent = formations.startsSince(person, now.minus(startsPer));
    if (recent.size() >= startsAllowed) {
      Instant freed = recent.get(recent.size() - startsAllowed).plus(startsPer);
      throw TooMany.starts(startsAllowed, startsPer, Duration.between(now, freed));
    }
  }

  /**
   * Tells tracking of an accepted submission, so that it counts the service's processing lag from
   * it rather than from the start. Best effort: the submission is accepted whatever happens here,
   * and a tracker that was not told only says input_needed a little early (the row then shows the
   * state the set is in while the service takes the values up).
   */
  private void told(String id) {
    try {
      tracker.ifAvailable(t -> t.submitted(id, clock.instant()));
    } catch (RuntimeException e) {
      // Polled at this moment by some instance, or its table not reachable now.
      log.info("Tracking of {} not told of the submission: {}", id, e.getMessage());
    }
  }

  private Person require(HttpServletRequest request, String id) {
    return people
        .of(request)
        .filter(person -> formations.owns(person, id))
        .orElseThrow(() -> NotHere.formation(id));
  }
}
