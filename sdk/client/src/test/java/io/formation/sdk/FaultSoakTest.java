package io.formation.sdk;

import static io.formation.sdk.FaultServer.Fault.json;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.TextNode;
import io.formation.sdk.FaultServer.Fault;
import io.formation.sdk.FaultServer.Recorded;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Many creates against a server that fails at random (seeded): connections dropped before a byte is
 * read, resets after the request was read (with the create done or not), 503s, 429s, stale pooled
 * connections, and good answers. Each create carries a unique marker, so the books of the server
 * and of the client can be compared: no call may create twice, a call the client says succeeded was
 * created once, and a failure that says nothing was sent created nothing.
 */
@Timeout(value = 40, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class FaultSoakTest extends FaultFixture {
  private static final long SEED = 20260109L;
  private static final int CREATES = 200;

  /** The server's books: how many times each marker's create was done. */
  static final class RandomFaults implements FaultServer.Script {
    final Random random = new Random(SEED);
    final Map<String, Integer> processed = new ConcurrentHashMap<>();

    private synchronized int roll() {
      return random.nextInt(100);
    }

    @Override
    public Fault onAccept(int connection) {
      int roll = roll();
      return roll < 8 ? Fault.dropOnAccept(roll < 4) : null;
    }

    @Override
    public Fault onRequest(Recorded request) {
      int roll = roll();
      if (roll < 10) {
        return Fault.hangUpAfterRequest(roll < 5);
      }
      if (roll < 18) {
        return json(503, "");
      }
      if (roll < 28) {
        return json(429, "").withHeader("Retry-After", "0");
      }
      String marker = marker(request);
      processed.merge(marker, 1, Integer::sum);
      if (roll < 38) {
        return Fault.hangUpAfterRequest(roll < 33);
      }
      Fault.Answer created = json(201, Fixtures.documentSetBody("ds_" + marker, "input_needed"));
      return roll < 55 ? created.thenCloseIdle() : created;
    }

    private static String marker(Recorded request) {
      try {
        return Fixtures.MAPPER.readTree(request.body()).path("note").asText();
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
  }

  @Test
  void underRandomFaultsNoCallCreatesTwiceAndTheClientKnowsWhatMayHaveBeenCreated() {
    RandomFaults faults = new RandomFaults();
    server.script(faults);
    client = FaultClients.fakeTime(server, time).maxRetries(2).build();

    Map<String, String> succeeded = new LinkedHashMap<>();
    Map<String, NetworkException> networkFailures = new LinkedHashMap<>();
    List<String> refused = new ArrayList<>();
    Map<String, Throwable> otherFailures = new LinkedHashMap<>();
    for (int i = 0; i < CREATES; i++) {
      String marker = "create-" + i;
      CreateDocumentSetParams params =
          CreateDocumentSetParams.of(DocumentSets.DELAWARE_CORPORATION)
              .with("note", TextNode.valueOf(marker));
      try {
        succeeded.put(marker, client.documentSets().create(params).id());
      } catch (NetworkException e) {
        networkFailures.put(marker, e);
      } catch (ApiException e) {
        refused.add(marker);
      } catch (RuntimeException e) {
        otherFailures.put(marker, e);
      }
    }

    Map<String, Integer> processed = faults.processed;
    assertThat(otherFailures).as("failures that are neither network nor API errors").isEmpty();
    assertThat(processed.values()).as("creates done more than once").allMatch(n -> n == 1);
    succeeded.forEach(
        (marker, id) -> {
          assertThat(processed).as("a success the server never did").containsKey(marker);
          assertThat(id).isEqualTo("ds_" + marker);
        });
    assertThat(refused)
        .as("an API error after the create was done")
        .noneMatch(processed::containsKey);

    List<String> ambiguous = new ArrayList<>();
    networkFailures.forEach(
        (marker, e) -> {
          if (e.requestSent()) {
            ambiguous.add(marker);
          } else {
            assertThat(processed).as("created, yet said not sent").doesNotContainKey(marker);
          }
        });
    long ambiguousDone = ambiguous.stream().filter(processed::containsKey).count();
    assertThat(processed).hasSize(succeeded.size() + (int) ambiguousDone);

    // The soak soaked: every kind of outcome happened, and some creates were sent again.
    assertThat(succeeded).hasSizeGreaterThan(CREATES / 4);
    assertThat(ambiguousDone).isPositive();
    assertThat(ambiguous.size()).isGreaterThan((int) ambiguousDone);
    assertThat(refused).isNotEmpty();
    List<String> sent = server.requests().stream().map(RandomFaults::marker).toList();
    assertThat(sent.stream().distinct().count()).isLessThan(sent.size());
  }
}
