package io.formation.spring.autoconfigure;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import mockwebserver3.MockResponse;

/** JSON the service sends, from src/test/resources. */
final class Fixtures {
  private Fixtures() {}

  static String json(String name) {
    try (InputStream in = Fixtures.class.getResourceAsStream(name)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static MockResponse ok(String name) {
    return answer(200, name);
  }

  static MockResponse created(String name) {
    return answer(201, name);
  }

  private static MockResponse answer(int code, String name) {
    return new MockResponse.Builder()
        .code(code)
        .setHeader("Content-Type", "application/vnd.api+json")
        .body(json(name))
        .build();
  }
}
