package io.formation.sdk;

import static java.time.Duration.ofSeconds;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.formation.sdk.model.ActionResult;
import io.formation.sdk.model.DocumentSet;
import io.formation.sdk.model.DocumentSetState;
import io.formation.sdk.model.Form;
import java.net.URI;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import mockwebserver3.Dispatcher;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;
import mockwebserver3.junit5.StartStop;
import okhttp3.HttpUrl;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The whole partner workflow against a small fake of the service that keeps state. */
class EndToEndTest {
  @StartStop final MockWebServer server = new MockWebServer();
  final FakeTime time = new FakeTime();
  final FakeService service = new FakeService();
  final List<String> seen = new CopyOnWriteArrayList<>();

  record Company(String name, long shares) {}

  record Founder(String name, String email) {}

  @BeforeEach
  void useTheFakeService() {
    server.setDispatcher(service);
  }

  PollOptions options() {
    return PollOptions.builder()
        .initialInterval(ofSeconds(1))
        .multiplier(2)
        .maxInterval(ofSeconds(30))
        .jitter(0)
        .onStateChange(set -> seen.add(set.state().value()))
        .build();
  }

  @Test
  void createFillEveryFormAndWaitUntilComplete() throws Exception {
    DocumentSet done;
    try (FormationClient client = TestClients.client(server, time)) {
      DocumentSet set = client.documentSets().create(DocumentSets.DELAWARE_CORPORATION);
      assertThat(set.state()).isEqualTo(DocumentSetState.INPUT_NEEDED);
      assertThat(set.appLink())
          .contains(URI.create("https://app.formation.example/sets/" + set.id()));

      List<Form> forms = client.documentSets().forms(set.id());
      assertThat(forms).extracting(Form::id).containsExactly("company", "founders");
      Form company = forms.get(0);
      Form founders = forms.get(1);

      // The values as the service sent them are incomplete: the service says which field.
      assertThatThrownBy(() -> client.forms().submit(company, company.values()))
          .isInstanceOfSatisfying(
              ValidationException.class,
              e -> assertThat(e.messagesByPointer()).containsOnlyKeys("/name"));
      assertThatThrownBy(
              () ->
                  client
                      .documentSets()
                      .awaitCompletion(
                          set.id(), options().newBuilder().inputNeededGrace(ofSeconds(0)).build()))
          .isInstanceOf(InputNeededException.class);

      Company current = client.forms().valuesAs(company, Company.class);
      ActionResult saved =
          client.forms().submit(company, new Company("Acme Robotics", current.shares()));
      assertThat(saved.form())
          .hasValueSatisfying(
              form -> assertThat(form.values().path("name").asText()).isEqualTo("Acme Robotics"));

      client
          .forms()
          .invoke(founders.action("save_draft").orElseThrow(), Map.of("founders", List.of()));
      ObjectNode founderValues = (ObjectNode) founders.values();
      founderValues
          .putArray("founders")
          .add(Fixtures.MAPPER.valueToTree(new Founder("Ada Lovelace", "ada@acme.example")))
          .add(Fixtures.MAPPER.valueToTree(new Founder("Grace Hopper", "grace@acme.example")));
      client.forms().submit(founders, founderValues);

      seen.clear();
      done = client.documentSets().awaitCompletion(set.id(), options());
    }

    assertThat(done.state().isComplete()).isTrue();
    assertThat(seen)
        .containsExactly(
            "signature_requests_needed",
            "awaiting_payment",
            "filing_in_progress",
            "finalizing",
            "complete");
    // The input_needed wait stopped at once; the last one waited 1 + 2 + 4 + 8 s.
    assertThat(time.sleeps())
        .containsExactly(ofSeconds(1), ofSeconds(2), ofSeconds(4), ofSeconds(8));

    FakeService.SetState state = service.sets.get(done.id());
    assertThat(state.values.get("company"))
        .isEqualTo(Fixtures.tree("{\"name\":\"Acme Robotics\",\"shares\":10000000}"));
    assertThat(state.values.get("founders").path("founders")).hasSize(2);
    assertThat(state.submitted).containsExactly("company", "founders");
    assertEveryRequestWasAuthorizedAndActionsWentToTheirOpaqueUrls();
  }

