package io.formation.sdk;

import static io.formation.sdk.Fixtures.ok;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.formation.testkit.FakeTime;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;
import mockwebserver3.junit5.StartStop;
import okhttp3.OkHttpClient;
import okhttp3.Response;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class SecurityTest {
  @StartStop final MockWebServer server = new MockWebServer();
  @StartStop final MockWebServer other = new MockWebServer();
  final FakeTime time = new FakeTime();

  static final String SET = TransportTest.SET;

  @Test
  void aNextLinkToAnotherOriginIsRefusedBeforeAnythingIsSent() {
    String foreign = other.url("/v1/teams?page%5Bafter%5D=x").toString();
    server.enqueue(ok(page("t1", "\"" + foreign + "\"")));
    try (FormationClient client = TestClients.client(server, time)) {
      Iterator<io.formation.sdk.model.Team> teams = client.teams().list().iterator();
      assertThat(teams.next().id()).isEqualTo("t1");
      UntrustedOriginException e =
          catchThrowableOfType(UntrustedOriginException.class, teams::hasNext);
      assertThat(e.origin()).isEqualTo("http://" + other.getHostName() + ":" + other.getPort());
      assertThat(e.getMessage()).contains(e.origin()).doesNotContain(TestClients.TOKEN);
    }
    assertThat(server.getRequestCount()).isEqualTo(1);
    assertThat(other.getRequestCount()).isZero();
  }

  @Test
  void aTrustedOriginReceivesTheToken() throws Exception {
    String foreign = other.url("/v1/teams?page%5Bafter%5D=x").toString();
    server.enqueue(ok(page("t1", "\"" + foreign + "\"")));
    other.enqueue(ok(page("t2", "null")));
    String origin = "http://" + other.getHostName() + ":" + other.getPort();
    try (FormationClient client = TestClients.builder(server, time).trustOrigin(origin).build()) {
      assertThat(client.teams().list().stream().map(t -> t.id())).containsExactly("t1", "t2");
    }
    RecordedRequest sent = other.takeRequest();
    assertThat(sent.getTarget()).isEqualTo("/v1/teams?page%5Bafter%5D=x");
    assertThat(sent.getHeaders().get("Authorization")).isEqualTo("Bearer " + TestClients.TOKEN);
  }

  @Test
  void aRedirectToAnotherHostDoesNotCarryTheToken() throws Exception {
    server.enqueue(
        new MockResponse.Builder()
            .code(302)
            .addHeader("Location", other.url("/landing").toString())
            .build());
    other.enqueue(ok(SET));
    try (FormationClient client = TestClients.client(server, time)) {
      client.documentSets().get("ds1");
    }
    assertThat(server.takeRequest().getHeaders().get("Authorization")).isNotNull();
    RecordedRequest redirected = other.takeRequest();
    assertThat(redirected.getTarget()).isEqualTo("/landing");
    assertThat(redirected.getHeaders().get("Authorization")).isNull();
  }

  @Test
  void plainHttpIsRefusedForAHostThatIsNotLoopback() {
    assertThatThrownBy(
            () ->
                FormationClient.builder()
                    .baseUrl("http://api.example.com")
                    .accessToken("t")
                    .build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("plain http")
        .hasMessageContaining("api.example.com");
    assertThatThrownBy(
            () ->
                FormationClient.builder()
                    .baseUrl("https://api.example.com")
                    .trustOrigin("http://cdn.example.com")
                    .accessToken("t")
                    .build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("trusted origin");
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "http://localhost:8080",
        "http://127.0.0.1:9",
        "http://[::1]:9",
        "https://api.example.com"
      })
  void loopbackHttpAndHttpsBaseUrlsAreAccepted(String baseUrl) {
    try (FormationClient client =
        FormationClient.builder().baseUrl(baseUrl).accessToken("t").build()) {
      assertThat(client.toString()).contains("baseUrl=");
    }
  }

  @Test
  void plainHttpIsAcceptedWhenTheCallerOptsIn() {
    try (FormationClient client =
        FormationClient.builder()
            .baseUrl("http://api.internal")
            .allowInsecureHttp(true)
            .accessToken("t")
            .build()) {
      assertThat(client.toString()).isEqualTo("FormationClient{baseUrl=http://api.internal/}");
    }
  }

  @ParameterizedTest
  @CsvSource({
    "../teams, /v1/document_sets/..%2Fteams",
    "a/b, /v1/document_sets/a%2Fb",
    "'a b?c#d', /v1/document_sets/a%20b%3Fc%23d",
    "%2e%2e, /v1/document_sets/%252e%252e",
  })
  void pathParametersAreEncodedAsExactlyOneSegment(String id, String path) throws Exception {
    server.enqueue(ok(SET));
    try (FormationClient client = TestClients.client(server, time)) {
      client.documentSets().get(id);
    }
    assertThat(server.takeRequest().getTarget()).isEqualTo(path);
  }

  @ParameterizedTest
  @ValueSource(strings = {"", " ", ".", ".."})
  void blankOrDotIdsAreRejectedBeforeAnyRequest(String id) {
    try (FormationClient client = TestClients.client(server, time)) {
      assertThatThrownBy(() -> client.documentSets().get(id))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("document set id");
      assertThatThrownBy(() -> client.forms().list(id))
          .isInstanceOf(IllegalArgumentException.class);
    }
    assertThat(server.getRequestCount()).isZero();
  }

  @Test
  void nullIdIsRejectedBeforeAnyRequest() {
    try (FormationClient client = TestClients.client(server, time)) {
      assertThatThrownBy(() -> client.documentSets().get(null))
          .isInstanceOf(IllegalArgumentException.class);
    }
    assertThat(server.getRequestCount()).isZero();
  }

  @Test
  void aBaseUrlPathPrefixIsKept() throws Exception {
    server.enqueue(ok(SET));
    try (FormationClient client =
        TestClients.builder(server, time).baseUrl(server.url("/formation").toString()).build()) {
      client.documentSets().get("ds1");
    }
    assertThat(server.takeRequest().getTarget()).isEqualTo("/formation/v1/document_sets/ds1");
  }

  @Test
  void theTokenAppearsNowhereButInTheAuthorizationHeader() {
    server.enqueue(Fixtures.jsonApi(401, "{\"errors\":[{\"detail\":\"bad token\"}]}"));
    List<String> seenByCallerInterceptors = new ArrayList<>();
    OkHttpClient shared =
        new OkHttpClient.Builder()
            .addInterceptor(
                chain -> {
                  seenByCallerInterceptors.add(chain.request().headers().toString());
                  return chain.proceed(chain.request());
                })
            .addNetworkInterceptor(
                chain -> {
                  seenByCallerInterceptors.add(chain.request().headers().toString());
                  Response response = chain.proceed(chain.request());
                  seenByCallerInterceptors.add(response.request().headers().toString());
                  return response;
                })
            .build();
    try (FormationClient client = TestClients.builder(server, time).httpClient(shared).build()) {
      assertThat(client.toString()).doesNotContain(TestClients.TOKEN);
      AuthenticationException e =
          catchThrowableOfType(
              AuthenticationException.class, () -> client.documentSets().get("ds1"));
      assertThat(e.getMessage()).doesNotContain(TestClients.TOKEN).contains("bad token");
      assertThat(e.toString()).doesNotContain(TestClients.TOKEN);
    }
    assertThat(seenByCallerInterceptors).hasSize(3).noneMatch(h -> h.contains(TestClients.TOKEN));
  }

  @Test
  void aNetworkFailureMessageNeverContainsTheToken() throws Exception {
    int port = server.getPort();
    try (FormationClient client = TestClients.refusedBy(server, time)) {
      NetworkException e =
          catchThrowableOfType(NetworkException.class, () -> client.documentSets().get("ds1"));
      assertThat(e.getMessage())
          .contains("GET http://127.0.0.1:" + port)
          .doesNotContain(TestClients.TOKEN);
    }
  }

  static String page(String id, String next) {
    return "{\"data\":[{\"type\":\"teams\",\"id\":\""
        + id
        + "\",\"attributes\":{\"name\":\"Team "
        + id
        + "\"}}],\"links\":{\"self\":\"/v1/teams\",\"next\":"
        + next
        + "}}";
  }
}
