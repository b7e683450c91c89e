package io.formation.sdk;

import static io.formation.sdk.Fixtures.fixture;
import static io.formation.sdk.Fixtures.json;
import static io.formation.sdk.Fixtures.tree;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import io.formation.sdk.internal.guards.Origins;
import io.formation.sdk.model.ActionResult;
import io.formation.sdk.model.Form;
import io.formation.sdk.model.FormAction;
import io.formation.testkit.FakeTime;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;
import mockwebserver3.junit5.StartStop;
import okhttp3.HttpUrl;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/** Form actions are opaque: sent with their method to their url exactly as returned. */
class ActionsTest {
  private static final JsonNode VALUES = tree("{\"name\":\"Acme Robotics\",\"shares\":100}");

  @StartStop final MockWebServer server = new MockWebServer();
  @StartStop final MockWebServer other = new MockWebServer();
  final FakeTime time = new FakeTime();

  static Stream<Arguments> everyMethodInEveryMode() {
    return Mode.inEveryMode("PUT", "POST", "PATCH", "put", "Post", "patch");
  }

  @ParameterizedTest
  @MethodSource("everyMethodInEveryMode")
  void invokeSendsTheActionsMethodToItsUrlWithTheValues(String method, Mode mode) throws Exception {
    ActionResult result;
    try (FormationClient client = TestClients.client(server, time)) {
      FormAction action = onlyAction(client, method, "/v1/opaque/f_1/submissions");
      server.enqueue(fixture("actions/form_plain.json"));
      result = mode.invoke(client, action, VALUES);
    }

    server.takeRequest();
    RecordedRequest request = server.takeRequest();
    assertThat(request.getMethod()).isEqualTo(method.toUpperCase(Locale.ROOT));
    assertThat(request.getTarget()).isEqualTo("/v1/opaque/f_1/submissions");
    assertThat(Fixtures.body(request)).isEqualTo(VALUES);
    assertThat(request.getHeaders().get("Content-Type")).startsWith("application/json");
    assertThat(request.getHeaders().get("Authorization")).isEqualTo("Bearer " + TestClients.TOKEN);
    assertThat(result.statusCode()).isEqualTo(200);
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "/v1/opaque/f_1?sig=a%2Fb%3D&x=1",
        "/v1/opaque/f_1?b=2&a=1&a=0",
        "/v1/opaque/f_1?sig=a+b~c&empty=&flag",
        "/v1/opaque/f%2F1/submit;v=2?q=%20",
        "/v1/document_sets/ds_1/forms/f_1/actions/submit",
        "/totally/elsewhere/on/the/same/origin",
      })
  void theActionUrlIsSentToExactlyAsReturned(String url) throws Exception {
    try (FormationClient client = TestClients.client(server, time)) {
      FormAction action = onlyAction(client, "PUT", url);
      assertThat(action.url()).isEqualTo(url);
      server.enqueue(json("{}"));
      client.forms().invoke(action, VALUES);
    }

    server.takeRequest();
    assertThat(server.takeRequest().getTarget()).isEqualTo(url);
  }

  @Test
  void anAbsoluteActionUrlOnTheBaseOriginIsUsedAsIs() throws Exception {
    String url = server.url("/elsewhere/submit?sig=a%2Fb%3D&x=1").toString();
    try (FormationClient client = TestClients.client(server, time)) {
      FormAction action = onlyAction(client, "POST", url);
      server.enqueue(json("{}"));
      client.forms().invoke(action, VALUES);
    }

    server.takeRequest();
    RecordedRequest request = server.takeRequest();
    assertThat(request.getTarget()).isEqualTo("/elsewhere/submit?sig=a%2Fb%3D&x=1");
    assertThat(request.getHeaders().get("Authorization")).isEqualTo("Bearer " + TestClients.TOKEN);
  }

  @Test
  void aRelativeActionUrlResolvesAgainstTheBaseUrlWithItsPathPrefix() throws Exception {
    try (FormationClient client =
        TestClients.builder(server, time).baseUrl(server.url("/api/").toString()).build()) {
      server.enqueue(
          json("[{\"id\":\"f1\",\"actions\":[{\"method\":\"PUT\",\"url\":\"opaque/f1?s=%2F\"}]}]"));
      server.enqueue(json("{}"));
      Form form = client.forms().list("ds_1").get(0);
      client.forms().submit(form, VALUES);
    }

    assertThat(server.takeRequest().getTarget()).isEqualTo("/api/v1/document_sets/ds_1/forms");
    assertThat(server.takeRequest().getTarget()).isEqualTo("/api/opaque/f1?s=%2F");
  }

  @ParameterizedTest
  @EnumSource(Mode.class)
  void anActionUrlOnAnotherOriginIsRefusedBeforeAnythingIsSent(Mode mode) {
    String url = other.url("/steal?x=1").toString();
    try (FormationClient client = TestClients.client(server, time)) {
      FormAction action = onlyAction(client, "PUT", url);
      int sent = server.getRequestCount();
      assertThatThrownBy(() -> mode.invoke(client, action, VALUES))
          .isInstanceOfSatisfying(
              UntrustedOriginException.class,
              e -> {
                assertThat(e.origin()).isEqualTo(Origins.origin(other.url("/")));
                assertThat(e.getMessage()).doesNotContain(TestClients.TOKEN);
              });
      assertThat(server.getRequestCount()).isEqualTo(sent);
    }
    assertThat(other.getRequestCount()).isZero();
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "https://evil.example/v1/opaque/f_1",
        "//evil.example/v1/opaque/f_1",
        "https://localhost/v1/opaque/f_1",
      })
  void actionUrlsOnOtherSchemesHostsOrPortsAreRefused(String url) {
    try (FormationClient client = TestClients.client(server, time)) {
      FormAction action = onlyAction(client, "POST", url);
      assertThatThrownBy(() -> client.forms().invoke(action, VALUES))
          .isInstanceOf(UntrustedOriginException.class);
    }
    assertThat(server.getRequestCount()).isEqualTo(1);
  }

  @Test
  void anActionUrlOnATrustedOriginIsSentThereWithTheToken() throws Exception {
    HttpUrl url = other.url("/partner/submit?sig=a%2Fb%3D&x=1");
    String origin = url.scheme() + "://" + url.host() + ":" + url.port();
    try (FormationClient client = TestClients.builder(server, time).trustOrigin(origin).build()) {
      FormAction action = onlyAction(client, "PATCH", url.toString());
      other.enqueue(json("{}"));
      client.forms().invoke(action, VALUES);
    }

    RecordedRequest request = other.takeRequest();
    assertThat(request.getMethod()).isEqualTo("PATCH");
    assertThat(request.getTarget()).isEqualTo("/partner/submit?sig=a%2Fb%3D&x=1");
    assertThat(request.getHeaders().get("Authorization")).isEqualTo("Bearer " + TestClients.TOKEN);
    assertThat(Fixtures.body(request)).isEqualTo(VALUES);
    assertThat(server.getRequestCount()).isEqualTo(1);
  }

  @ParameterizedTest
  @EnumSource(Mode.class)
  void a422SurfacesAsAValidationExceptionWithTheJsonPointers(Mode mode) {
    assertThatThrownBy(
            () -> invokeAnsweredWith(mode, json(422, Fixtures.read("errors/validation.json"))))
        .isInstanceOfSatisfying(
            ValidationException.class,
            e -> {
              assertThat(e.statusCode()).isEqualTo(422);
              assertThat(e.method()).isEqualTo("PUT");
              assertThat(e.url()).endsWith("/v1/opaque/f_1");
              assertThat(e.errors()).hasSize(4);
              assertThat(e.errors().get(0).pointer()).contains("/name");
              assertThat(e.errors().get(0).code()).contains("required");
              assertThat(e.messagesByPointer())
                  .containsExactly(
                      Map.entry("/name", "Company name is required"),
                      Map.entry("/shares", "must be positive; must be at most 10000000"),
                      Map.entry("", "The form is incomplete"));
              assertThat(e.body()).contains("Company name is required");
            });
    assertThat(server.getRequestCount()).isEqualTo(2);
  }

  @Test
  void aPostActionIsNotSentAgainAfterA503() {
    try (FormationClient client = TestClients.client(server, time)) {
      FormAction action = onlyAction(client, "POST", "/v1/opaque/f_1");
      server.enqueue(Fixtures.status(503));
      assertThatThrownBy(() -> client.forms().invoke(action, VALUES))
          .isInstanceOf(ServerException.class);
    }
    assertThat(server.getRequestCount()).isEqualTo(2);
    assertThat(time.sleeps()).isEmpty();
  }

  @ParameterizedTest
  @EnumSource(Mode.class)
  void submitUsesTheOnlyAction(Mode mode) throws Exception {
    try (FormationClient client = TestClients.client(server, time)) {
      server.enqueue(
          json(
              "[{\"id\":\"f1\",\"actions\":"
                  + "[{\"method\":\"post\",\"url\":\"/v1/opaque/only\",\"name\":\"save\"}]}]"));
      server.enqueue(json("{}"));
      mode.submit(client, client.forms().list("ds_1").get(0), VALUES);
    }
    server.takeRequest();
    RecordedRequest request = server.takeRequest();
    assertThat(request.getMethod()).isEqualTo("POST");
    assertThat(request.getTarget()).isEqualTo("/v1/opaque/only");
  }

  @Test
  void submitPicksTheActionNamedSubmitAmongSeveral() throws Exception {
    server.enqueue(fixture("forms/list_jsonapi.json"));
    server.enqueue(json("{}"));
    try (FormationClient client = TestClients.client(server, time)) {
      Form company = client.forms().list("ds_123").get(0);
      server.enqueue(
          json(
              "[{\"id\":\"f1\",\"actions\":["
                  + "{\"method\":\"POST\",\"url\":\"/v1/opaque/draft\",\"name\":\"save_draft\"},"
                  + "{\"method\":\"PUT\",\"url\":\"/v1/opaque/final\",\"name\":\"Submit\"},"
                  + "{\"method\":\"DELETE\",\"url\":\"/v1/opaque/discard\","
                  + "\"name\":\"discard\"}]}]"));
      client.forms().submit(company, VALUES);
      server.enqueue(json("{}"));
      client.forms().submit(client.forms().list("ds_1").get(0), VALUES);
    }
    server.takeRequest();
    assertThat(server.takeRequest().getRequestLine())
        .isEqualTo("PUT /v1/opaque/f_company?sig=a%2Fb%3D&x=1 HTTP/1.1");
    server.takeRequest();
    assertThat(server.takeRequest().getRequestLine()).isEqualTo("PUT /v1/opaque/final HTTP/1.1");
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "[]",
        "[{\"method\":\"POST\",\"url\":\"/a\",\"name\":\"save_draft\"},"
            + "{\"method\":\"PUT\",\"url\":\"/b\",\"name\":\"finish\"}]",
        "[{\"method\":\"POST\",\"url\":\"/a\"},{\"method\":\"PUT\",\"url\":\"/b\"}]",
      })
  void submitRefusesAFormWithoutOneClearSubmitAction(String actions) {
    server.enqueue(json("[{\"id\":\"f1\",\"actions\":" + actions + "}]"));
    try (FormationClient client = TestClients.client(server, time)) {
      Form form = client.forms().list("ds_1").get(0);
      assertThatThrownBy(() -> client.forms().submit(form, VALUES))
          .isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("f1");
      assertThatThrownBy(() -> client.forms().submitAsync(form, VALUES))
          .isInstanceOf(IllegalStateException.class);
    }
    assertThat(server.getRequestCount()).isEqualTo(1);
  }

  @ParameterizedTest
  @EnumSource(Mode.class)
  void theResultCarriesTheStatusTheRawBodyAndTheParsedForm(Mode mode) {
    ActionResult result =
        invokeAnsweredWith(mode, json(201, Fixtures.read("actions/form_jsonapi.json")));
    assertThat(result.statusCode()).isEqualTo(201);
    assertThat(result.body()).isEqualTo(tree(Fixtures.read("actions/form_jsonapi.json")));
    assertThat(result.form())
        .hasValueSatisfying(form -> assertThat(form.id()).isEqualTo("company"));
    assertThat(result.documentSet()).isEmpty();
  }

  @ParameterizedTest
  @EnumSource(Mode.class)
  void theResultCarriesTheParsedDocumentSet(Mode mode) {
    ActionResult result =
        invokeAnsweredWith(mode, json(202, Fixtures.read("actions/document_set_plain.json")));
    assertThat(result.statusCode()).isEqualTo(202);
    assertThat(result.form()).isEmpty();
    assertThat(result.documentSet())
        .hasValueSatisfying(
            set -> assertThat(set.state().value()).isEqualTo("signature_requests_needed"));
  }

  @ParameterizedTest
  @EnumSource(Mode.class)
  void anEmpty204ResultHasAMissingBodyAndNothingParsed(Mode mode) {
    ActionResult result = invokeAnsweredWith(mode, new MockResponse.Builder().code(204).build());
    assertThat(result.statusCode()).isEqualTo(204);
    assertThat(result.body().isMissingNode()).isTrue();
    assertThat(result.form()).isEmpty();
    assertThat(result.documentSet()).isEmpty();
  }

  @Test
  void aNonJsonSuccessBodyIsAnInvalidResponse() {
    MockResponse html =
        new MockResponse.Builder()
            .code(200)
            .addHeader("Content-Type", "text/html")
            .body("<html>proxy</html>")
            .build();
    assertThatThrownBy(() -> invokeAnsweredWith(Mode.BLOCKING, html))
        .isInstanceOfSatisfying(
            InvalidResponseException.class,
            e -> assertThat(e.body()).isEqualTo("<html>proxy</html>"));
  }

  /** Invokes a form's only action, a PUT, that the service answers with {@code answer}. */
  private ActionResult invokeAnsweredWith(Mode mode, MockResponse answer) {
    try (FormationClient client = TestClients.client(server, time)) {
      FormAction action = onlyAction(client, "PUT", "/v1/opaque/f_1");
      server.enqueue(answer);
      return mode.invoke(client, action, VALUES);
    }
  }

  /** Lists one form whose only action has this method and url, as the service would return it. */
  private FormAction onlyAction(FormationClient client, String method, String url) {
    server.enqueue(
        json(
            "{\"data\":[{\"type\":\"forms\",\"id\":\"f_1\",\"attributes\":{\"actions\":"
                + "[{\"method\":\""
                + method
                + "\",\"url\":\""
                + url
                + "\"}]}}]}"));
    Form form = client.forms().list("ds_1").get(0);
    assertThat(form.actions()).hasSize(1);
    return form.actions().get(0);
  }
}
