package io.formation.sandbox;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import io.formation.sandbox.SandboxRequest.Fault;
import java.io.IOException;
import java.io.OutputStream;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.atomic.AtomicLong;

/** Records, authenticates, fails on purpose, routes every request, and renders its response. */
final class SandboxHandler implements HttpHandler {

  /** A response ready to be written. */
  record Response(int status, String contentType, byte[] body, Map<String, String> headers) {
    static Response json(int status, JsonNode document) {
      return new Response(status, Json.MEDIA_TYPE, Json.bytes(document), Map.of());
    }
  }

  private final String token;
  private final Teams teams;
  private final DocumentSets documentSets;
  private final FaultPlan faults;
  private final AtomicLong sequence = new AtomicLong();
  private final ConcurrentSkipListMap<Long, SandboxRequest> requests;

  SandboxHandler(
      String token,
      Teams teams,
      DocumentSets documentSets,
      FaultPlan faults,
      ConcurrentSkipListMap<Long, SandboxRequest> requests) {
    this.token = token;
    this.teams = teams;
    this.documentSets = documentSets;
    this.faults = faults;
    this.requests = requests;
  }

  @Override
  public void handle(HttpExchange exchange) throws IOException {
    try (exchange) {
      // Numbered on arrival, so the recording keeps arrival order even when answers overtake.
      long number = sequence.getAndIncrement();
      String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
      Instant now = faults.now();
      URI uri = exchange.getRequestURI();
      String method = exchange.getRequestMethod();
      boolean authorized = authorized(exchange.getRequestHeaders().get("Authorization"));
      Map<String, List<String>> query;
      try {
        query = parseQuery(uri.getRawQuery());
      } catch (ApiException e) {
        query = Map.of();
      }
      boolean api = uri.getRawPath().startsWith("/v1/") || uri.getRawPath().equals("/v1");
      FaultPlan.Decision decision = api ? faults.decide(now) : FaultPlan.Decision.NONE;

      Response response = null;
      if (decision.fault() == Fault.RATE_LIMITED) {
        response = rateLimited(decision.retryAfterSeconds());
      } else if (decision.fault() == Fault.UNAVAILABLE) {
        response = errors(ApiException.unavailable());
      } else if (decision.processBeforeDrop()) {
        response = respond(exchange, method, uri, body);
      }
      boolean dropped = decision.fault() == Fault.DROPPED;
      requests.put(
          number,
          new SandboxRequest(
              number,
              now,
              method,
              uri.getRawPath(),
              uri.getRawQuery(),
              query,
              exchange.getRequestHeaders(),
              authorized,
              body,
              dropped ? 0 : response.status(),
              decision.fault(),
              decision.fault() == null || (dropped && decision.processBeforeDrop())));
      if (!dropped) {
        write(exchange, method, response);
      }
      // A dropped exchange is closed without a response: the JDK server then closes the
      // connection, and the client sees it end before any status line.
    }
  }

  private Response respond(HttpExchange exchange, String method, URI uri, String body) {
    try {
      return route(exchange, method, uri, body);
    } catch (ApiException e) {
      return errors(e);
    } catch (RuntimeException e) {
      // Surface the bug to the client as the real service would, instead of a dropped socket.
      return errors(
          new ApiException(
              ApiError.of(500, "internal_error", "Internal server error", String.valueOf(e))));
    }
  }

  private static Response rateLimited(long retryAfterSeconds) {
    Response errors =
        errors(
            new ApiException(
                ApiError.of(
                    429,
                    "rate_limited",
                    "Too many requests",
                    "Slow down: retry after " + retryAfterSeconds + " s.")));
    return new Response(
        429,
        errors.contentType(),
        errors.body(),
        Map.of("Retry-After", Long.toString(retryAfterSeconds)));
  }

