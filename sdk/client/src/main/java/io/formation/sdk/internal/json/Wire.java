package io.formation.sdk.internal.json;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.MissingNode;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import io.formation.sdk.internal.Port;
import io.formation.sdk.internal.guards.Checks;
import io.formation.sdk.model.ActionResult;
import io.formation.sdk.model.DocumentSet;
import io.formation.sdk.model.DocumentSetState;
import io.formation.sdk.model.Form;
import io.formation.sdk.model.FormAction;
import io.formation.sdk.model.Page;
import io.formation.sdk.model.PageLinks;
import io.formation.sdk.model.Team;
import java.io.IOException;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Function;

/** Reads the service's JSON into the SDK's records. */
public final class Wire {
  // Where each field may be, first spelling first: JSON Forms' own name, snake_case, camelCase.
  private static final List<String> SCHEMA_FIELDS = List.of("schema", "json_schema", "jsonSchema");
  private static final List<String> UI_SCHEMA_FIELDS = List.of("uischema", "ui_schema", "uiSchema");
  private static final List<String> VALUES_FIELDS =
      List.of("values", "current_values", "currentValues", "data");
  private static final List<String> ACTIONS_FIELDS = List.of("actions");
  private static final List<String> STATE_FIELDS = List.of("state");

  /** Where a document set's app link may be; {@code links.app} is read too. */
  private static final List<String> APP_LINK_FIELDS =
      List.of("app_url", "appUrl", "app_link", "appLink");

  /** Which member of a plain object may hold the list of forms. */
  private static final List<String> FORM_LIST_FIELDS = List.of("forms", "data", "items");

  /** The one mapper of the SDK's own JSON, private so nothing reconfigures it. */
  private static final ObjectMapper MAPPER = mapper();

  private Wire() {}

  /** {@return the JSON as a tree; a missing node for no content} */
  public static JsonNode readTree(byte[] json) throws IOException {
    return MAPPER.readTree(json);
  }

  public static JsonNode readTree(String json) throws JsonProcessingException {
    return MAPPER.readTree(json);
  }

  /** {@return the SDK's own value (a tree) as JSON} */
  public static byte[] write(Object value) throws JsonProcessingException {
    return MAPPER.writeValueAsBytes(value);
  }

