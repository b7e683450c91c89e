package io.formation.sdk;

import static io.formation.sdk.FaultClients.ID;
import static io.formation.sdk.FaultClients.TOKEN;
import static io.formation.sdk.FaultClients.error;
import static io.formation.sdk.FaultClients.formWithAction;
import static io.formation.sdk.FaultClients.teamsPage;
import static io.formation.sdk.FaultServer.Fault.json;
import static io.formation.sdk.Fixtures.documentSetBody;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.BooleanNode;
import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.TextNode;
import io.formation.sdk.FaultServer.Fault;
import io.formation.sdk.FaultServer.Recorded;
import io.formation.sdk.model.Form;
import io.formation.sdk.model.FormAction;
import io.formation.sdk.model.Team;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * What a hostile or broken service sends back, over a real socket: methods that would inject a
 * request line, bodies that echo the token, links to other schemes, and bodies too large to hold.
 * Each must end in a {@link FormationException} that gives nothing away, with nothing sent after.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class FaultHostileResponsesTest extends FaultFixture {
  private static final long LIMIT = 64 << 10;
  private static final String SET = documentSetBody(ID, "filing_in_progress");
  private static final String FORMS_PATH = "/v1/document_sets/" + ID + "/forms";

  private FormationClient client() {
    client = FaultClients.fakeTime(server, time).maxRetries(0).build();
    return client;
  }

  @ParameterizedTest
  @ValueSource(strings = {"POST /x HTTP/1.1\r\nX-Injected: yes", "PO ST", "", "P(ST"})
  void anActionMethodThatIsNotAnHttpTokenMakesTheFormsAnInvalidResponse(String method) {
    server.enqueue(json(200, formWithAction(method, "/v1/actions/a1")));
    assertThatThrownBy(() -> client().forms().list(ID))
        .isInstanceOf(InvalidResponseException.class);
    assertThat(server.requests()).extracting(Recorded::path).containsExactly(FORMS_PATH);
  }

  @ParameterizedTest
  @ValueSource(strings = {"PO ST", "POST /x HTTP/1.1\r\nX-Injected: yes", "P(ST", "GET\u0000"})
  void aFormActionWhoseMethodIsNotAnHttpTokenCannotBeBuilt(String method) {
    assertThatThrownBy(
            () ->
                new FormAction(
                    method,
                    "/v1/actions/a1",
                    Optional.empty(),
                    Optional.empty(),
                    NullNode.getInstance()))
        .isInstanceOf(IllegalArgumentException.class);
  }

  /** Each case: what the server answers, and the call that reads it. */
  static Stream<Arguments> answersEchoingTheToken() {
    Consumer<FormationClient> get = c -> c.documentSets().get(ID);
    Consumer<FormationClient> forms = c -> c.forms().list(ID);
    Consumer<FormationClient> teams = c -> c.teams().list().stream().toList();
    JsonNode setWithoutState =
        Fixtures.MAPPER
            .createObjectNode()
            .set("data", Fixtures.MAPPER.createObjectNode().put("id", TOKEN));
    return Stream.of(
        Arguments.of(
            "a 200 that is not JSON",
            new Fault.Answer(
                200,
                List.of("Content-Type: text/html"),
                ("<html>signed in as " + TOKEN + "</html>").getBytes(StandardCharsets.UTF_8),
                FaultServer.After.KEEP_ALIVE),
            get),
        Arguments.of("a 200 of truncated JSON", json(200, "{\"data\":{\"id\":\"" + TOKEN), get),
        Arguments.of(
            "a document set whose id is the token, without a state",
            json(200, setWithoutState.toString()),
            get),
        Arguments.of(
            "a 200 of the wrong shape", json(200, "{\"unexpected\":\"" + TOKEN + "\"}"), get),
        Arguments.of(
            "a forms list whose action method carries the token",
            json(200, formWithAction("PO ST " + TOKEN, "/v1/actions/a1")),
            forms),
        Arguments.of(
            "a teams page whose next link carries the token",
            json(200, teamsPage("t1", TextNode.valueOf("javascript:" + TOKEN))),
            teams),
        Arguments.of("a 400 echoing the token", json(400, "bad token " + TOKEN), get),
        Arguments.of("a 500 echoing the token", json(500, "<pre>" + TOKEN + "</pre>"), get),
        Arguments.of(
            "a JSON:API error whose detail echoes it",
            json(422, error("token " + TOKEN + " lacks a scope")),
            get));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("answersEchoingTheToken")
  void theTokenNeverAppearsInAnExceptionOrItsCauses(
      String answer, Fault fault, Consumer<FormationClient> call) {
    server.enqueue(fault);
    Throwable thrown = catchThrowable(() -> call.accept(client()));
    assertThat(thrown).as(answer).isInstanceOf(FormationException.class);
    StringWriter trace = new StringWriter();
    thrown.printStackTrace(new PrintWriter(trace));
    assertThat(trace.toString()).as("the stack trace of " + answer).doesNotContain(TOKEN);
    for (Throwable t : FaultClients.causeChain(thrown)) {
      assertThat(String.valueOf(t.getMessage())).doesNotContain(TOKEN);
      assertThat(t.toString()).doesNotContain(TOKEN);
      if (t instanceof InvalidResponseException invalid) {
        assertThat(invalid.body()).as("body()").doesNotContain(TOKEN);
      }
      if (t instanceof ApiException api) {
        assertThat(api.body()).as("body()").doesNotContain(TOKEN);
        assertThat(api.errors().toString()).as("errors()").doesNotContain(TOKEN);
      }
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"ftp://x/y", "javascript:alert(1)", "file:///etc/passwd", "data:,x"})
  void aNextLinkWithAnotherSchemeIsRefusedAsUntrustedWhenThePagerGoesOn(String link) {
    server.enqueue(json(200, teamsPage("t1", TextNode.valueOf(link))));
    Iterator<Team> teams = client().teams().list().iterator();
    assertThat(teams.next().id()).isEqualTo("t1");
    assertThatThrownBy(teams::hasNext).isInstanceOf(UntrustedOriginException.class);
    assertThat(server.requests()).hasSize(1);
  }

  static Stream<Arguments> malformedNextLinks() {
    return Stream.of(
        Arguments.of(TextNode.valueOf("")),
        Arguments.of(IntNode.valueOf(42)),
        Arguments.of(BooleanNode.TRUE),
        Arguments.of(Fixtures.MAPPER.createObjectNode().put("href", 5)),
        Arguments.of(Fixtures.MAPPER.createObjectNode().put("rel", "next")),
        Arguments.of(Fixtures.MAPPER.createArrayNode().add("/v1/teams?page%5Bafter%5D=x")));
  }

  @ParameterizedTest
  @MethodSource("malformedNextLinks")
  void aNextLinkThatIsNotAStringOrAnObjectWithAStringHrefIsAnInvalidResponse(JsonNode next) {
    server.enqueue(json(200, teamsPage("t1", next)));
    server.otherwise(json(200, teamsPage("t2", NullNode.getInstance())));
    assertThatThrownBy(() -> client().teams().list().stream().toList())
        .isInstanceOf(InvalidResponseException.class);
    assertThat(server.requests()).hasSize(1);
  }

  @ParameterizedTest
  @ValueSource(strings = {"ftp://x/y", "javascript:alert(1)", "file:///etc/passwd", "data:,x"})
  void anActionUrlWithAnotherSchemeIsRefusedAsUntrustedBeforeAnythingIsSent(String url) {
    FormAction action =
        new FormAction("PUT", url, Optional.of("submit"), Optional.empty(), NullNode.getInstance());
    Form form =
        new Form(
            "company",
            MissingNode.getInstance(),
            MissingNode.getInstance(),
            Fixtures.MAPPER.createObjectNode(),
            List.of(action),
            NullNode.getInstance());
    assertThatThrownBy(() -> client().forms().submit(form, Map.of("name", "Acme")))
        .isInstanceOf(UntrustedOriginException.class);
    assertThat(server.connectionCount()).isZero();
  }

  static Stream<Arguments> bodiesOverTheLimit() {
    return Stream.of(
        Arguments.of("declared Content-Length", Fault.flood(200, SET, false)),
        Arguments.of("chunked, endless", Fault.flood(200, SET, true)),
        Arguments.of("gzip bomb", Fault.gzipBomb(200, SET, 16 << 20)));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("bodiesOverTheLimit")
  void aSuccessBodyOverMaxResponseBytesIsAnInvalidResponseNamingTheLimit(String how, Fault fault) {
    server.enqueue(fault);
    client = FaultClients.fakeTime(server, time).maxRetries(0).maxResponseBytes(LIMIT).build();
    InvalidResponseException e =
        assertTimeoutPreemptively(
            Duration.ofSeconds(10),
            () ->
                catchThrowableOfType(
                    InvalidResponseException.class, () -> client.documentSets().get(ID)));
    assertThat(e).as(how).isNotNull();
    assertThat(e.getMessage()).containsAnyOf("65536", "64 KiB", "64KiB");
    // What was read, at most: the limit and one buffer more, never the whole flood.
    assertThat(e.body().length()).isLessThanOrEqualTo((int) (2 * LIMIT));
  }

  @Test
  void anAsyncCallStopsReadingAtMaxResponseBytesToo() {
    server.enqueue(Fault.flood(200, SET, true));
    client = FaultClients.fakeTime(server, time).maxRetries(0).maxResponseBytes(LIMIT).build();
    Throwable failure =
        assertTimeoutPreemptively(
            Duration.ofSeconds(10),
            () ->
                catchThrowable(() -> client.documentSets().getAsync(ID).get(10, TimeUnit.SECONDS)));
    assertThat(failure).hasCauseInstanceOf(InvalidResponseException.class);
  }

  @Test
  void aBodyOfExactlyMaxResponseBytesIsRead() {
    String padded = SET + " ".repeat((int) LIMIT - SET.length());
    server.enqueue(json(200, padded));
    client = FaultClients.fakeTime(server, time).maxRetries(0).maxResponseBytes(LIMIT).build();
    assertThat(client.documentSets().get(ID).id()).isEqualTo(ID);
  }

  static Stream<Arguments> hugeErrorBodies() {
    return Stream.of(
        Arguments.of("1 MiB, declared", json(500, "<html>overloaded" + " ".repeat(1 << 20))),
        Arguments.of("endless, chunked", Fault.flood(500, "<html>overloaded", true)));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("hugeErrorBodies")
  void aServerErrorWithAHugeBodyKeepsOnlyItsFirst64KiB(String how, Fault fault) {
    server.enqueue(fault);
    ServerException e =
        assertTimeoutPreemptively(
            Duration.ofSeconds(10),
            () ->
                catchThrowableOfType(ServerException.class, () -> client().documentSets().get(ID)));
    assertThat(e).as(how).isNotNull();
    assertThat(e.statusCode()).isEqualTo(500);
    assertThat(e.body()).startsWith("<html>overloaded");
    assertThat(e.body().length()).isLessThanOrEqualTo((64 << 10) + 64);
  }
}
