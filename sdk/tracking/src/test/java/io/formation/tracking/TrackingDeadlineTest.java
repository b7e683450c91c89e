package io.formation.tracking;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import io.formation.sandbox.FormationSandbox;
import io.formation.sandbox.SandboxOptions;
import io.formation.sdk.BadRequestException;
import io.formation.sdk.DocumentSets;
import io.formation.sdk.FormationClient;
import io.formation.sdk.PollOptions;
import io.formation.sdk.PollTimeoutException;
import io.formation.sdk.model.DocumentSet;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Tracking ends every set at its wait's deadline, whatever the set's state or the service's
 * answers, and the handler hears why: no row is polled forever.
 */
class TrackingDeadlineTest {
  /** Quick polls and a deadline a couple of seconds away, on the database's time. */
  private static final PollOptions SHORT =
      PollOptions.builder()
          .initialInterval(Duration.ofMillis(50))
          .multiplier(1.0)
          .maxInterval(Duration.ofMillis(50))
          .jitter(0.0)
          .inputNeededGrace(Duration.ZERO)
          .timeout(Duration.ofSeconds(2))
          .build();

  @RegisterExtension final Closing closing = new Closing();
  private final DataSource database = Tables.hsqldb();
  private final Recorder recorder = new Recorder();

  private FormationTracker started(FormationClient client, Duration pauseOnRefusal) {
    FormationTracker tracker =
        closing.add(
            FormationTracker.builder(client, database, recorder)
                .pollOptions(SHORT)
                .pauseOnRefusal(pauseOnRefusal)
                .pollingInterval(Duration.ofMillis(20))
                .instanceName("test")
                .build());
    tracker.start();
    return tracker;
  }

  @Test
  void aSetStillWaitingForItsUserAtTheDeadlineIsToldOnceThenItsTrackingEnds() throws Exception {
    FormationSandbox sandbox = closing.add(FormationSandbox.start(SandboxOptions.defaults()));
    FormationClient client = closing.add(SandboxClients.of(sandbox));
    DocumentSet set = client.documentSets().create(DocumentSets.DELAWARE_CORPORATION);
    FormationTracker tracker = started(client, Duration.ofMinutes(15));

    tracker.track(set.id());

    Waits.until(() -> tracker.tracked().isEmpty(), Duration.ofSeconds(30), recorder::toString);
    assertThat(recorder.events())
        .containsExactly(
            "changed " + set.id() + " input_needed",
            "input " + set.id() + " input_needed",
            "ended " + set.id() + " PollTimeoutException");
  }

  @Test
  void aSetWhosePollsAreRejectedIsPausedUntilTheDeadlineThenEndedWithTheRejectionAsTheCause()
      throws Exception {
    HttpServer rejecting = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    rejecting.createContext(
        "/",
        exchange -> {
          byte[] body = "{\"errors\": [{\"status\": \"400\"}]}".getBytes(StandardCharsets.UTF_8);
          exchange.getResponseHeaders().add("Content-Type", "application/json");
          exchange.sendResponseHeaders(400, body.length);
          exchange.getResponseBody().write(body);
          exchange.close();
        });
    rejecting.start();
    closing.add(() -> rejecting.stop(0));
    FormationClient client =
        closing.add(
            FormationClient.builder()
                .baseUrl("http://127.0.0.1:" + rejecting.getAddress().getPort())
                .accessToken("test-token")
                .allowInsecureHttp(true)
                .maxRetries(0)
                .build());
    FormationTracker tracker = started(client, Duration.ofMillis(300));

    tracker.track("ds_rejected");

    Waits.until(() -> tracker.tracked().isEmpty(), Duration.ofSeconds(30), recorder::toString);
    List<String> events = recorder.events();
    assertThat(events).last().isEqualTo("ended ds_rejected PollTimeoutException");
    assertThat(events.subList(0, events.size() - 1))
        .isNotEmpty()
        .allMatch(event -> event.equals("paused ds_rejected BadRequestException"));
    assertThat(recorder.reasons.get(recorder.reasons.size() - 1))
        .isInstanceOf(PollTimeoutException.class)
        .hasCauseInstanceOf(BadRequestException.class);
  }

  @Test
  void anIdTooLongToSaveIsRefusedByTrackSayingWhy() {
    FormationSandbox sandbox = closing.add(FormationSandbox.start(SandboxOptions.defaults()));
    FormationClient client = closing.add(SandboxClients.of(sandbox));
    FormationTracker tracker = started(client, Duration.ofMinutes(15));

    assertThatThrownBy(() -> tracker.track("€".repeat(233)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("document set id");
    assertThat(tracker.tracked()).isEmpty();
  }
}
