package io.formation.sdk;

import static io.formation.sdk.Fixtures.created;
import static io.formation.sdk.Fixtures.documentSetBody;
import static io.formation.sdk.Fixtures.jsonApi;
import static io.formation.sdk.Fixtures.ok;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.fasterxml.jackson.databind.node.NullNode;
import io.formation.sdk.model.FormAction;
import io.formation.testkit.FakeTime;
import java.time.Duration;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;
import mockwebserver3.SocketEffect;
import mockwebserver3.junit5.StartStop;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

class TransportTest {
  @StartStop final MockWebServer server = new MockWebServer();
  final FakeTime time = new FakeTime();

  static final String SET = documentSetBody("ds1", "input_needed");

  @Test
  void everyRequestCarriesTheTokenJsonAcceptAndUserAgent() throws Exception {
    server.enqueue(ok(SET));
    server.enqueue(ok("{\"data\":[],\"links\":{\"next\":null}}"));
    try (FormationClient client = TestClients.builder(server, time).userAgent("acme/1.2").build()) {
      client.documentSets().get("ds1");
      client.teams().list().pages().iterator().next();
    }
    RecordedRequest get = server.takeRequest();
    assertThat(get.getHeaders().get("Authorization")).isEqualTo("Bearer " + TestClients.TOKEN);
    assertThat(get.getHeaders().get("Accept")).contains("application/json");
    assertThat(get.getHeaders().get("User-Agent"))
        .matches(
            "acme/1\\.2 formation-java/[^ ]+ java/"
                + Runtime.version().toString().replace("+", "\\+"));
    RecordedRequest teams = server.takeRequest();
    assertThat(teams.getHeaders().get("Accept")).isEqualTo("application/vnd.api+json");
    assertThat(teams.getHeaders().get("Authorization")).isEqualTo("Bearer " + TestClients.TOKEN);
  }

  @Test
  void tokenProviderIsAskedForEachRequestSoTokensCanRotate() throws Exception {
    server.enqueue(ok(SET));
    server.enqueue(ok(SET));
    int[] calls = {0};
    try (FormationClient client =
        TestClients.builder(server, time).tokenProvider(() -> "token-" + ++calls[0]).build()) {
      client.documentSets().get("ds1");
      client.documentSets().get("ds1");
    }
    assertThat(server.takeRequest().getHeaders().get("Authorization")).isEqualTo("Bearer token-1");
    assertThat(server.takeRequest().getHeaders().get("Authorization")).isEqualTo("Bearer token-2");
  }

  @ParameterizedTest
  @ValueSource(ints = {408, 429, 500, 502, 503, 504})
  void getIsRetriedOnTransientStatusesWithExponentialBackoff(int status) throws Exception {
    server.enqueue(jsonApi(status, ""));
    server.enqueue(jsonApi(status, ""));
    server.enqueue(ok(SET));
    try (FormationClient client = TestClients.client(server, time)) {
      assertThat(client.documentSets().get("ds1").id()).isEqualTo("ds1");
    }
    assertThat(server.getRequestCount()).isEqualTo(3);
    // Full jitter with the random source fixed at 1.0: the whole of each step, 100 ms then 200 ms.
    assertThat(time.sleeps()).containsExactly(Duration.ofMillis(100), Duration.ofMillis(200));
  }

  @Test
  void aRetryAfterOfZeroIsTheServiceSayingGoOnSoTheRetryGoesAtOnce() throws Exception {
    server.enqueue(new MockResponse.Builder().code(503).addHeader("Retry-After", "0").build());
    server.enqueue(ok(SET));
    try (FormationClient client = TestClients.client(server, time)) {
      client.documentSets().get("ds1");
    }
    assertThat(server.getRequestCount()).isEqualTo(2);
    assertThat(time.sleeps()).containsExactly(Duration.ZERO);
  }

