package io.formation.sdk;

import static org.assertj.core.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.formation.sdk.internal.Wire;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Clients for a {@link FaultServer}, the bodies the fault tests serve, and reflective access to the
 * API issue 9 adds ({@code requestSent()}, {@code maxResponseBytes}, an optional {@code
 * lastSeen()}), so the suite compiles and runs on code that does not have it yet and fails there
 * with a message that says what is missing.
 */
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
    return realTime(server).clock(time).sleeper(time).random(() -> 1.0);
  }

  /** A JSON:API document set. */
  static String documentSet(String id, String state) {
    ObjectNode data = Wire.MAPPER.createObjectNode().put("type", "document_sets").put("id", id);
    data.putObject("attributes").put("state", state);
    return json(wrap(data));
  }

  /** A forms list with one form whose only action has this method and url. */
  static String formWithAction(String method, String url) {
    ObjectNode form = Wire.MAPPER.createObjectNode().put("type", "forms").put("id", "company");
    ObjectNode attributes = form.putObject("attributes");
    attributes.putObject("schema").put("type", "object");
    attributes.putObject("values");
    attributes.putArray("actions").addObject().put("method", method).put("url", url);
    ObjectNode body = Wire.MAPPER.createObjectNode();
    body.putArray("data").add(form);
    return json(body);
  }

  /** A teams page with one team and the given {@code links.next} (any JSON value). */
  static String teamsPage(String teamId, JsonNode next) {
    ObjectNode body = Wire.MAPPER.createObjectNode();
    ObjectNode team = body.putArray("data").addObject().put("type", "teams").put("id", teamId);
    team.putObject("attributes").put("name", "Team " + teamId);
    ObjectNode links = body.putObject("links").put("self", "/v1/teams");
    links.set("next", next);
    return json(body);
  }

  /** A JSON:API errors document with one error. */
  static String error(String detail) {
    ObjectNode body = Wire.MAPPER.createObjectNode();
    body.putArray("errors").addObject().put("status", "400").put("detail", detail);
    return json(body);
  }

  static String json(JsonNode node) {
    return node.toString();
  }

  private static ObjectNode wrap(ObjectNode data) {
    ObjectNode body = Wire.MAPPER.createObjectNode();
    body.set("data", data);
    return body;
  }

  /** The throwable and its causes, outermost first, cycles cut. */
  static List<Throwable> causeChain(Throwable error) {
    List<Throwable> chain = new ArrayList<>();
    for (Throwable t = error; t != null && !chain.contains(t); t = t.getCause()) {
      chain.add(t);
    }
    return chain;
  }

  /** {@code NetworkException.requestSent()}. */
  static boolean requestSent(NetworkException e) {
    return (Boolean) call(e, "requestSent", NetworkException.class);
  }

  /** {@code PollTimeoutException.lastSeen()}, which issue 9 makes an {@code Optional}. */
  static Optional<?> lastSeen(PollTimeoutException e) {
    Object value = call(e, "lastSeen", PollTimeoutException.class);
    if (!(value instanceof Optional<?> optional)) {
      return fail("PollTimeoutException.lastSeen() does not return an Optional yet (issue 9)");
    }
    return optional;
  }

  /** {@code FormationClient.Builder.maxResponseBytes(long)}. */
  static FormationClient.Builder maxResponseBytes(FormationClient.Builder builder, long max) {
    try {
      Method method = FormationClient.Builder.class.getMethod("maxResponseBytes", long.class);
      return (FormationClient.Builder) method.invoke(builder, max);
    } catch (NoSuchMethodException e) {
      return fail("FormationClient.Builder.maxResponseBytes(long) is not there yet (issue 9)");
    } catch (IllegalAccessException e) {
      throw new IllegalStateException(e);
    } catch (InvocationTargetException e) {
      throw rethrow(e);
    }
  }

  private static Object call(Object target, String name, Class<?> type) {
    try {
      return type.getMethod(name).invoke(target);
    } catch (NoSuchMethodException e) {
      return fail(type.getSimpleName() + "." + name + "() is not there yet (issue 9)");
    } catch (IllegalAccessException e) {
      throw new IllegalStateException(e);
    } catch (InvocationTargetException e) {
      throw rethrow(e);
    }
  }

  private static RuntimeException rethrow(InvocationTargetException e) {
    if (e.getCause() instanceof RuntimeException runtime) {
      throw runtime;
    }
    if (e.getCause() instanceof Error error) {
      throw error;
    }
    throw new IllegalStateException(e.getCause());
  }
}
