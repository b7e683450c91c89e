package io.formation.sandbox;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/** The document sets of a sandbox, their forms, their action urls and their state machine. */
final class DocumentSets {
  static final String INPUT_NEEDED = SandboxOptions.INPUT_NEEDED;

  /** A review interrupts the progression when the set would leave this state (the second). */
  private static final int REVIEW_STATE = 1;

  /** Where an action url leads. */
  record ActionTarget(Entry set, String formId) {}

  private final String baseUrl;
  private final Clock clock;
  private final List<String> progression;
  private final Duration stepDelay;
  private final Duration lag;
  private final boolean review;
  private final Secrets secrets;
  private final Map<String, Entry> sets = new ConcurrentHashMap<>();
  private final Map<String, ActionTarget> actions = new ConcurrentHashMap<>();
  // Tokens replaced by a review: answered 409 rather than 404, so a client learns to list again.
  private final Set<String> retired = ConcurrentHashMap.newKeySet();

  DocumentSets(String baseUrl, SandboxOptions options, Secrets secrets) {
    this.baseUrl = baseUrl;
    this.clock = options.clock();
    this.progression = options.progression();
    this.stepDelay = options.stepDelay();
    this.lag = options.processingLag();
    this.review = options.review();
    this.secrets = secrets;
  }

  static boolean isTemplate(String template) {
    return Template.ALL.containsKey(template);
  }

  static List<String> templates() {
    return List.copyOf(Template.ALL.keySet());
  }

  Entry create(String templateName) {
    Template template = Template.ALL.get(templateName);
    if (template == null) {
      throw new IllegalArgumentException("unknown template " + templateName);
    }
    Entry set =
        new Entry(secrets.id("ds_", 20), template, clock.instant().truncatedTo(ChronoUnit.MILLIS));
    for (SandboxForm form : template.forms()) {
      set.actionUrls.put(form.id(), newAction(set, form.id()));
    }
    sets.put(set.id, set);
    return set;
  }

  /**
   * A fresh random token per (document set, form, opening), so nothing about the url can be derived
   * from ids a client already knows; the signature makes edited urls fail too.
   */
  private String newAction(Entry set, String formId) {
    String token = secrets.token();
    actions.put(token, new ActionTarget(set, formId));
    return "/v1/form_actions/" + token + "?sig=" + secrets.sign("action|" + token);
  }

  Optional<Entry> find(String id) {
    return Optional.ofNullable(sets.get(id));
  }

  List<Entry> all() {
    List<Entry> all = new ArrayList<>(sets.values());
    all.sort((a, b) -> a.createdAt.compareTo(b.createdAt));
    return all;
  }

  /** Returns the target of a token only when its signature is right. */
  Optional<ActionTarget> action(String token, String signature) {
    if (signature == null || !Secrets.same(secrets.sign("action|" + token), signature)) {
      return Optional.empty();
    }
    return Optional.ofNullable(actions.get(token));
  }

  /** Whether a signed token was replaced by a review. */
  boolean isRetired(String token, String signature) {
    return signature != null
        && Secrets.same(secrets.sign("action|" + token), signature)
        && retired.contains(token);
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
    attributes.put("template", set.template.name());
    attributes.put("created_at", set.createdAt.toString());
    ObjectNode links = resource.putObject("links");
    links.put("self", "/v1/document_sets/" + set.id);
    links.put("app", appUrl(set));
    return resource;
  }

  String appUrl(Entry set) {
    return baseUrl + "/app/document_sets/" + set.id;
  }

  /** Renders every form of a set, read at one instant so they agree with each other. */
  ArrayNode formResources(Entry set) {
    ArrayNode data = Json.MAPPER.createArrayNode();
    synchronized (set) {
      Instant now = now();
      for (SandboxForm form : set.template.forms()) {
        data.add(set.formResource(form, now));
      }
    }
    return data;
  }

  SandboxDocumentSet snapshot(Entry set) {
    synchronized (set) {
      String state = set.state(now());
      Map<String, JsonNode> values = new LinkedHashMap<>();
      List<String> needing = new ArrayList<>();
      for (SandboxForm form : set.template.forms()) {
        values.put(form.id(), set.values.get(form.id()));
        if (!set.accepted.contains(form.id())) {
          needing.add(form.id());
        }
      }
      return new SandboxDocumentSet(
          set.id,
          set.template.name(),
          state,
          set.createdAt,
          appUrl(set),
          values,
          needing,
          set.reviewedAt != null);
    }
  }

  /**
   * One document set. Its state is computed from the clock on each read, so no timer thread is
   * needed and a test clock steps through the states exactly; a review that fell due is applied on
   * the first read after it, as of the instant it fell due.
   */
  final class Entry {
    final String id;
    final Template template;
    final Instant createdAt;
    // Guarded by this entry.
    private final Map<String, String> actionUrls = new LinkedHashMap<>();
    private final Map<String, JsonNode> values = new LinkedHashMap<>();
    private final Set<String> accepted = new HashSet<>();
    private Instant inputCompletedAt;
    private int resumeIndex;
    private boolean reviewDue;
    private Instant reviewedAt;
    // Set by a test through FormationSandbox.denyAccess: the token may no longer act on the set.
    volatile boolean accessDenied;