  @Test
  void aRetryAfterLongerThanTheCallsOwnTimeoutEndsTheCallAtOnceWithTheTimeToRetry() {
    server.enqueue(new MockResponse.Builder().code(429).addHeader("Retry-After", "3").build());
    server.enqueue(ok(SET));
    try (FormationClient client = TestClients.client(server, time)) {
      RateLimitException e =
          catchThrowableOfType(
              RateLimitException.class,
              () ->
                  client
                      .documentSets()
                      .withOptions(RequestOptions.builder().timeout(Duration.ofSeconds(1)).build())
                      .get("ds1"));
      assertThat(e.retryAfter()).contains(Duration.ofSeconds(3));
    }
    assertThat(server.getRequestCount()).isEqualTo(1);
    assertThat(time.sleeps()).isEmpty();
  }

  @Test
  void aWaitHonoursARetryAfterLongerThanMaxRetryAfterOnlyUpToIt() {
    server.enqueue(new MockResponse.Builder().code(503).addHeader("Retry-After", "3600").build());
    PollOptions options = PollOptions.builder().timeout(Duration.ofDays(3)).build();
    try (FormationClient client =
        TestClients.builder(server, time).maxRetryAfter(Duration.ofSeconds(60)).build()) {
      PollResult result =
          client.documentSets().poll(client.documentSets().startWait("ds1", options), options);
      assertThat(result.kind()).isEqualTo(PollResult.Kind.FAILED_TRANSIENTLY);
      assertThat(result.nextPollIn()).isLessThanOrEqualTo(Duration.ofSeconds(60));
    }
  }

  @Test
  void retriesStopAfterMaxRetriesAndSurfaceTheLastError() {
    for (int i = 0; i < 4; i++) {
      server.enqueue(jsonApi(503, "{\"errors\":[{\"detail\":\"maintenance\"}]}"));
    }
    try (FormationClient client = TestClients.builder(server, time).maxRetries(3).build()) {
      ServerException e =
          catchThrowableOfType(ServerException.class, () -> client.documentSets().get("ds1"));
      assertThat(e.statusCode()).isEqualTo(503);
      assertThat(e.getMessage()).contains("503").contains("maintenance");
    }
    assertThat(server.getRequestCount()).isEqualTo(4);
    assertThat(time.sleeps()).hasSize(3);
  }

  @Test
  void fullJitterSpreadsEachWaitBetweenNothingAndAllOfItsExponentialStep() {
    server.enqueue(jsonApi(500, ""));
    server.enqueue(jsonApi(500, ""));
    server.enqueue(jsonApi(500, ""));
    server.enqueue(ok(SET));
    try (FormationClient client =
        TestClients.random(TestClients.builder(server, time).maxRetries(3), () -> 0.5).build()) {
      client.documentSets().get("ds1");
    }
    // Steps of 100, 200 and 400 ms, each cut to half by a draw of 0.5.
    assertThat(time.sleeps())
        .containsExactly(Duration.ofMillis(50), Duration.ofMillis(100), Duration.ofMillis(200));
  }

  @Test
  void withTheLeastDrawARetryWithoutRetryAfterGoesAtOnce() {
    server.enqueue(jsonApi(503, ""));
    server.enqueue(jsonApi(503, ""));
    server.enqueue(ok(SET));
    try (FormationClient client =
        TestClients.random(TestClients.builder(server, time), () -> 0.0).build()) {
      client.documentSets().get("ds1");
    }
    assertThat(server.getRequestCount()).isEqualTo(3);
    assertThat(time.sleeps()).containsExactly(Duration.ZERO, Duration.ZERO);
  }

  @Test
  void aPollsRetryComesNoSoonerThan100MillisecondsAfterItsFailureEvenWithTheLeastDraw() {
    server.enqueue(jsonApi(503, ""));
    server.enqueue(jsonApi(503, ""));
    server.enqueue(ok(SET));
    PollOptions options = PollOptions.defaults();
    try (FormationClient client =
        TestClients.random(TestClients.builder(server, time), () -> 0.0).build()) {
      client.documentSets().poll(client.documentSets().startWait("ds1", options), options);
    }
    assertThat(server.getRequestCount()).isEqualTo(3);
    // A poll's retry is a poll of its wait: no two closer than 100 ms, whatever the jitter.
    assertThat(time.sleeps()).containsExactly(Duration.ofMillis(100), Duration.ofMillis(100));
  }

  @Test
  void retryAfterInSecondsIsHonoured() {
    server.enqueue(jsonApi(429, "").newBuilder().addHeader("Retry-After", "7").build());
    server.enqueue(ok(SET));
    try (FormationClient client = TestClients.client(server, time)) {
      client.documentSets().get("ds1");
    }
    assertThat(time.sleeps()).containsExactly(Duration.ofSeconds(7));
  }

