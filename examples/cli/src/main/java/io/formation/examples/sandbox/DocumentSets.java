package io.formation.examples.sandbox;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/** The document sets of a sandbox, their forms, their action urls and their state machine. */
final class DocumentSets {
  static final String INPUT_NEEDED = "input_needed";

  /** The states after input, in order; each lasts one step delay, the last one for good. */
  static final List<String> PROGRESSION =
      List.of(
          "signature_requests_needed",
          "awaiting_payment",
          "filing_in_progress",
          "finalizing",
          "complete");

  private static final Map<String, List<SandboxForm>> TEMPLATES =
      Map.of(DelawareForms.TEMPLATE, DelawareForms.all());

  /** Where an action url leads. */
  record ActionTarget(Entry set, SandboxForm form) {}

  private final String baseUrl;
  private final Clock clock;
  private final Duration stepDelay;
  private final Secrets secrets;
  private final Map<String, Entry> sets = new ConcurrentHashMap<>();
  private final Map<String, ActionTarget> actions = new ConcurrentHashMap<>();

  DocumentSets(String baseUrl, Clock clock, Duration stepDelay, Secrets secrets) {
    this.baseUrl = baseUrl;
    this.clock = clock;
    this.stepDelay = stepDelay;
    this.secrets = secrets;
  }

  static boolean isTemplate(String template) {
    return TEMPLATES.containsKey(template);
  }

  static List<String> templates() {
    return List.copyOf(TEMPLATES.keySet());
  }

  Entry create(String template) {
    List<SandboxForm> forms = TEMPLATES.get(template);
    if (forms == null) {
      throw new IllegalArgumentException("unknown template " + template);
    }
    Entry set =
        new Entry(
            secrets.id("ds_", 20), template, clock.instant().truncatedTo(ChronoUnit.MILLIS), forms);
    for (SandboxForm form : forms) {
      // A fresh random token per (document set, form), so nothing about the url can be derived
      // from ids a client already knows; the signature makes edited urls fail too.
      String token = secrets.token();
      actions.put(token, new ActionTarget(set, form));
      set.actionUrls.put(
          form.id(), "/v1/form_actions/" + token + "?sig=" + secrets.sign("action|" + token));
    }
    sets.put(set.id, set);
    return set;
  }

  Optional<Entry> find(String id) {
    return Optional.ofNullable(sets.get(id));
  }

  /** Returns the target of a token only when its signature is right. */
  Optional<ActionTarget> action(String token, String signature) {
    if (signature == null || !Secrets.same(secrets.sign("action|" + token), signature)) {
      return Optional.empty();
    }
    return Optional.ofNullable(actions.get(token));
  }

  Instant now() {
    return clock.instant();
  }

  /** Renders a document_sets resource object. */
  ObjectNode resource(Entry set) {
    ObjectNode resource = Json.object();
    resource.put("type", "document_sets");
    resource.put("id", set.id);
    ObjectNode attributes = resource.putObject("attributes");
    attributes.put("state", set.state(now()));
    attributes.put("template", set.template);
    attributes.put("created_at", set.createdAt.toString());
    ObjectNode links = resource.putObject("links");
    links.put("self", "/v1/document_sets/" + set.id);
    links.put("app", appUrl(set));
    return resource;
  }

  String appUrl(Entry set) {
    return baseUrl + "/app/document_sets/" + set.id;
  }

  /** Renders a forms resource object, with its submit action while input is still accepted. */
  ObjectNode formResource(Entry set, SandboxForm form) {
    ObjectNode resource = Json.object();
    resource.put("type", "forms");
    resource.put("id", form.id());
    ObjectNode attributes = resource.putObject("attributes");
    attributes.set("json_schema", form.jsonSchema());
    attributes.set("ui_schema", form.uiSchema());
    attributes.set("values", set.values(form.id()));
    ArrayNode actionList = attributes.putArray("actions");
    // Actions list what can be done now: once input is complete there is nothing left to submit.
    if (set.state(now()).equals(INPUT_NEEDED)) {
      ObjectNode submit = actionList.addObject();
      submit.put("name", "submit");
      submit.put("method", "PUT");
      submit.put("url", set.actionUrls.get(form.id()));
    }
    return resource;
  }

  SandboxDocumentSet snapshot(Entry set) {
    return new SandboxDocumentSet(
        set.id, set.template, set.state(now()), set.createdAt, appUrl(set), set.values());
  }

  /** One document set; its values and the moment its input completed are guarded by itself. */
  final class Entry {
    final String id;
    final String template;
    final Instant createdAt;
    final List<SandboxForm> forms;
    // Written once in create(), before the entry is published to other threads.
    private final Map<String, String> actionUrls = new LinkedHashMap<>();
    private final Map<String, JsonNode> values = new LinkedHashMap<>();
    private Instant inputCompletedAt;

    private Entry(String id, String template, Instant createdAt, List<SandboxForm> forms) {
      this.id = id;
      this.template = template;
      this.createdAt = createdAt;
      this.forms = forms;
    }

    /**
     * Computes the state from the clock on each read, so no timer thread is needed and a test clock
     * steps through the states exactly.
     */
    synchronized String state(Instant now) {
      if (inputCompletedAt == null) {
        return INPUT_NEEDED;
      }
      Duration elapsed = Duration.between(inputCompletedAt, now);
      int last = PROGRESSION.size() - 1;
      if (stepDelay.isZero()) {
        return PROGRESSION.get(last);
      }
      long steps = elapsed.isNegative() ? 0 : elapsed.dividedBy(stepDelay);
      return PROGRESSION.get((int) Math.min(steps, last));
    }

    synchronized JsonNode values(String formId) {
      JsonNode stored = values.get(formId);
      return stored == null ? Json.object() : stored.deepCopy();
    }

    synchronized Map<String, JsonNode> values() {
      Map<String, JsonNode> copy = new LinkedHashMap<>();
      for (SandboxForm form : forms) {
        JsonNode stored = values.get(form.id());
        if (stored != null) {
          copy.put(form.id(), stored);
        }
      }
      return copy;
    }

    /**
     * Returns the current instant while input is still accepted.
     *
     * @throws ApiException 409 once input is complete
     */
    synchronized Instant requireInput() {
      Instant now = now();
      String state = state(now);
      if (!state.equals(INPUT_NEEDED)) {
        throw ApiException.conflict(
            "input_closed",
            "Document set " + id + " is " + state + "; its forms no longer accept values.");
      }
      return now;
    }

    /**
     * Validates and stores a form's values.
     *
     * @throws ApiException 409 once input is complete, 422 listing every violation
     */
    synchronized void submit(SandboxForm form, JsonNode submitted) {
      Instant now = requireInput();
      List<SchemaValidator.Violation> violations =
          SchemaValidator.validate(form.jsonSchema(), submitted);
      if (!violations.isEmpty()) {
        List<ApiError> errors = new ArrayList<>();
        for (SchemaValidator.Violation violation : violations) {
          errors.add(
              new ApiError(
                  422, "invalid", "Invalid value", describe(violation), violation.pointer(), null));
        }
        throw new ApiException(422, errors, Map.of());
      }
      values.put(form.id(), submitted.deepCopy());
      if (forms.stream().allMatch(f -> values.containsKey(f.id()))) {
        inputCompletedAt = now;
      }
    }

    private String describe(SchemaValidator.Violation violation) {
      String pointer = violation.pointer();
      String field = pointer.isEmpty() ? "The values" : pointer.substring(1);
      return field + " " + violation.message() + ".";
    }
  }
}