  private Response route(HttpExchange exchange, String method, URI uri, String body) {
    String[] segments = uri.getRawPath().split("/", -1);
    // The app page is for people in a browser, who carry no bearer token.
    if (segments.length == 4
        && segments[1].equals("app")
        && segments[2].equals("document_sets")
        && !segments[3].isEmpty()) {
      return appPage(method, segments[3]);
    }
    authenticate(exchange.getRequestHeaders().get("Authorization"));
    Map<String, List<String>> query = parseQuery(uri.getRawQuery());
    if (segments.length >= 3 && segments[0].isEmpty() && segments[1].equals("v1")) {
      String collection = segments[2];
      if (segments.length == 3 && collection.equals("teams")) {
        allow(method, "GET");
        return Response.json(200, teams.page(query));
      }
      if (segments.length == 3 && collection.equals("document_sets")) {
        allow(method, "POST");
        return createDocumentSet(body);
      }
      if (segments.length == 4 && collection.equals("document_sets") && !segments[3].isEmpty()) {
        allow(method, "GET");
        return documentSet(segments[3]);
      }
      if (segments.length == 5
          && collection.equals("document_sets")
          && !segments[3].isEmpty()
          && segments[4].equals("forms")) {
        allow(method, "GET");
        return forms(segments[3]);
      }
      if (segments.length == 4 && collection.equals("form_actions") && !segments[3].isEmpty()) {
        allow(method, "PUT");
        List<String> signature = query.get("sig");
        return submit(segments[3], signature == null ? null : signature.get(0), body);
      }
    }
    throw ApiException.notFound("There is no endpoint at " + uri.getRawPath() + ".");
  }

  private boolean authorized(List<String> authorization) {
    if (authorization == null || authorization.size() != 1) {
      return false;
    }
    String value = authorization.get(0);
    return value.length() > 7
        && value.substring(0, 7).toLowerCase(Locale.ROOT).equals("bearer ")
        && Secrets.same(value.substring(7), token);
  }

  private void authenticate(List<String> authorization) {
    String challenge = "Bearer realm=\"formation-sandbox\"";
    if (authorization == null || authorization.isEmpty()) {
      throw unauthorized("Send the header Authorization: Bearer <access token>.", challenge);
    }
    if (!authorized(authorization)) {
      throw unauthorized(
          "The access token is missing, malformed or not valid for this service.",
          challenge + ", error=\"invalid_token\"");
    }
  }

  private static ApiException unauthorized(String detail, String challenge) {
    return new ApiException(
        401,
        List.of(ApiError.of(401, "unauthorized", "Unauthorized", detail)),
        Map.of("WWW-Authenticate", challenge));
  }

  private static void allow(String method, String allowed) {
    if (!method.equals(allowed)) {
      throw ApiException.methodNotAllowed(method, allowed);
    }
  }

  private Response createDocumentSet(String body) {
    JsonNode request = Json.parseBody(body);
    if (!request.isObject()) {
      throw ApiException.badRequest(
          "invalid_body", "Invalid request body", "The request body must be a JSON object.");
    }
    // Accept both the plain body of the interface and a JSON:API resource document, and point
    // at the template wherever it was (or should have been) in the body that was sent.
    JsonNode holder = request;
    String pointer = "/template";
    JsonNode data = request.get("data");
    if (data != null) {
      if (!data.isObject()) {
        throw invalid("/data", "Invalid resource", "data must be a document_sets resource object.");
      }
      JsonNode type = data.get("type");
      if (type != null && !"document_sets".equals(type.asText())) {
        throw ApiException.conflict(
            "type_mismatch", "This endpoint creates document_sets, not " + type + ".");
      }
      JsonNode attributes = data.get("attributes");
      holder = attributes == null || !attributes.isObject() ? Json.object() : attributes;
      pointer = "/data/attributes/template";
    }
    JsonNode template = holder.get("template");
    if (template == null || template.isNull()) {
      throw invalid(pointer, "Missing template", "template is required; " + known() + ".");
    }
    if (!template.isTextual() || !DocumentSets.isTemplate(template.textValue())) {
      throw invalid(
          pointer, "Unknown template", "Unknown template " + template + "; " + known() + ".");
    }
    DocumentSets.Entry set = documentSets.create(template.textValue());
    ObjectNode document = Json.object();
    document.set("data", documentSets.resource(set));
    return Response.json(201, document);
  }