  @Test
  void theSameWorkflowThroughTheAsyncTwins() throws Exception {
    DocumentSet done;
    try (FormationClient client = TestClients.client(server, time)) {
      done =
          client
              .documentSets()
              .createAsync(CreateDocumentSetParams.of(DocumentSets.DELAWARE_CORPORATION))
              .thenCompose(
                  set ->
                      client
                          .forms()
                          .listAsync(set.id())
                          .thenCompose(
                              forms ->
                                  CompletableFuture.allOf(
                                      forms.stream()
                                          .map(
                                              form ->
                                                  client.forms().submitAsync(form, valuesFor(form)))
                                          .toArray(CompletableFuture<?>[]::new)))
                          .thenCompose(
                              submitted ->
                                  client.documentSets().awaitCompletionAsync(set.id(), options())))
              .get(30, TimeUnit.SECONDS);
    }

    assertThat(done.state().isComplete()).isTrue();
    assertThat(seen)
        .containsExactly(
            "signature_requests_needed",
            "awaiting_payment",
            "filing_in_progress",
            "finalizing",
            "complete");
    assertThat(service.sets.get(done.id()).submitted)
        .containsExactlyInAnyOrder("company", "founders");
    assertEveryRequestWasAuthorizedAndActionsWentToTheirOpaqueUrls();
  }

  private static Object valuesFor(Form form) {
    return form.id().equals("company")
        ? new Company("Acme Robotics", 10_000_000)
        : Map.of("founders", List.of(new Founder("Ada Lovelace", "ada@acme.example")));
  }

  private void assertEveryRequestWasAuthorizedAndActionsWentToTheirOpaqueUrls()
      throws InterruptedException {
    int count = server.getRequestCount();
    assertThat(count).isGreaterThan(5);
    for (int i = 0; i < count; i++) {
      RecordedRequest request = server.takeRequest();
      assertThat(request.getHeaders().get("Authorization"))
          .isEqualTo("Bearer " + TestClients.TOKEN);
      if (request.getUrl().encodedPath().startsWith("/actions/")) {
        assertThat(service.actionTargets).contains(request.getTarget());
      }
    }
    assertThat(service.refused).isEmpty();
  }

  /**
   * A tiny Document Set Formation Service: creates sets, serves two forms whose actions live at
   * opaque signed urls, validates and stores submitted values, and moves a set through its states
   * one poll at a time once every form is submitted.
   */
  static final class FakeService extends Dispatcher {
    private static final List<String> PROGRESS =
        List.of(
            "signature_requests_needed",
            "awaiting_payment",
            "filing_in_progress",
            "finalizing",
            "complete");

    final Map<String, SetState> sets = new HashMap<>();
    final Map<String, Action> actions = new HashMap<>();
    final Set<String> actionTargets = new LinkedHashSet<>();
    final List<String> refused = new ArrayList<>();

    static final class SetState {
      final String id;
      String state = "input_needed";
      int step = -1;
      final Map<String, JsonNode> values = new LinkedHashMap<>();
      final Set<String> submitted = new LinkedHashSet<>();

      SetState(String id) {
        this.id = id;
        values.put("company", Fixtures.tree("{\"name\":\"\",\"shares\":10000000}"));
        values.put("founders", Fixtures.tree("{\"founders\":[]}"));
      }
    }

    record Action(String setId, String formId, String method, boolean submits, String signature) {}

    @Override
    public synchronized MockResponse dispatch(RecordedRequest request) {
      if (!("Bearer " + TestClients.TOKEN).equals(request.getHeaders().get("Authorization"))) {
        refused.add(request.getRequestLine());
        return Fixtures.json(401, "{\"errors\":[{\"status\":\"401\",\"title\":\"Unauthorized\"}]}");
      }
      HttpUrl url = request.getUrl();
      List<String> path = url.pathSegments();
      String method = request.getMethod();
      if (method.equals("POST") && path.equals(List.of("v1", "document_sets"))) {
        return create(request);
      }
      if (path.size() >= 3 && path.get(0).equals("v1") && path.get(1).equals("document_sets")) {
        SetState set = sets.get(path.get(2));
        if (set == null) {
          return Fixtures.json(404, "{\"errors\":[{\"status\":\"404\",\"title\":\"Not found\"}]}");
        }
        if (method.equals("GET") && path.size() == 3) {
          return Fixtures.json(documentSet(poll(set)).toString());
        }
        if (method.equals("GET") && path.size() == 4 && path.get(3).equals("forms")) {
          return Fixtures.json(forms(set).toString());
        }
      }
      if (path.size() == 2 && path.get(0).equals("actions") && actions.containsKey(path.get(1))) {
        return act(request, actions.get(path.get(1)));
      }
      return Fixtures.json(404, "{\"errors\":[{\"status\":\"404\",\"title\":\"No route\"}]}");
    }

