package io.formation.sdk;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.formation.testkit.FakeTime;
import java.util.ArrayList;
import java.util.List;

/** Clients for a {@link FaultServer}, and the bodies only the fault tests serve. */
final class FaultClients {
  /** Distinctive, so finding it anywhere in an exception means it leaked. */
  static final String TOKEN = "tok-FAULT-9f8e7d6c5b4a";

  static final String ID = "ds_fault";

  private FaultClients() {}

  /** Real time, as a partner's client: for the tests where waiting itself is the behaviour. */
  static FormationClient.Builder realTime(FaultServer server) {
    return FormationClient.builder().baseUrl(server.url()).accessToken(TOKEN);
  }

  /** Fake time and jitter fixed at its maximum: retries and polls never wait for real. */
  static FormationClient.Builder fakeTime(FaultServer server, FakeTime time) {
    return TestClients.fakeTime(realTime(server), time);
  }

  /** A forms list with one form whose only action has this method and url. */
  static String formWithAction(String method, String url) {
    ObjectNode form = Fixtures.MAPPER.createObjectNode().put("type", "forms").put("id", "company");
    ObjectNode attributes = form.putObject("attributes");
    attributes.putObject("schema").put("type", "object");
    attributes.putObject("values");
    attributes.putArray("actions").addObject().put("method", method).put("url", url);
    ObjectNode body = Fixtures.MAPPER.createObjectNode();
    body.putArray("data").add(form);
    return json(body);
  }

  /** A teams page with one team and the given {@code links.next} (any JSON value). */
  static String teamsPage(String teamId, JsonNode next) {
    ObjectNode body = Fixtures.MAPPER.createObjectNode();
    ObjectNode team = body.putArray("data").addObject().put("type", "teams").put("id", teamId);
    team.putObject("attributes").put("name", "Team " + teamId);
    ObjectNode links = body.putObject("links").put("self", "/v1/teams");
    links.set("next", next);
    return json(body);
  }

  /** A JSON:API errors document with one error. */
  static String error(String detail) {
    ObjectNode body = Fixtures.MAPPER.createObjectNode();
    body.putArray("errors").addObject().put("status", "400").put("detail", detail);
    return json(body);
  }

  static String json(JsonNode node) {
    return node.toString();
  }

  /** The throwable and its causes, outermost first, cycles cut. */
  static List<Throwable> causeChain(Throwable error) {
    List<Throwable> chain = new ArrayList<>();
    for (Throwable t = error; t != null && !chain.contains(t); t = t.getCause()) {
      chain.add(t);
    }
    return chain;
  }
}