  @Test
  void retryAfterAsAnHttpDateIsHonoured() {
    String date =
        DateTimeFormatter.RFC_1123_DATE_TIME.format(
            time.instant().plusSeconds(12).atOffset(ZoneOffset.UTC));
    server.enqueue(jsonApi(503, "").newBuilder().addHeader("Retry-After", date).build());
    server.enqueue(ok(SET));
    try (FormationClient client = TestClients.client(server, time)) {
      client.documentSets().get("ds1");
    }
    assertThat(time.sleeps()).containsExactly(Duration.ofSeconds(12));
  }

  @Test
  void aRetryAfterLongerThanTheCapGoesBackToTheCallerInsteadOfRetryingEarly() {
    server.enqueue(jsonApi(429, "").newBuilder().addHeader("Retry-After", "86400").build());
    server.enqueue(ok(SET));
    try (FormationClient client =
        TestClients.builder(server, time).maxRetryAfter(Duration.ofSeconds(20)).build()) {
      RateLimitException e =
          catchThrowableOfType(RateLimitException.class, () -> client.documentSets().get("ds1"));
      assertThat(e.retryAfter()).contains(Duration.ofDays(1));
    }
    assertThat(server.getRequestCount()).isEqualTo(1);
    assertThat(time.sleeps()).isEmpty();
  }

  @ParameterizedTest
  @CsvSource({"PUT, 503, 2", "DELETE, 502, 2", "PATCH, 503, 1", "PATCH, 429, 2", "POST, 500, 1"})
  void actionMethodsAreRetriedOnlyWhereResendingIsSafe(String method, int status, int requests)
      throws Exception {
    server.enqueue(jsonApi(status, ""));
    server.enqueue(ok("{}"));
    FormAction action =
        new FormAction(
            method, "/v1/actions/a1", Optional.empty(), Optional.empty(), NullNode.getInstance());
    try (FormationClient client = TestClients.client(server, time)) {
      try {
        client.forms().invoke(action, Map.of("k", "v"));
      } catch (ApiException expectedWhenNotRetried) {
        assertThat(requests).isEqualTo(1);
      }
    }
    assertThat(server.getRequestCount()).isEqualTo(requests);
    assertThat(server.takeRequest().getMethod()).isEqualTo(method);
  }

  @Test
  void aCallTimeoutIsRetriedLikeAnyConnectionFailure() {
    server.enqueue(ok(SET).newBuilder().headersDelay(2, TimeUnit.SECONDS).build());
    server.enqueue(ok(SET));
    try (FormationClient client =
        TestClients.builder(server, time).callTimeout(Duration.ofMillis(200)).build()) {
      assertThat(client.documentSets().get("ds1").id()).isEqualTo("ds1");
    }
    assertThat(server.getRequestCount()).isEqualTo(2);
  }

  @Test
  void aTokenEchoedInAnErrorBodyIsRedacted() {
    server.enqueue(
        jsonApi(401, "{\"errors\":[{\"detail\":\"token " + TestClients.TOKEN + " expired\"}]}"));
    try (FormationClient client = TestClients.client(server, time)) {
      AuthenticationException e =
          catchThrowableOfType(
              AuthenticationException.class, () -> client.documentSets().get("ds1"));
      assertThat(e.getMessage()).endsWith("returned 401: token <redacted> expired");
      assertThat(e.body()).doesNotContain(TestClients.TOKEN);
    }
  }

  @Test
  void aCallerAuthenticatorNeverResendsARequestAfter401() {
    server.enqueue(jsonApi(401, ""));
    server.enqueue(created(SET));
    okhttp3.OkHttpClient withAuthenticator =
        new okhttp3.OkHttpClient.Builder()
            .authenticator(
                (route, response) ->
                    response.request().newBuilder().header("Authorization", "Basic x").build())
            .build();
    try (FormationClient client =
        TestClients.builder(server, time).httpClient(withAuthenticator).build()) {
      assertThatThrownBy(() -> client.documentSets().create(DocumentSets.DELAWARE_CORPORATION))
          .isInstanceOf(AuthenticationException.class);
    }
    assertThat(server.getRequestCount()).isEqualTo(1);
  }

