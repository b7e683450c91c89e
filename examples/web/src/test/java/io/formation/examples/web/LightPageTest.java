package io.formation.examples.web;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.CookieManager;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Import;

/**
 * The page is light on the wire: the page, its script and the API's JSON are sent compressed, the
 * script within its budget (which the build checks too, in build.mjs); no source map is served; the
 * progress stream is not compressed, as a compressor would hold its events back.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
@Import(SandboxForTests.class)
class LightPageTest {
  @RegisterExtension static final HangGuard GUARD = HangGuard.of(SandboxForTests.PATIENCE);

  /** build.mjs's SCRIPT_BUDGET_BYTES. */
  private static final int SCRIPT_BUDGET_BYTES = 200_000;

  @LocalServerPort int port;

  private final HttpClient http =
      HttpClient.newBuilder().cookieHandler(new CookieManager()).build();

  @Test
  void thePageAndItsScriptAreSentCompressedTheScriptWithinItsBudget() throws Exception {
    // The HTML (under 2 kB, Spring Boot's least worth compressing) goes as it is.
    HttpResponse<byte[]> script = get("/app.js");
    assertThat(script.statusCode()).isEqualTo(200);
    assertThat(script.headers().firstValue("Content-Encoding")).hasValue("gzip");
    assertThat(script.body().length).isLessThanOrEqualTo(SCRIPT_BUDGET_BYTES);
  }

  @Test
  void noSourceMapIsServed() throws Exception {
    assertThat(get("/app.js.map").statusCode()).isEqualTo(404);
    assertThat(get("/app.css.map").statusCode()).isEqualTo(404);
    HttpResponse<String> plain =
        http.send(
            HttpRequest.newBuilder(uri("/app.js")).GET().build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(plain.body()).doesNotContain("sourceMappingURL");
  }

  @Test
  void theProgressStreamIsNotCompressed() throws Exception {
    HttpResponse<String> started =
        http.send(
            HttpRequest.newBuilder(uri("/api/formations"))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{}"))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(started.statusCode()).isEqualTo(201);
    String id = new ObjectMapper().readTree(started.body()).path("id").asText();

    HttpResponse<InputStream> stream =
        http.send(
            HttpRequest.newBuilder(uri("/api/formations/" + id + "/events"))
                .header("Accept", "text/event-stream")
                .header("Accept-Encoding", "gzip")
                .GET()
                .build(),
            HttpResponse.BodyHandlers.ofInputStream());
    try (BufferedReader events =
        new BufferedReader(new InputStreamReader(stream.body(), StandardCharsets.UTF_8))) {
      assertThat(stream.headers().firstValue("Content-Encoding")).isEmpty();
      // The first state arrives as it is sent, readable as it comes.
      assertThat(events.readLine()).startsWith("event:state");
    }
  }

  private HttpResponse<byte[]> get(String path) throws Exception {
    return http.send(
        HttpRequest.newBuilder(uri(path)).header("Accept-Encoding", "gzip").GET().build(),
        HttpResponse.BodyHandlers.ofByteArray());
  }

  private URI uri(String path) {
    return URI.create("http://localhost:" + port + path);
  }
}