    private Entry(String id, Template template, Instant createdAt) {
      this.id = id;
      this.template = template;
      this.createdAt = createdAt;
      this.reviewDue = review;
      for (SandboxForm form : template.forms()) {
        values.put(form.id(), Json.object());
      }
    }

    synchronized String state(Instant now) {
      settle(now);
      if (inputCompletedAt == null) {
        return INPUT_NEEDED;
      }
      Instant start = inputCompletedAt.plus(lag);
      if (now.isBefore(start)) {
        return INPUT_NEEDED;
      }
      int last = progression.size() - 1;
      if (stepDelay.isZero()) {
        return progression.get(last);
      }
      long steps = Duration.between(start, now).dividedBy(stepDelay);
      return progression.get((int) Math.min(resumeIndex + steps, last));
    }

    private void settle(Instant now) {
      if (!reviewDue || inputCompletedAt == null) {
        return;
      }
      Instant dueAt =
          inputCompletedAt.plus(lag).plus(stepDelay.multipliedBy(REVIEW_STATE + 1 - resumeIndex));
      if (now.isBefore(dueAt)) {
        return;
      }
      Template.Review review = template.review();
      ObjectNode reopened = (ObjectNode) values.get(review.form()).deepCopy();
      for (String pointer : review.remove()) {
        remove(reopened, pointer);
      }
      values.put(review.form(), reopened);
      accepted.remove(review.form());
      String old = actionUrls.get(review.form());
      String oldToken = old.substring(old.lastIndexOf('/') + 1, old.indexOf('?'));
      actions.remove(oldToken);
      retired.add(oldToken);
      actionUrls.put(review.form(), newAction(this, review.form()));
      reviewDue = false;
      reviewedAt = dueAt;
      inputCompletedAt = null;
      resumeIndex = REVIEW_STATE;
    }

    private static void remove(JsonNode root, String pointer) {
      int slash = pointer.lastIndexOf('/');
      JsonNode parent = root.at(pointer.substring(0, slash));
      String name = pointer.substring(slash + 1).replace("~1", "/").replace("~0", "~");
      if (parent instanceof ObjectNode object) {
        object.remove(name);
      } else if (parent instanceof ArrayNode array && name.matches("[0-9]+")) {
        array.remove(Integer.parseInt(name));
      }
    }

    /** Renders a forms resource object, with its submit action while input is accepted. */
    synchronized ObjectNode formResource(SandboxForm form, Instant now) {
      String state = state(now);
      ObjectNode resource = Json.object();
      resource.put("type", "forms");
      resource.put("id", form.id());
      ObjectNode attributes = resource.putObject("attributes");
      attributes.set("json_schema", form.jsonSchema());
      attributes.set("ui_schema", form.uiSchema());
      attributes.set("values", values.get(form.id()).deepCopy());
      ArrayNode actionList = attributes.putArray("actions");
      // Actions list what can be done now: once input is complete there is nothing to submit.
      if (state.equals(INPUT_NEEDED)) {
        ObjectNode submit = actionList.addObject();
        submit.put("name", "submit");
        submit.put("method", "PUT");
        submit.put("url", actionUrls.get(form.id()));
      }
      return resource;
    }

    /**
     * Validates and stores a form's values, and returns the form as it is now.
     *
     * @throws ApiException 409 once input is complete, 422 listing every violation
     */
    synchronized ObjectNode submit(String formId, JsonNode submitted) {
      Instant now = now();
      String state = state(now);
      if (!state.equals(INPUT_NEEDED)) {
        throw ApiException.conflict(
            "input_closed",
            "Document set " + id + " is " + state + "; its forms no longer accept values.");
      }
      SandboxForm form = template.form(formId);
      List<Violation> violations = FormValidator.validate(form.jsonSchema(), submitted);
      if (!violations.isEmpty()) {
        List<ApiError> errors = new ArrayList<>();
        for (Violation violation : violations) {
          errors.add(
              new ApiError(
                  422, "invalid", "Invalid value", describe(violation), violation.pointer(), null));
        }
        throw new ApiException(422, errors, Map.of());
      }
      values.put(formId, submitted.deepCopy());
      accepted.add(formId);
      // The lag runs from the last accepted submission, even one made while the lag was running.
      inputCompletedAt = accepted.size() == template.forms().size() ? now : null;
      return formResource(form, now);
    }

    private String describe(Violation violation) {
      String pointer = violation.pointer();
      String field = pointer.isEmpty() ? "The values" : pointer.substring(1);
      return field + ": " + violation.message();
    }
  }
}