  @ParameterizedTest
  @ValueSource(ints = {408, 500, 502, 503, 504})
  void postIsNeverResentAfterTheServiceMayHaveActed(int status) {
    server.enqueue(jsonApi(status, ""));
    server.enqueue(ok(SET));
    try (FormationClient client = TestClients.client(server, time)) {
      assertThatThrownBy(() -> client.documentSets().create(DocumentSets.DELAWARE_CORPORATION))
          .isInstanceOf(ApiException.class);
    }
    assertThat(server.getRequestCount()).isEqualTo(1);
  }

  @Test
  void postIsRetriedOn429BecauseTheServiceDidNotActOnIt() throws Exception {
    server.enqueue(jsonApi(429, "").newBuilder().addHeader("Retry-After", "1").build());
    server.enqueue(created(SET));
    try (FormationClient client = TestClients.client(server, time)) {
      assertThat(client.documentSets().create(DocumentSets.DELAWARE_CORPORATION).id())
          .isEqualTo("ds1");
    }
    assertThat(server.getRequestCount()).isEqualTo(2);
    assertThat(server.takeRequest().getBody().utf8())
        .isEqualTo(server.takeRequest().getBody().utf8());
  }

  @Test
  void postIsNotResentWhenTheConnectionDropsAfterTheRequestWasWritten() {
    server.enqueue(
        new MockResponse.Builder()
            .onResponseStart(SocketEffect.ShutdownConnection.INSTANCE)
            .build());
    server.enqueue(created(SET));
    try (FormationClient client = TestClients.client(server, time)) {
      assertThatThrownBy(() -> client.documentSets().create(DocumentSets.DELAWARE_CORPORATION))
          .isInstanceOf(NetworkException.class)
          .hasMessageContaining("POST");
    }
    assertThat(server.getRequestCount()).isEqualTo(1);
  }

  @Test
  void getIsResentWhenTheConnectionDrops() {
    server.enqueue(
        new MockResponse.Builder()
            .onResponseStart(SocketEffect.ShutdownConnection.INSTANCE)
            .build());
    server.enqueue(ok(SET));
    try (FormationClient client = TestClients.client(server, time)) {
      assertThat(client.documentSets().get("ds1").id()).isEqualTo("ds1");
    }
    assertThat(server.getRequestCount()).isEqualTo(2);
  }

  @Test
  void postIsRetriedWhenTheConnectionWasRefusedBeforeAnythingWasWritten() throws Exception {
    try (FormationClient client = TestClients.refusedBy(server, time)) {
      NetworkException e =
          catchThrowableOfType(
              NetworkException.class,
              () -> client.documentSets().create(DocumentSets.DELAWARE_CORPORATION));
      assertThat(e.getMessage()).contains("after 3 attempts");
    }
    assertThat(time.sleeps()).hasSize(2);
  }

  @Test
  void errorStatusesMapToTheirExceptionTypes() {
    assertMapped(400, BadRequestException.class);
    assertMapped(401, AuthenticationException.class);
    assertMapped(403, PermissionDeniedException.class);
    assertMapped(404, NotFoundException.class);
    assertMapped(409, ConflictException.class);
    assertMapped(422, ValidationException.class);
    assertMapped(429, RateLimitException.class);
    assertMapped(501, ServerException.class);
    assertMapped(418, ApiException.class);
  }

  private void assertMapped(int status, Class<? extends ApiException> type) {
    String body =
        "{\"errors\":[{\"status\":\""
            + status
            + "\",\"code\":\"c"
            + status
            + "\",\"title\":\"T\",\"detail\":\"detail "
            + status
            + "\",\"source\":{\"pointer\":\"/template\"}}]}";
    server.enqueue(jsonApi(status, body));
    try (FormationClient client = TestClients.builder(server, time).maxRetries(0).build()) {
      ApiException e =
          catchThrowableOfType(ApiException.class, () -> client.documentSets().get("ds1"));
      assertThat(e).isExactlyInstanceOf(type);
      assertThat(e.statusCode()).isEqualTo(status);
      assertThat(e.body()).isEqualTo(body);
      assertThat(e.errors())
          .singleElement()
          .satisfies(
              error -> {
                assertThat(error.code()).contains("c" + status);
                assertThat(error.detail()).contains("detail " + status);
                assertThat(error.pointer()).contains("/template");
              });
      assertThat(e.getMessage())
          .isEqualTo(
              "GET "
                  + server.url("/v1/document_sets/ds1")
                  + " returned "
                  + status
                  + ": detail "
                  + status)
          .doesNotContain(TestClients.TOKEN);
    }
  }

