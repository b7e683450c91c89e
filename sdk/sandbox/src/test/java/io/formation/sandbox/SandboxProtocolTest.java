package io.formation.sandbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;

import com.fasterxml.jackson.databind.JsonNode;
import io.formation.sandbox.SandboxHttp.Reply;
import io.formation.testkit.FakeTime;
import java.net.URI;
import java.net.http.HttpRequest;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Authentication, routing and error documents common to every endpoint. */
final class SandboxProtocolTest extends SandboxFixture {
  @Test
  void requestWithoutATokenIsUnauthorized() {
    Reply reply = http.send("GET", "/v1/teams", null, null);

    assertThat(reply.status()).isEqualTo(401);
    assertThat(reply.contentType()).isEqualTo("application/vnd.api+json");
    assertThat(reply.headers().firstValue("WWW-Authenticate"))
        .hasValueSatisfying(challenge -> assertThat(challenge).startsWith("Bearer "));
    JsonNode error = reply.json().at("/errors/0");
    assertThat(error.get("status").asText()).isEqualTo("401");
    assertThat(error.get("code").asText()).isEqualTo("unauthorized");
    assertThat(error.get("title").asText()).isEqualTo("Unauthorized");
    assertThat(error.get("detail").asText()).isNotBlank();
  }

  @Test
  void requestWithAWrongTokenIsUnauthorized() {
    Reply reply = http.send("GET", "/v1/teams", null, "not-the-token");

    assertThat(reply.status()).isEqualTo(401);
    assertThat(reply.json().at("/errors/0/code").asText()).isEqualTo("unauthorized");
    assertThat(reply.headers().firstValue("WWW-Authenticate").orElseThrow())
        .contains("invalid_token");
  }

  @Test
  void requestWithAnotherAuthorizationSchemeIsUnauthorized() {
    Reply reply =
        SandboxHttp.send(
            HttpRequest.newBuilder(URI.create(sandbox.baseUrl() + "/v1/teams"))
                .header("Authorization", "Basic " + sandbox.token())
                .build());

    assertThat(reply.status()).isEqualTo(401);
  }

  @Test
  void everyEndpointRequiresTheToken() {
    String id = http.createDocumentSet();
    String action = http.submitUrl(id, "company");

    assertThat(http.send("POST", "/v1/document_sets", "{}", null).status()).isEqualTo(401);
    assertThat(http.send("GET", "/v1/document_sets/" + id, null, null).status()).isEqualTo(401);
    assertThat(http.send("GET", "/v1/document_sets/" + id + "/forms", null, null).status())
        .isEqualTo(401);
    assertThat(http.send("PUT", action, "{}", null).status()).isEqualTo(401);
    assertThat(http.send("GET", "/v1/nothing-here", null, null).status()).isEqualTo(401);
  }

  @Test
  void aSetWhoseAccessIsDeniedAnswers403UntilAccessIsGivenBack() {
    String id = http.createDocumentSet();
    String action = http.submitUrl(id, "company");
    String token = sandbox.token();

    sandbox.denyAccess(id, true);

    Reply denied = http.send("GET", "/v1/document_sets/" + id, null, token);
    assertThat(denied.status()).isEqualTo(403);
    assertThat(denied.json().at("/errors/0/code").asText()).isEqualTo("forbidden");
    assertThat(http.send("GET", "/v1/document_sets/" + id + "/forms", null, token).status())
        .isEqualTo(403);
    assertThat(http.send("PUT", action, "{}", token).status()).isEqualTo(403);
    assertThat(http.get("/v1/teams").status()).isEqualTo(200);

    sandbox.denyAccess(id, false);

    assertThat(http.send("GET", "/v1/document_sets/" + id, null, token).status()).isEqualTo(200);
  }

  @Test
  void sandboxAcceptsTheTokenItWasStartedWith() {
    try (FormationSandbox custom =
        FormationSandbox.start(SandboxOptions.defaults().withToken("partner-test"))) {
      SandboxHttp customHttp = new SandboxHttp(custom);

      assertThat(custom.token()).isEqualTo("partner-test");
      assertThat(customHttp.get("/v1/teams").status()).isEqualTo(200);
      assertThat(customHttp.send("GET", "/v1/teams", null, "sandbox-token").status())
          .isEqualTo(401);
    }
  }

  @Test
  void unknownPathIsNotFoundWithAnErrorsDocument() {
    Reply reply = http.get("/v1/companies");

    assertThat(reply.status()).isEqualTo(404);
    assertThat(reply.contentType()).isEqualTo("application/vnd.api+json");
    assertThat(reply.json().at("/errors/0/status").asText()).isEqualTo("404");
    assertThat(reply.json().at("/errors/0/code").asText()).isEqualTo("not_found");
  }

