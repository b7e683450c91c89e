package io.formation.sandbox;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpHeaders;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/** Talks to a running sandbox the way a partner's HTTP client would. */
final class SandboxHttp {
  private static final HttpClient CLIENT =
      HttpClient.newBuilder()
          .version(HttpClient.Version.HTTP_1_1)
          .connectTimeout(Duration.ofSeconds(5))
          .build();

  /** A response, with its body parsed when it is JSON. */
  record Reply(int status, HttpHeaders headers, String body) {
    JsonNode json() {
      try {
        return Json.MAPPER.readTree(body);
      } catch (JsonProcessingException e) {
        throw new AssertionError("not JSON: " + body, e);
      }
    }

    String contentType() {
      return headers.firstValue("Content-Type").orElse("");
    }
  }

  private final FormationSandbox sandbox;

  SandboxHttp(FormationSandbox sandbox) {
    this.sandbox = sandbox;
  }

  Reply get(String path) {
    return send("GET", path, null, sandbox.token());
  }

  Reply post(String path, String body) {
    return send("POST", path, body, sandbox.token());
  }

  Reply put(String path, String body) {
    return send("PUT", path, body, sandbox.token());
  }

  Reply send(String method, String path, String body, String token) {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create(sandbox.baseUrl() + path))
            .timeout(Duration.ofSeconds(5))
            .method(
                method,
                body == null
                    ? HttpRequest.BodyPublishers.noBody()
                    : HttpRequest.BodyPublishers.ofString(body));
    if (body != null) {
      request.header("Content-Type", "application/json");
    }
    if (token != null) {
      request.header("Authorization", "Bearer " + token);
    }
    return send(request.build());
  }

  static Reply send(HttpRequest request) {
    try {
      HttpResponse<String> response = CLIENT.send(request, HttpResponse.BodyHandlers.ofString());
      return new Reply(response.statusCode(), response.headers(), response.body());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
  }

  /** Creates a Delaware document set and returns its id. */
  String createDocumentSet() {
    Reply reply = post("/v1/document_sets", "{\"template\":\"startup_delaware-corporation\"}");
    if (reply.status() != 201) {
      throw new AssertionError("create failed: " + reply.status() + " " + reply.body());
    }
    return reply.json().at("/data/id").asText();
  }

  /** Returns the state the API reports for a document set. */
  String state(String documentSetId) {
    return get("/v1/document_sets/" + documentSetId).json().at("/data/attributes/state").asText();
  }

  /** Submits every form's example values, as listed at this moment, and expects each accepted. */
  void submitAll(String documentSetId) {
    for (JsonNode form : get("/v1/document_sets/" + documentSetId + "/forms").json().get("data")) {
      SandboxForm values = Delaware.form(form.get("id").asText()).orElseThrow();
      Reply reply = put(form.at("/attributes/actions/0/url").asText(), values.example().toString());
      if (reply.status() != 200) {
        throw new AssertionError("submit failed: " + reply.status() + " " + reply.body());
      }
    }
  }

  /** Returns the submit url of a form, as the forms endpoint lists it. */
  String submitUrl(String documentSetId, String formId) {
    for (JsonNode form : get("/v1/document_sets/" + documentSetId + "/forms").json().get("data")) {
      if (form.get("id").asText().equals(formId)) {
        return form.at("/attributes/actions/0/url").asText();
      }
    }
    throw new AssertionError("no form " + formId);
  }
}
