package io.formation.sdk;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import mockwebserver3.MockResponse;
import mockwebserver3.RecordedRequest;

/** JSON fixtures from {@code src/test/resources/fixtures} and the responses the tests script. */
final class Fixtures {
  /** The tests' own mapper: they read and write JSON as any client of the service would. */
  static final ObjectMapper MAPPER = new ObjectMapper();

  private Fixtures() {}

  /** The text of {@code fixtures/<name>}. */
  static String read(String name) {
    try (InputStream in = Fixtures.class.getClassLoader().getResourceAsStream("fixtures/" + name)) {
      if (in == null) {
        throw new IllegalArgumentException("No fixture " + name);
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** A 200 with the fixture as its JSON body. */
  static MockResponse fixture(String name) {
    return json(200, read(name));
  }

  static MockResponse json(String body) {
    return json(200, body);
  }

  static MockResponse json(int code, String body) {
    return response(code, "application/json", body);
  }

  /** The body as JSON:API's media type, the service's own. */
  static MockResponse jsonApi(int code, String body) {
    return response(code, "application/vnd.api+json", body);
  }

  static MockResponse ok(String body) {
    return jsonApi(200, body);
  }

  static MockResponse created(String body) {
    return jsonApi(201, body);
  }

  private static MockResponse response(int code, String contentType, String body) {
    return new MockResponse.Builder()
        .code(code)
        .addHeader("Content-Type", contentType)
        .body(body)
        .build();
  }

  /** A status with an empty body, such as a bare 503. */
  static MockResponse status(int code) {
    return new MockResponse.Builder().code(code).build();
  }

  /** A JSON:API document set in the given state. */
  static MockResponse documentSet(String id, String state) {
    return json(documentSetBody(id, state));
  }

  /** The body of a JSON:API document set in the given state. */
  static String documentSetBody(String id, String state) {
    ObjectNode data = MAPPER.createObjectNode().put("type", "document_sets").put("id", id);
    data.putObject("attributes").put("state", state);
    ObjectNode body = MAPPER.createObjectNode();
    body.set("data", data);
    return body.toString();
  }

  static JsonNode tree(String json) {
    try {
      return MAPPER.readTree(json);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The request body parsed as JSON. */
  static JsonNode body(RecordedRequest request) {
    return tree(request.getBody() == null ? "" : request.getBody().utf8());
  }
}