  @SuppressWarnings("deprecation")
  private static ObjectMapper mapper() {
    return new ObjectMapper()
        .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
        .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS)
        // Numbers as the service wrote them, so values read and sent back are the ones it sent.
        .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
        .enable(JsonGenerator.Feature.WRITE_BIGDECIMAL_AS_PLAIN)
        .setNodeFactory(JsonNodeFactory.withExactBigDecimals(true));
  }

  /** {@return a reader that binds JSON to a caller's type, java.time types included} */
  public static ObjectReader readerFor(Class<?> type) {
    return Bound.MAPPER.readerFor(type);
  }

  /** {@return a writer for a caller's values, java.time types included} */
  public static ObjectWriter boundWriter() {
    return Bound.WRITER;
  }

  /** The mapper for callers' types, with java.time; built at first use (docs/building.md). */
  private static final class Bound {
    static final ObjectMapper MAPPER = mapper().registerModule(new JavaTimeModule());
    static final ObjectWriter WRITER = MAPPER.writer();
  }

  /** The body was JSON, but not the shape expected; the transport adds what was called. */
  public static final class ShapeException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public ShapeException(String message) {
      super(message);
    }
  }

  public static DocumentSet documentSet(JsonNode body) {
    JsonNode resource = unwrap(body, "a document set");
    String id = idOf(resource, "document set");
    String state = textOrNull(field(resource, STATE_FIELDS));
    if (state == null) {
      throw Port.shape("the document set " + id + " has no state");
    }
    URI appLink = appLink(resource);
    if (appLink == null && resource != body) {
      // JSON:API also allows links about the primary data at the top level of the document.
      appLink = uri(linkOrNull(body.path("links").path("app")));
    }
    return new DocumentSet(id, DocumentSetState.of(state), Optional.ofNullable(appLink), resource);
  }

  public static List<Form> forms(JsonNode body) {
    JsonNode list = body;
    if (list.isObject()) {
      list =
          FORM_LIST_FIELDS.stream()
              .map(body::get)
              .filter(n -> n != null && n.isArray())
              .findFirst()
              .orElse(null);
    }
    if (list == null || !list.isArray()) {
      throw Port.shape("expected a list of forms (an array, or data/forms/items holding one)");
    }
    List<Form> forms = new ArrayList<>(list.size());
    for (JsonNode form : list) {
      forms.add(form(form));
    }
    return forms;
  }

  public static Form form(JsonNode body) {
    JsonNode resource = unwrap(body, "a form");
    String id = idOf(resource, "form");
    JsonNode values = field(resource, VALUES_FIELDS);
    List<FormAction> actions = new ArrayList<>();
    JsonNode actionNodes = field(resource, ACTIONS_FIELDS);
    if (actionNodes.isArray()) {
      for (JsonNode action : actionNodes) {
        actions.add(action(action, id));
      }
    } else if (!actionNodes.isMissingNode()) {
      throw Port.shape("the actions of form " + id + " are not a list");
    }
    return new Form(
        id,
        field(resource, SCHEMA_FIELDS),
        field(resource, UI_SCHEMA_FIELDS),
        values.isMissingNode() ? JsonNodeFactory.instance.objectNode() : values,
        actions,
        resource);
  }

  private static FormAction action(JsonNode action, String formId) {
    Optional<String> url = string(action.get("url")).or(() -> string(action.get("href")));
    Optional<String> method =
        string(action.get("method")).map(m -> m.strip().toUpperCase(Locale.ROOT));
    if (url.isEmpty() || url.get().isBlank()) {
      throw Port.shape("an action of form " + formId + " has no url string");
    }
    if (method.isEmpty() || !Checks.isToken(method.get())) {
      // Sent as is, anything but a token would rewrite the request line: refused before it is.
      throw Port.shape("an action of form " + formId + " has no valid HTTP method");
    }
    return new FormAction(
        method.get(),
        url.get(),
        text(action.get("name")).or(() -> text(action.get("id"))),
        text(action.get("label")).or(() -> text(action.get("title"))),
        action);
  }

  /** Parses what an action returned: keeps the body, and reads a form or document set from it. */
  public static ActionResult actionResult(int status, JsonNode body) {
    JsonNode resource = resourceOf(body);
    Optional<Form> form = Optional.empty();
    Optional<DocumentSet> documentSet = Optional.empty();
    if (resource.isObject()) {
      String type = resource.path("type").asText("");
      if (type.equals("forms") || !field(resource, SCHEMA_FIELDS).isMissingNode()) {
        form = lenient(Wire::form, resource);
      } else if (type.equals("document_sets") || !field(resource, STATE_FIELDS).isMissingNode()) {
        documentSet = lenient(Wire::documentSet, body);
      }
    }
    return new ActionResult(status, body, form, documentSet);
  }

  public static Page<Team> teams(JsonNode body) {
    JsonNode data = body.get("data");
    if (data == null || !data.isArray()) {
      throw Port.shape("expected a JSON:API collection with a data array");
    }
    List<Team> teams = new ArrayList<>(data.size());
    for (JsonNode resource : data) {
      String id = idOf(resource, "team");
      teams.add(new Team(id, text(resource.path("attributes").get("name")).orElse(""), resource));
    }
    return new Page<>(teams, links(body.path("links")), body);
  }

  static PageLinks links(JsonNode links) {
    return new PageLinks(
        pageLink(links, "self"),
        pageLink(links, "first"),
        pageLink(links, "prev"),
        pageLink(links, "next"),
        pageLink(links, "last"));
  }

  /** A pagination link: absent or null, else a non-empty string (or an object with one as href). */
  private static Optional<String> pageLink(JsonNode links, String name) {
    JsonNode link = links.get(name);
    if (link == null || link.isNull()) {
      return Optional.empty();
    }
    Optional<String> href = string(link.isObject() ? link.get("href") : link);
    if (href.isEmpty() || href.get().isEmpty()) {
      throw Port.shape("links." + name + " is neither null nor a link");
    }
    return href;
  }

  private static <T> Optional<T> lenient(Function<JsonNode, T> reader, JsonNode node) {
    try {
      return Optional.of(reader.apply(node));
    } catch (ShapeException | IllegalArgumentException e) {
      return Optional.empty();
    }
  }

  /** The resource of a JSON:API document, or the object itself. */
  private static JsonNode resourceOf(JsonNode body) {
    JsonNode data = body.get("data");
    return data != null && data.isObject() && !body.hasNonNull("id") ? data : body;
  }

  private static JsonNode unwrap(JsonNode body, String what) {
    JsonNode resource = resourceOf(body);
    if (!resource.isObject()) {
      throw Port.shape("expected " + what + " as a JSON object");
    }
    return resource;
  }

  /** The first present spelling, in {@code attributes} first, then at the top level. */
  static JsonNode field(JsonNode resource, List<String> names) {
    JsonNode value = first(resource.path("attributes"), names);
    return value.isMissingNode() ? first(resource, names) : value;
  }

  private static JsonNode first(JsonNode scope, List<String> names) {
    for (String name : names) {
      JsonNode value = scope.get(name);
      if (value != null && !value.isNull()) {
        return value;
      }
    }
    return MissingNode.getInstance();
  }

  /** The app link, or null when there is none or it is not a URI. */
  private static URI appLink(JsonNode resource) {
    JsonNode link = field(resource, APP_LINK_FIELDS);
    if (link.isMissingNode()) {
      link = resource.path("links").path("app");
    }
    return uri(linkOrNull(link));
  }

  /** The URI, or null when the value is null or not a URI. */
  private static URI uri(String value) {
    if (value == null) {
      return null;
    }
    ParsedLink last = lastLink;
    if (last != null && last.text().equals(value)) {
      return last.uri();
    }
    try {
      URI uri = URI.create(value);
      lastLink = new ParsedLink(value, uri);
      return uri;
    } catch (IllegalArgumentException e) {
      return null;
    }
  }

  /** The app link parsed last, reused by a wait's polls (docs/building.md). */
  private static volatile ParsedLink lastLink;

  private record ParsedLink(String text, URI uri) {}

  /** A JSON:API link is a string or an object with {@code href}; null if neither. */
  private static String linkOrNull(JsonNode link) {
    return link != null && link.isObject() ? textOrNull(link.get("href")) : textOrNull(link);
  }

  private static String idOf(JsonNode resource, String what) {
    String value = textOrNull(resource.get("id"));
    if (value == null) {
      value = textOrNull(resource.path("attributes").get("id"));
    }
    if (value == null || value.isBlank()) {
      throw Port.shape("a " + what + " has no id");
    }
    return value;
  }

  /** The node's text if it is a JSON string; numbers and the like are not links or methods. */
  private static Optional<String> string(JsonNode node) {
    return node != null && node.isTextual() ? Optional.of(node.asText()) : Optional.empty();
  }

  public static Optional<String> text(JsonNode node) {
    return Optional.ofNullable(textOrNull(node));
  }

  /** The text of a value node (a string, a number, a boolean), or null. */
  private static String textOrNull(JsonNode node) {
    return node != null && node.isValueNode() && !node.isNull() ? node.asText() : null;
  }
}