    private MockResponse create(RecordedRequest request) {
      JsonNode body = Fixtures.body(request);
      if (!body.path("template").asText().equals(DocumentSets.DELAWARE_CORPORATION)) {
        return Fixtures.json(422, "{\"errors\":[{\"source\":{\"pointer\":\"/template\"}}]}");
      }
      SetState set = new SetState("ds_" + (sets.size() + 1));
      sets.put(set.id, set);
      return Fixtures.json(201, documentSet(set).toString());
    }

    private SetState poll(SetState set) {
      if (set.submitted.size() == 2 && set.step < PROGRESS.size() - 1) {
        set.step++;
        set.state = PROGRESS.get(set.step);
      }
      return set;
    }

    private MockResponse act(RecordedRequest request, Action action) {
      if (!request.getMethod().equals(action.method())
          || !("sig=" + action.signature()).equals(request.getUrl().encodedQuery())) {
        return Fixtures.json(
            403, "{\"errors\":[{\"status\":\"403\",\"title\":\"Bad signature\"}]}");
      }
      SetState set = sets.get(action.setId());
      JsonNode values = Fixtures.body(request);
      if (action.submits()) {
        String invalid = invalidPointer(action.formId(), values);
        if (invalid != null) {
          return Fixtures.json(
              422,
              "{\"errors\":[{\"status\":\"422\",\"detail\":\"is"
                  + " required\",\"source\":{\"pointer\":\""
                  + invalid
                  + "\"}}]}");
        }
        set.submitted.add(action.formId());
      }
      set.values.put(action.formId(), values);
      ObjectNode document = Fixtures.MAPPER.createObjectNode();
      document.set("data", form(set, action.formId()));
      return Fixtures.json(document.toString());
    }

    private static String invalidPointer(String formId, JsonNode values) {
      if (formId.equals("company")) {
        return values.path("name").asText().isBlank() ? "/name" : null;
      }
      return values.path("founders").isEmpty() ? "/founders" : null;
    }

    private ObjectNode documentSet(SetState set) {
      ObjectNode document = Fixtures.MAPPER.createObjectNode();
      ObjectNode data = document.putObject("data").put("type", "document_sets").put("id", set.id);
      data.putObject("attributes").put("state", set.state);
      data.putObject("links").put("app", "https://app.formation.example/sets/" + set.id);
      return document;
    }

    private ObjectNode forms(SetState set) {
      ObjectNode document = Fixtures.MAPPER.createObjectNode();
      ArrayNode data = document.putArray("data");
      data.add(form(set, "company"));
      data.add(form(set, "founders"));
      return document;
    }

    private ObjectNode form(SetState set, String formId) {
      ObjectNode form = Fixtures.MAPPER.createObjectNode().put("type", "forms").put("id", formId);
      ObjectNode attributes = form.putObject("attributes");
      attributes.set(
          "schema",
          Fixtures.tree(
              formId.equals("company")
                  ? "{\"type\":\"object\",\"required\":[\"name\"],\"properties\":"
                      + "{\"name\":{\"type\":\"string\"},\"shares\":{\"type\":\"integer\"}}}"
                  : "{\"type\":\"object\",\"properties\":{\"founders\":{\"type\":\"array\"}}}"));
      attributes.set("uischema", Fixtures.tree("{\"type\":\"VerticalLayout\",\"elements\":[]}"));
      attributes.set("values", set.values.get(formId).deepCopy());
      ArrayNode list = attributes.putArray("actions");
      if (formId.equals("company")) {
        list.add(action(set, formId, "PUT", "submit", true));
      } else {
        list.add(action(set, formId, "POST", "save_draft", false));
        list.add(action(set, formId, "PATCH", "submit", true));
      }
      return form;
    }

    private ObjectNode action(
        SetState set, String formId, String method, String name, boolean submits) {
      String token = set.id + "-" + formId + "-" + name;
      // Signed with characters that only survive if the url is used exactly as returned.
      String signature = "k" + token.length() + "%2Fz%3D%3D";
      actions.put(token, new Action(set.id, formId, method, submits, signature));
      String url = "/actions/" + token + "?sig=" + signature;
      actionTargets.add(url);
      return Fixtures.MAPPER
          .createObjectNode()
          .put("method", method.toLowerCase(Locale.ROOT))
          .put("url", url)
          .put("name", name);
    }
  }
}