  @Test
  void wrongMethodIsNotAllowedAndSaysWhichIs() {
    Reply reply = http.send("DELETE", "/v1/teams", null, sandbox.token());

    assertThat(reply.status()).isEqualTo(405);
    assertThat(reply.headers().firstValue("Allow")).hasValue("GET");
    assertThat(reply.json().at("/errors/0/status").asText()).isEqualTo("405");
  }

  @Test
  void malformedJsonIsABadRequest() {
    Reply reply = http.post("/v1/document_sets", "{\"template\": ");

    assertThat(reply.status()).isEqualTo(400);
    assertThat(reply.json().at("/errors/0/status").asText()).isEqualTo("400");
    assertThat(reply.json().at("/errors/0/code").asText()).isEqualTo("malformed_json");
  }

  @Test
  void duplicateKeysAndTrailingGarbageCountAsMalformedJson() {
    assertThat(http.post("/v1/document_sets", "{\"template\":\"a\",\"template\":\"b\"}").status())
        .isEqualTo(400);
    assertThat(http.post("/v1/document_sets", "{\"template\":\"a\"} x").status()).isEqualTo(400);
  }

  @Test
  void sandboxRecordsEveryRequestIncludingRejectedOnes() {
    http.send("GET", "/v1/teams?page%5Bsize%5D=2", null, null);
    http.post("/v1/document_sets", "{\"template\":\"startup_delaware-corporation\"}");

    assertThat(sandbox.requests()).hasSize(2);
    SandboxRequest rejected = sandbox.requests().get(0);
    assertThat(rejected.sequence()).isZero();
    assertThat(rejected.method()).isEqualTo("GET");
    assertThat(rejected.target()).isEqualTo("/v1/teams?page%5Bsize%5D=2");
    assertThat(rejected.path()).isEqualTo("/v1/teams");
    assertThat(rejected.query()).containsExactly(entry("page[size]", List.of("2")));
    assertThat(rejected.header("Authorization")).isEmpty();
    assertThat(rejected.authorized()).isFalse();
    assertThat(rejected.status()).hasValue(401);
    assertThat(rejected.processed()).isTrue();
    assertThat(rejected.fault()).isEmpty();
    SandboxRequest created = sandbox.requests().get(1);
    assertThat(created.sequence()).isEqualTo(1);
    assertThat(created.method()).isEqualTo("POST");
    assertThat(created.body()).isEqualTo("{\"template\":\"startup_delaware-corporation\"}");
    assertThat(created.authorized()).isTrue();
    assertThat(created.status()).hasValue(201);
    assertThat(created.headers()).containsKey("content-type");
  }

  @Test
  void recordingNeverHoldsTheTokenItself() {
    http.get("/v1/teams");
    http.send("GET", "/v1/teams", null, "a-wrong-token");

    assertThat(sandbox.requests())
        .allSatisfy(
            request -> {
              assertThat(request.header("authorization")).hasValue(SandboxRequest.REDACTED);
              assertThat(request.toString()).doesNotContain(sandbox.token(), "a-wrong-token");
              assertThat(request.headers().toString())
                  .doesNotContain(sandbox.token(), "a-wrong-token");
            })
        .extracting(SandboxRequest::authorized)
        .containsExactly(true, false);
  }

  @Test
  void recordedTimeComesFromTheOptionsClock() {
    Instant start = Instant.parse("2025-06-01T10:00:00Z");
    FakeTime clock = new FakeTime(start);
    try (FormationSandbox timed =
        FormationSandbox.start(SandboxOptions.defaults().withClock(clock))) {
      SandboxHttp timedHttp = new SandboxHttp(timed);
      timedHttp.get("/v1/teams");
      clock.advance(Duration.ofMinutes(5));
      timedHttp.get("/v1/teams");

      assertThat(timed.requests())
          .extracting(SandboxRequest::receivedAt)
          .containsExactly(start, start.plus(Duration.ofMinutes(5)));
    }
  }

  @Test
  void recordedRequestsCannotBeChangedByTheirReader() {
    http.get("/v1/teams");

    assertThat(sandbox.requests()).isUnmodifiable();
    assertThat(sandbox.requests().get(0).headers()).isUnmodifiable();
  }

  @Test
  void appLinkServesAPageWithoutAToken() {
    String id = http.createDocumentSet();
    String app = http.get("/v1/document_sets/" + id).json().at("/data/links/app").asText();

    Reply page = SandboxHttp.send(HttpRequest.newBuilder(URI.create(app)).build());

    assertThat(page.status()).isEqualTo(200);
    assertThat(page.contentType()).startsWith("text/html");
    assertThat(page.body()).contains(id).contains("input_needed");
  }
}
