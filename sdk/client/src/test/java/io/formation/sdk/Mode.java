package io.formation.sdk;

import io.formation.sdk.model.ActionResult;
import io.formation.sdk.model.DocumentSet;
import io.formation.sdk.model.Form;
import io.formation.sdk.model.FormAction;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.params.provider.Arguments;

/**
 * How a test calls the SDK: the blocking method, or its async twin, whose result or failure is
 * taken from the future as the blocking method would give it. A test parameterized by the mode
 * proves that both share one behaviour.
 */
enum Mode {
  BLOCKING,
  ASYNC;

  /** {@return each value with each mode: the arguments of a test parameterized by both} */
  static Stream<Arguments> inEveryMode(Object... values) {
    return Stream.of(values).flatMap(v -> Stream.of(values()).map(mode -> Arguments.of(v, mode)));
  }

  /** {@return each case with each mode appended to its arguments} */
  static Stream<Arguments> inEveryMode(Stream<Arguments> cases) {
    return cases.flatMap(
        c ->
            Stream.of(values())
                .map(
                    mode ->
                        Arguments.of(
                            Stream.concat(Stream.of(c.get()), Stream.of(mode)).toArray())));
  }

  DocumentSet create(FormationClient client, String template) {
    return call(
        () -> client.documentSets().create(template),
        () -> client.documentSets().createAsync(template));
  }

  DocumentSet get(FormationClient client, String id) {
    return call(() -> client.documentSets().get(id), () -> client.documentSets().getAsync(id));
  }

  List<Form> list(FormationClient client, String documentSetId) {
    return call(
        () -> client.forms().list(documentSetId), () -> client.forms().listAsync(documentSetId));
  }

  ActionResult invoke(FormationClient client, FormAction action, Object values) {
    return call(
        () -> client.forms().invoke(action, values),
        () -> client.forms().invokeAsync(action, values));
  }

  ActionResult submit(FormationClient client, Form form, Object values) {
    return call(
        () -> client.forms().submit(form, values), () -> client.forms().submitAsync(form, values));
  }

  PollResult poll(FormationClient client, WaitState wait, PollOptions options) {
    return call(
        () -> client.documentSets().poll(wait, options),
        () -> client.documentSets().pollAsync(wait, options));
  }

  DocumentSet await(FormationClient client, String id, PollOptions options) {
    return call(
        () -> client.documentSets().awaitCompletion(id, options),
        () -> client.documentSets().awaitCompletionAsync(id, options));
  }

  DocumentSet await(FormationClient client, WaitState wait, PollOptions options) {
    return call(
        () -> client.documentSets().awaitCompletion(wait, options),
        () -> client.documentSets().awaitCompletionAsync(wait, options));
  }

  private <T> T call(Supplier<T> blocking, Supplier<CompletableFuture<T>> async) {
    if (this == BLOCKING) {
      return blocking.get();
    }
    CompletableFuture<T> future = async.get();
    try {
      // A safety net only: fake time makes every wait instant.
      return future.get(30, TimeUnit.SECONDS);
    } catch (ExecutionException e) {
      if (e.getCause() instanceof RuntimeException failure) {
        throw failure;
      }
      if (e.getCause() instanceof Error error) {
        throw error;
      }
      throw new AssertionError("the future failed with a checked exception", e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError("interrupted while waiting for the future", e);
    } catch (TimeoutException e) {
      throw new AssertionError("the future did not complete within 30 s", e);
    }
  }
}