  @Test
  void errorMessagesLeaveOutTheQueryThatMayHoldASignature() {
    server.enqueue(jsonApi(422, "{\"errors\":[{\"detail\":\"bad email\"}]}"));
    String actionUrl = server.url("/v1/form_actions/tok?sig=s3cr3t").toString();
    io.formation.sdk.model.FormAction action =
        new io.formation.sdk.model.FormAction(
            "PUT",
            actionUrl,
            java.util.Optional.empty(),
            java.util.Optional.empty(),
            com.fasterxml.jackson.databind.node.NullNode.getInstance());
    try (FormationClient client = TestClients.client(server, time)) {
      ValidationException e =
          catchThrowableOfType(
              ValidationException.class, () -> client.forms().invoke(action, java.util.Map.of()));
      assertThat(e.getMessage())
          .doesNotContain("s3cr3t")
          .contains("/v1/form_actions/tok returned 422");
      assertThat(e.url()).isEqualTo(actionUrl);
    }
  }

  @Test
  void rateLimitExceptionCarriesTheRetryAfter() {
    server.enqueue(jsonApi(429, "").newBuilder().addHeader("Retry-After", "30").build());
    try (FormationClient client = TestClients.builder(server, time).maxRetries(0).build()) {
      RateLimitException e =
          catchThrowableOfType(RateLimitException.class, () -> client.documentSets().get("ds1"));
      assertThat(e.retryAfter()).contains(Duration.ofSeconds(30));
      assertThat(e.headers().get("Retry-After")).isEqualTo("30");
    }
  }

  @Test
  void anHtmlErrorPageIsShownAsASnippetNotAStackOfParseErrors() {
    server.enqueue(
        jsonApi(502, "<html>\n<body><h1>Bad   Gateway</h1></body>\n</html>")
            .newBuilder()
            .setHeader("Content-Type", "text/html")
            .build());
    try (FormationClient client = TestClients.builder(server, time).maxRetries(0).build()) {
      ServerException e =
          catchThrowableOfType(ServerException.class, () -> client.documentSets().get("ds1"));
      assertThat(e.errors()).isEmpty();
      assertThat(e.getMessage())
          .endsWith("returned 502: <html> <body><h1>Bad Gateway</h1></body> </html>");
    }
  }

  @Test
  void aSuccessWithAnHtmlBodyIsAnInvalidResponse() {
    server.enqueue(
        jsonApi(200, "<html>login</html>")
            .newBuilder()
            .setHeader("Content-Type", "text/html")
            .build());
    try (FormationClient client = TestClients.client(server, time)) {
      InvalidResponseException e =
          catchThrowableOfType(
              InvalidResponseException.class, () -> client.documentSets().get("ds1"));
      assertThat(e.getMessage())
          .contains("GET")
          .contains("200")
          .contains("not valid JSON")
          .contains("text/html");
      assertThat(e.body()).isEqualTo("<html>login</html>");
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("bodiesThatAreNoDocumentSet")
  void aBodyThatIsNoDocumentSetIsAnInvalidResponse(String what, String body, String message) {
    server.enqueue(ok(body));
    try (FormationClient client = TestClients.client(server, time)) {
      assertThatThrownBy(() -> client.documentSets().get("ds1"))
          .isInstanceOf(InvalidResponseException.class)
          .hasMessageContaining(message);
    }
  }

  static Stream<Arguments> bodiesThatAreNoDocumentSet() {
    return Stream.of(
        Arguments.of("truncated JSON", "{\"data\":{\"id\":\"ds1\",\"attri", "not valid JSON"),
        Arguments.of("an empty body", "", "returned 200 with an empty body"),
        Arguments.of("JSON of the wrong shape", "[1,2,3]", "document set"));
  }
}