  private static String known() {
    return "known templates: " + String.join(", ", DocumentSets.templates());
  }

  private static ApiException invalid(String pointer, String title, String detail) {
    return new ApiException(new ApiError(422, "invalid", title, detail, pointer, null));
  }

  private Response documentSet(String id) {
    ObjectNode document = Json.object();
    document.set("data", documentSets.resource(accessible(findSet(id))));
    return Response.json(200, document);
  }

  private Response forms(String id) {
    ObjectNode document = Json.object();
    document.set("data", documentSets.formResources(accessible(findSet(id))));
    return Response.json(200, document);
  }

  private static DocumentSets.Entry accessible(DocumentSets.Entry set) {
    if (set.accessDenied) {
      throw ApiException.forbidden(
          "The access token may not act on document set " + set.id + " (any more).");
    }
    return set;
  }

  private Response submit(String actionToken, String signature, String body) {
    if (documentSets.isRetired(actionToken, signature)) {
      throw ApiException.conflict(
          "stale_action",
          "This action url was replaced when the form was reopened; list the forms again and use"
              + " the url they return.");
    }
    DocumentSets.ActionTarget target =
        documentSets
            .action(actionToken, signature)
            .orElseThrow(() -> ApiException.notFound("There is no such form action."));
    accessible(target.set());
    JsonNode values = Json.parseBody(body);
    ObjectNode document = Json.object();
    document.set("data", target.set().submit(target.formId(), values));
    return Response.json(200, document);
  }

  private DocumentSets.Entry findSet(String id) {
    return documentSets
        .find(id)
        .orElseThrow(() -> ApiException.notFound("There is no document set " + id + "."));
  }

  private Response appPage(String method, String id) {
    allow(method, "GET");
    DocumentSets.Entry set = findSet(id);
    String html =
        "<!doctype html>\n<html><head><meta charset=\"utf-8\"><title>Formation sandbox</title>"
            + "</head><body><h1>Document set "
            + escape(set.id)
            + "</h1><p>Template: "
            + escape(set.template.title())
            + "</p><p>State: <strong>"
            + escape(set.state(documentSets.now()))
            + "</strong></p><p>This page stands in for the service's app.</p></body></html>\n";
    return new Response(
        200, "text/html; charset=utf-8", html.getBytes(StandardCharsets.UTF_8), Map.of());
  }

  private static String escape(String text) {
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
  }

  private static Map<String, List<String>> parseQuery(String rawQuery) {
    Map<String, List<String>> query = new LinkedHashMap<>();
    if (rawQuery == null || rawQuery.isEmpty()) {
      return query;
    }
    for (String pair : rawQuery.split("&")) {
      if (pair.isEmpty()) {
        continue;
      }
      int equals = pair.indexOf('=');
      String name = equals < 0 ? pair : pair.substring(0, equals);
      String value = equals < 0 ? "" : pair.substring(equals + 1);
      try {
        query.computeIfAbsent(decode(name), k -> new ArrayList<>()).add(decode(value));
      } catch (IllegalArgumentException e) {
        throw ApiException.badRequest(
            "invalid_query", "Invalid query string", "The query string is not well encoded.");
      }
    }
    return query;
  }

  private static String decode(String text) {
    return URLDecoder.decode(text, StandardCharsets.UTF_8);
  }

  private static Response errors(ApiException e) {
    ObjectNode document = Json.object();
    var errors = document.putArray("errors");
    e.errors().forEach(error -> errors.add(error.toJson()));
    return new Response(e.status(), Json.MEDIA_TYPE, Json.bytes(document), e.headers());
  }

  private static void write(HttpExchange exchange, String method, Response response)
      throws IOException {
    exchange.getResponseHeaders().set("Content-Type", response.contentType());
    response.headers().forEach(exchange.getResponseHeaders()::set);
    boolean head = method.equals("HEAD");
    exchange.sendResponseHeaders(
        response.status(), head || response.body().length == 0 ? -1 : response.body().length);
    if (!head) {
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(response.body());
      }
    }
  }
}
