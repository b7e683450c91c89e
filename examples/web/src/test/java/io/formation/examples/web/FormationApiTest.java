package io.formation.examples.web;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.formation.examples.web.PageClient.Event;
import io.formation.examples.web.PageClient.Events;
import io.formation.examples.web.PageClient.Received;
import io.formation.sandbox.FormValidator;
import io.formation.sandbox.FormationSandbox;
import io.formation.sandbox.SandboxForm;
import io.formation.sandbox.SandboxOptions;
import io.formation.sandbox.SandboxRequest;
import io.formation.sandbox.SandboxTemplates;
import io.formation.sandbox.Violation;
import io.formation.testkit.FakeTime;
import java.io.IOException;
import java.net.CookieManager;
import java.net.HttpCookie;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Import;

/**
 * The page's API over HTTP, against the embedded sandbox, as a browser without JavaScript would use
 * it: what it answers, which of the service's urls it calls, and what it never lets out.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
@Import(SandboxForTests.class)
class FormationApiTest {
  @RegisterExtension static final HangGuard GUARD = HangGuard.of(SandboxForTests.PATIENCE);

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Map<String, SandboxForm> FORMS = new HashMap<>();

  static {
    for (SandboxForm form : SandboxTemplates.forms(SandboxTemplates.DELAWARE_CORPORATION)) {
      FORMS.put(form.id(), form);
    }
  }

  @LocalServerPort int port;
  @Autowired FormationSandbox sandbox;
  @Autowired FakeTime clock;
  @Autowired SandboxOptions options;
  @Autowired ProgressStream progress;

  PageClient page;

  @BeforeEach
  void newBrowserSession() {
    page = new PageClient(port);
  }

  @Test
  void startingAFormationCreatesADocumentSetAtTheService() {
    Received started = page.postJson("/api/formations", "{}");

    assertThat(started.status()).isEqualTo(201);
    JsonNode body = json(started);
    String id = body.path("id").asText();
    assertThat(sandbox.documentSet(id)).isPresent();
    assertThat(body.path("state").asText()).isEqualTo("input_needed");
    assertThat(body.path("appLink").asText())
        .isEqualTo(sandbox.baseUrl() + "/app/document_sets/" + id);
  }

  @Test
  void thePersonIsACookieNoScriptCanReadNoOtherSiteSendsAndThatOutlivesTheBrowser() {
    Received started = page.postJson("/api/formations", "{\"startKey\": \"cookie-check-1\"}");

    assertThat(started.headers())
        .filteredOn(header -> header.toLowerCase(java.util.Locale.ROOT).startsWith("set-cookie:"))
        .singleElement()
        .asString()
        .contains("formation-person=", "HttpOnly", "SameSite=Strict", "Max-Age=34560000", "Path=/")
        // Plain http to localhost: local development, where Safari and Java's client keep no Secure
        // cookie.
        .doesNotContain("Secure", "__Host-");
  }

  @Test
  void outsideLocalDevelopmentThePersonCookieIsSecureAndHostPrefixed() throws IOException {
    // The same backend, addressed by a name that is not this machine's, as through a proxy.
    try (okhttp3.Response response =
        new okhttp3.OkHttpClient()
            .newCall(
                new okhttp3.Request.Builder()
                    .url("http://localhost:" + port + "/api/formations")
                    .header("Host", "formation.example")
                    .post(
                        okhttp3.RequestBody.create(
                            "{\"startKey\": \"cookie-check-2\"}",
                            okhttp3.MediaType.get("application/json")))
                    .build())
            .execute()) {
      assertThat(response.code()).isEqualTo(201);
      assertThat(response.headers("Set-Cookie"))
          .singleElement()
          .asString()
          .startsWith("__Host-formation-person=")
          .contains("Secure", "HttpOnly", "SameSite=Strict", "Path=/")
          .doesNotContain("Domain");
    }
  }

  @Test
  void aPersonIdTheBackendNeverIssuedIsReplacedNotAdopted() {
    // Someone plants a well-formed id of their choosing in another person's browser...
    String planted = "plantedByAnAttacker0001";
    CookieManager victimsJar = new CookieManager();
    plant(victimsJar, planted.substring(0, 22));
    PageClient victim = new PageClient(port, victimsJar);
    CookieManager attackersJar = new CookieManager();
    plant(attackersJar, planted.substring(0, 22));
    PageClient attacker = new PageClient(port, attackersJar);

    // ...who then starts a formation: the backend issues an id of its own instead.
    Received started = victim.postJson("/api/formations", "{\"startKey\": \"planted-1\"}");
    assertThat(started.status()).isEqualTo(201);
    String id = json(started).path("id").asText();
    assertThat(started.headers())
        .filteredOn(header -> header.toLowerCase(java.util.Locale.ROOT).startsWith("set-cookie:"))
        .singleElement()
        .asString()
        .contains("formation-person=")
        .doesNotContain(planted.substring(0, 22));
    assertThat(json(victim.get("/api/formations")).get(0).path("id").asText()).isEqualTo(id);

    // The planted id names nobody: it lists nothing and reaches nothing.
    assertThat(json(attacker.get("/api/formations"))).isEmpty();
    assertThat(attacker.get("/api/formations/" + id + "/forms").status()).isEqualTo(404);
    assertThat(attacker.postJson("/api/formations/" + id + "/forms/company", "{}").status())
        .isEqualTo(404);
  }

  @Test
  void oneStartKeySentByTwoPeopleBecomesTwoIdempotencyKeysThatNameNeitherKeyNorPerson() {
    PageClient other = new PageClient(port);
    int before = createKeys().size();

    Received mine = page.postJson("/api/formations", "{\"startKey\": \"shared-start-1\"}");
    Received theirs = other.postJson("/api/formations", "{\"startKey\": \"shared-start-1\"}");

    assertThat(mine.status()).isEqualTo(201);
    assertThat(theirs.status()).isEqualTo(201);
    List<String> keys = createKeys().subList(before, before + 2);
    assertThat(keys).doesNotHaveDuplicates();
    assertThat(keys)
        .allSatisfy(
            key ->
                assertThat(key).doesNotContain("shared-start-1", personId(mine), personId(theirs)));
  }

  /** The person id the backend issued in this answer's cookie. */
  private static String personId(Received received) {
    return received.headers().stream()
        .filter(h -> h.toLowerCase(java.util.Locale.ROOT).startsWith("set-cookie:"))
        .map(h -> h.replaceAll(".*formation-person=([^;]+);.*", "$1"))
        .findFirst()
        .orElseThrow();
  }

  /** The Idempotency-Key of every create the sandbox received, in order. */
  private List<String> createKeys() {
    return sandbox.requests().stream()
        .filter(r -> r.method().equals("POST") && r.path().equals("/v1/document_sets"))
        .map(r -> r.header("Idempotency-Key").orElseThrow())
        .toList();
  }

  private void plant(CookieManager jar, String personId) {
    HttpCookie cookie = new HttpCookie(People.COOKIE, personId);
    cookie.setPath("/");
    cookie.setVersion(0);
    jar.getCookieStore().add(URI.create("http://localhost:" + port + "/"), cookie);
  }

  @Test
  void formsReachTheBrowserExactlyAsTheServiceSentThemWithoutTheirActions() {
    String id = start();

    Received received = page.get("/api/formations/" + id + "/forms");

    assertThat(received.status()).isEqualTo(200);
    Map<String, JsonNode> served = rawForms(id);
    List<String> ids = new ArrayList<>();
    for (JsonNode form : json(received)) {
      String formId = form.path("id").asText();
      ids.add(formId);
      JsonNode sent = served.get(formId).path("attributes");
      assertThat(form.get("schema")).isEqualTo(sent.get("json_schema"));
      assertThat(form.get("uischema")).isEqualTo(sent.get("ui_schema"));
      assertThat(form.get("data")).isEqualTo(sent.get("values"));
      assertThat(form.has("actions")).isFalse();
      for (JsonNode action : sent.path("actions")) {
        assertThat(received.body()).doesNotContain(action.path("url").asText());
      }
    }
    assertThat(ids).containsExactlyElementsOf(served.keySet());
  }

  @Test
  void submittingCallsThatFormsOwnActionWithItsMethodAndTheValues() {
    String id = start();
    JsonNode action = rawForms(id).get("company").path("attributes").path("actions").get(0);
    JsonNode values = FORMS.get("company").example();

    Received submitted =
        page.postJson("/api/formations/" + id + "/forms/company", values.toString());

    assertThat(submitted.status()).isEqualTo(200);
    assertThat(json(submitted).path("data")).isEqualTo(values);
    List<SandboxRequest> calls = actionCalls(id);
    assertThat(calls).hasSize(1);
    SandboxRequest call = calls.get(0);
    assertThat(call.method()).isEqualTo(action.path("method").asText());
    assertThat(call.target()).isEqualTo(action.path("url").asText());
    assertThat(parse(call.body())).isEqualTo(values);
  }

  @Test
  void anUnknownFormIdIsRefusedAndNoActionIsCalled() {
    String id = start();

    Received refused = page.postJson("/api/formations/" + id + "/forms/no_such_form", "{}");

    assertThat(refused.status()).isEqualTo(404);
    assertThat(refused.headers()).contains("content-type: application/problem+json");
    assertThat(json(refused).path("detail").asText()).contains("no form no_such_form");
    assertThat(actionCalls(id)).isEmpty();
  }

  @Test
  void aFormationStartedInAnotherSessionIsNotReachable() {
    String id = start();
    PageClient stranger = new PageClient(port);

    assertThat(stranger.get("/api/formations/" + id + "/forms").status()).isEqualTo(404);
    assertThat(stranger.postJson("/api/formations/" + id + "/forms/company", "{}").status())
        .isEqualTo(404);
    assertThat(actionCalls(id)).isEmpty();
  }

  @Test
  void postsThatAreNotJsonAreRefusedWith415() {
    String id = start();
    String company = "/api/formations/" + id + "/forms/company";
    int before = requestsBesidesPolls();

    assertThat(page.post("/api/formations", "text/plain", "{}").status()).isEqualTo(415);
    assertThat(page.post("/api/formations", null, "").status()).isEqualTo(415);
    assertThat(page.post(company, "application/x-www-form-urlencoded", "name=x").status())
        .isEqualTo(415);
    assertThat(page.post(company, "text/plain", "{\"name\":\"x\"}").status()).isEqualTo(415);
    assertThat(requestsBesidesPolls()).isEqualTo(before);
  }

  /**
   * The requests the sandbox received, less tracking's reads of a set's state, which come when they
   * fall due whatever the page does.
   */
  private int requestsBesidesPolls() {
    return (int)
        sandbox.requests().stream()
            .filter(r -> !(r.method().equals("GET") && r.path().matches(".*/document_sets/[^/]+")))
            .count();
  }

  @Test
  void anotherOriginGetsNoPermissionToCall() {
    Received preflight =
        page.send(
            HttpRequest.newBuilder(URI.create("http://localhost:" + port + "/api/formations"))
                .method("OPTIONS", HttpRequest.BodyPublishers.noBody())
                .header("Origin", "https://elsewhere.example")
                .header("Access-Control-Request-Method", "POST")
                .header("Access-Control-Request-Headers", "content-type"));

    assertThat(preflight.headers()).noneMatch(h -> h.startsWith("access-control-allow-"));
  }

  @Test
  void rejectedValuesComeBackWithTheServicesJsonPointers() {
    String id = start();
    JsonNode values = parse("{\"name\": \"\", \"suffix\": \"Ltd\", \"website\": \"not a uri\"}");
    List<String> expected =
        FormValidator.validate(FORMS.get("company").jsonSchema(), values).stream()
            .map(Violation::pointer)
            .toList();

    Received rejected =
        page.postJson("/api/formations/" + id + "/forms/company", values.toString());

    assertThat(rejected.status()).isEqualTo(422);
    List<String> pointers = new ArrayList<>();
    json(rejected).path("errors").forEach(e -> pointers.add(e.path("pointer").asText()));
    assertThat(pointers)
        .containsExactlyInAnyOrderElementsOf(expected)
        .contains("/name", "/website");
    json(rejected).path("errors").forEach(e -> assertThat(e.path("message").asText()).isNotBlank());
  }

  @Test
  void progressIsStreamedStateByStateUntilCompleteAndInputNeededAgainIsReported() {
    String id = start();
    FORMS.keySet().forEach(formId -> submitExample(id, formId));
    SandboxForTests.leave(clock, options, "input_needed");

    List<Event> first = follow(id);

    assertThat(first)
        .extracting(Event::name)
        .containsExactly("state", "state", "state", "input_needed");
    assertThat(states(first))
        .containsExactly("signature_requests_needed", "awaiting_payment", "input_needed");
    assertThat(json(first.get(3)).path("returned").asBoolean()).isTrue();

    // The service reopened a form: its values no longer satisfy its schema.
    JsonNode people = formsById(id).get("people");
    assertThat(FormValidator.validate(people.get("schema"), people.get("data"))).isNotEmpty();
    submitExample(id, "people");
    SandboxForTests.leave(clock, options, "input_needed");

    List<Event> second = follow(id);

    assertThat(states(second))
        .containsExactly(
            "awaiting_payment",
            "payment_processing",
            "filing_in_progress",
            "finalizing",
            "complete");
    Event last = second.get(second.size() - 1);
    assertThat(last.name()).isEqualTo("complete");
    assertThat(json(last).path("appLink").asText()).endsWith("/app/document_sets/" + id);
    JsonNode unlisted =
        json(
            second.stream().filter(e -> e.data().contains("payment_processing")).findFirst().get());
    assertThat(unlisted.path("known").asBoolean()).isFalse();
  }

  @Test
  void byDefaultTheHeartbeatFindsAClosedTabWithinAMinute() {
    // The first write after the browser left may still be taken by the network stack; the second
    // fails. So two heartbeats bound how long a closed tab's stream lives (PersonFormationsTest
    // shows it dropped with a short heartbeat).
    assertThat(progress.heartbeat().multipliedBy(2)).isLessThanOrEqualTo(Duration.ofMinutes(1));
  }

  @Test
  void theTokenNeverReachesTheBrowser() {
    String id = start();
    page.get("/");
    page.get("/index.html");
    page.get("/app.js");
    page.get("/app.css");
    page.get("/api/formations/" + id + "/forms");
    page.postJson("/api/formations/" + id + "/forms/company", "{\"name\": \"\"}");
    page.postJson("/api/formations/" + id + "/forms/nope", "{}");
    page.post("/api/formations", "text/plain", "x");
    page.get("/api/formations/ds_not_mine/forms");
    FORMS.keySet().forEach(formId -> submitExample(id, formId));
    SandboxForTests.leave(clock, options, "input_needed");
    follow(id);

    assertThat(page.received()).hasSizeGreaterThan(10);
    for (Received received : page.received()) {
      assertThat(received.body()).doesNotContain(SandboxForTests.TOKEN);
      assertThat(received.headers()).noneMatch(h -> h.contains(SandboxForTests.TOKEN));
    }
    assertThat(sandbox.requests()).allMatch(SandboxRequest::authorized);
  }

  private String start() {
    return json(page.postJson("/api/formations", "{}")).path("id").asText();
  }

  private void submitExample(String id, String formId) {
    Received submitted =
        page.postJson(
            "/api/formations/" + id + "/forms/" + formId, FORMS.get(formId).example().toString());
    assertThat(submitted.status()).as(submitted.body()).isEqualTo(200);
  }

  private Map<String, JsonNode> formsById(String id) {
    Map<String, JsonNode> forms = new HashMap<>();
    json(page.get("/api/formations/" + id + "/forms"))
        .forEach(form -> forms.put(form.path("id").asText(), form));
    return forms;
  }

  /** Reads one event stream to its end, moving the clock on after each state seen. */
  private List<Event> follow(String id) {
    List<Event> events = new ArrayList<>();
    try (Events stream = page.events(id)) {
      assertThat(stream.status()).isEqualTo(200);
      assertThat(stream.contentType()).startsWith("text/event-stream");
      while (true) {
        Event event = stream.next();
        events.add(event);
        if (!event.name().equals("state")) {
          return events;
        }
        String state = json(event).path("state").asText();
        if (!state.equals("input_needed") && !state.equals("complete")) {
          SandboxForTests.leave(clock, options, state);
        }
      }
    }
  }

  private static List<String> states(List<Event> events) {
    return events.stream()
        .filter(e -> e.name().equals("state"))
        .map(e -> json(e).path("state").asText())
        .toList();
  }

  /** The requests the sandbox received on the action urls of this document set's forms. */
  private List<SandboxRequest> actionCalls(String id) {
    List<String> urls = new ArrayList<>();
    rawForms(id)
        .values()
        .forEach(
            f ->
                f.path("attributes")
                    .path("actions")
                    .forEach(a -> urls.add(a.path("url").asText())));
    assertThat(urls).isNotEmpty();
    return sandbox.requests().stream().filter(r -> urls.contains(r.target())).toList();
  }

  /** The forms as the service itself serves them, fetched with the token, by form id. */
  private Map<String, JsonNode> rawForms(String id) {
    try {
      HttpResponse<String> response =
          HttpClient.newHttpClient()
              .send(
                  HttpRequest.newBuilder(
                          URI.create(sandbox.baseUrl() + "/v1/document_sets/" + id + "/forms"))
                      .header("Authorization", "Bearer " + sandbox.token())
                      .build(),
                  HttpResponse.BodyHandlers.ofString());
      Map<String, JsonNode> forms = new java.util.LinkedHashMap<>();
      parse(response.body()).path("data").forEach(f -> forms.put(f.path("id").asText(), f));
      return forms;
    } catch (IOException e) {
      throw new IllegalStateException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  private static JsonNode json(Received received) {
    return parse(received.body());
  }

  private static JsonNode json(Event event) {
    return parse(event.data());
  }

  private static JsonNode parse(String json) {
    try {
      return JSON.readTree(json);
    } catch (IOException e) {
      throw new IllegalStateException("not JSON: " + json, e);
    }
  }
}
