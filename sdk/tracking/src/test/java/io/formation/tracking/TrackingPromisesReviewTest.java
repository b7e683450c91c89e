package io.formation.tracking;

import static org.assertj.core.api.Assertions.assertThat;

import com.github.kagkarlsson.scheduler.event.AbstractSchedulerListener;
import com.github.kagkarlsson.scheduler.event.SchedulerListener.SchedulerEventType;
import com.sun.net.httpserver.HttpServer;
import io.formation.sandbox.FormationSandbox;
import io.formation.sandbox.SandboxOptions;
import io.formation.sdk.FormationClient;
import io.formation.sdk.PollOptions;
import io.formation.sdk.WaitState;
import io.formation.sdk.model.DocumentSet;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * An independent review of the tracker's promises at their edges: a poll answered after the wait's
 * deadline, a tracker started while the database is down on a machine whose clock is off, and rows
 * an earlier version wrote.
 */
class TrackingPromisesReviewTest {
  @RegisterExtension final Closing closing = new Closing();
  private final DataSource table = Tables.hsqldb();
  private final Recorder recorder = new Recorder();

  /** A sandbox whose submitted sets stay in their first state for a day. */
  private FormationClient stillClient() {
    FormationSandbox sandbox =
        closing.add(
            FormationSandbox.start(
                SandboxOptions.defaults()
                    .withProcessingLag(Duration.ZERO)
                    .withStepDelay(Duration.ofDays(1))));
    return closing.add(SandboxClients.of(sandbox));
  }

  /**
   * docs/tracking.md: "the handler hears what a wait's listener hears". The last poll of a wait is
   * sent before its deadline and answered after it, with a new state: the wait's listener hears
   * that state, so the handler must too (before it hears that the tracking ended).
   */
  @Test
  void aChangeSeenByAPollAnsweredAfterTheDeadlineIsToldToTheHandlerAsTheWaitsListenerHearsIt()
      throws Exception {
    String id = "ds_answered_late";
    AtomicInteger polls = new AtomicInteger();
    AtomicReference<Instant> deadline = new AtomicReference<>();
    HttpServer service = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    service.createContext(
        "/",
        exchange -> {
          String state = "signature_requests_needed";
          if (polls.incrementAndGet() > 1) {
            // The second poll was sent before the deadline; its answer comes after it.
            try {
              Waits.until(
                  () -> deadline.get() != null && Instant.now().isAfter(deadline.get()),
                  Duration.ofSeconds(20),
                  () -> "deadline " + deadline.get());
            } catch (InterruptedException e) {
              Thread.currentThread().interrupt();
            }
            state = "awaiting_payment";
          }
          byte[] body =
              ("{\"id\": \"" + id + "\", \"state\": \"" + state + "\"}")
                  .getBytes(StandardCharsets.UTF_8);
          exchange.getResponseHeaders().add("Content-Type", "application/json");
          exchange.sendResponseHeaders(200, body.length);
          exchange.getResponseBody().write(body);
          exchange.close();
        });
    service.start();
    closing.add(() -> service.stop(0));
    FormationClient client =
        closing.add(
            FormationClient.builder()
                .baseUrl("http://127.0.0.1:" + service.getAddress().getPort())
                .accessToken("test-token")
                .allowInsecureHttp(true)
                .maxRetries(0)
                .build());
    List<String> listenerHeard = new CopyOnWriteArrayList<>();
    PollOptions options =
        PollOptions.builder()
            .initialInterval(Duration.ofMillis(300))
            .multiplier(1.0)
            .maxInterval(Duration.ofMillis(300))
            .jitter(0.0)
            .timeout(Duration.ofSeconds(3))
            .onStateChange(set -> listenerHeard.add("changed " + id + " " + set.state().value()))
            .build();
    FormationTracker tracker =
        closing.add(
            FormationTracker.builder(client, table, recorder)
                .pollOptions(options)
                .pollingInterval(Duration.ofMillis(20))
                .instanceName("test")
                .build());

    tracker.track(id);
    deadline.set(
        tracker.tracked(id).orElseThrow().waitState().orElseThrow().deadline().plusMillis(200));
    tracker.start();
    Waits.until(() -> tracker.tracked().isEmpty(), Duration.ofSeconds(30), recorder::toString);

    assertThat(listenerHeard)
        .containsExactly(
            "changed " + id + " signature_requests_needed", "changed " + id + " awaiting_payment");
    assertThat(recorder.events())
        .containsExactly(
            "changed " + id + " signature_requests_needed",
            "changed " + id + " awaiting_payment",
            "ended " + id + " PollTimeoutException");
  }

  /**
   * docs/tracking.md, "Machines' clocks apart (minutes): nothing ... no next poll moves", and
   * "while it is unreachable, the offset measured last stays (none yet: the machine's own clock)".
   * Once the database is back, a tracker on a machine 3 minutes ahead that could not read its time
   * at start must poll on the database's time: a set due in a minute is not polled when the one due
   * now is.
   */
  @Test
  void aTrackerStartedWhileTheDatabaseIsDownPollsOnTheDatabasesTimeOnceItIsBack() throws Exception {
    FormationClient client = stillClient();
    String dueNow = SubmittedSets.one(client);
    String dueInAMinute = SubmittedSets.one(client);
    FormationTracker tracking =
        closing.add(FormationTracker.builder(client, table, new Recorder()).build());
    tracking.track(dueNow);
    long now = Instant.now().toEpochMilli();
    tracking.track(
        dueInAMinute,
        WaitState.decode(
            "w1." + dueInAMinute + ".." + now + ".2592000000.5000...60000.0." /* no flags */));
    Instant dueAt = tracking.tracked(dueInAMinute).orElseThrow().nextPollAt();
    assertThat(dueAt).isAfter(Instant.now().plusSeconds(30));

    FlakyDataSource flaky = new FlakyDataSource(table);
    flaky.down(true);
    AtomicInteger executeDueRuns = new AtomicInteger();
    FormationTracker ahead =
        closing.add(
            FormationTracker.builder(client, flaky, recorder)
                .baseClock(Clock.offset(Clock.systemUTC(), Duration.ofMinutes(3)))
                .pollingInterval(Duration.ofMillis(20))
                .instanceName("ahead")
                .configureScheduler(
                    scheduler ->
                        scheduler.addSchedulerListener(
                            new AbstractSchedulerListener() {
                              @Override
                              public void onSchedulerEvent(SchedulerEventType type) {
                                if (type == SchedulerEventType.RAN_EXECUTE_DUE) {
                                  executeDueRuns.incrementAndGet();
                                }
                              }
                            }))
                .build());
    ahead.start();
    flaky.down(false);

    recorder.awaitEvent(e -> e.startsWith("changed " + dueNow));
    int runs = executeDueRuns.get();
    Waits.until(() -> executeDueRuns.get() >= runs + 3, Duration.ofSeconds(20), recorder::toString);

    assertThat(recorder.events()).noneMatch(e -> e.contains(dueInAMinute));
    TrackedSet later = tracking.tracked(dueInAMinute).orElseThrow();
    assertThat(later.polling()).isFalse();
    assertThat(later.waitState().orElseThrow().polls()).isZero();
  }

  /**
   * docs/tracking.md, "Machines' clocks apart (minutes): ... no heartbeat looks dead". A set polled
   * by an instance on the database's time (its handler busy, its heartbeats written) is not taken
   * over by a tracker on a machine 3 minutes ahead that started while the database was down, once
   * the database is back.
   */
  @Test
  void aTrackerStartedWhileTheDatabaseIsDownTakesOverNoLiveExecutionOnceItIsBack()
      throws Exception {
    FormationClient client = stillClient();
    String busy = SubmittedSets.one(client);
    CountDownLatch polling = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    closing.add(release::countDown);
    Recorder holding =
        new Recorder() {
          @Override
          public void stateChanged(DocumentSet set) throws Exception {
            super.stateChanged(set);
            polling.countDown();
            release.await(60, TimeUnit.SECONDS);
          }
        };
    FormationTracker onTime =
        closing.add(
            FormationTracker.builder(client, table, holding)
                .pollingInterval(Duration.ofMillis(20))
                // Patient with itself: on a starved machine a missed beat must not make this
                // instance re-run its own held execution, which is not what is tested here.
                .heartbeat(Duration.ofMillis(100), 50)
                .shutdownTimeout(Duration.ofMillis(200))
                .instanceName("on-time")
                .build());
    onTime.start();
    onTime.track(busy);
    assertThat(polling.await(20, TimeUnit.SECONDS)).isTrue();

    FlakyDataSource flaky = new FlakyDataSource(table);
    flaky.down(true);
    AtomicInteger deadChecks = new AtomicInteger();
    FormationTracker ahead =
        closing.add(
            FormationTracker.builder(client, flaky, recorder)
                .baseClock(Clock.offset(Clock.systemUTC(), Duration.ofMinutes(3)))
                .pollingInterval(Duration.ofMillis(20))
                .heartbeat(Duration.ofMillis(100), 4)
                .instanceName("ahead")
                .configureScheduler(
                    scheduler ->
                        scheduler.addSchedulerListener(
                            new AbstractSchedulerListener() {
                              @Override
                              public void onSchedulerEvent(SchedulerEventType type) {
                                if (type == SchedulerEventType.RAN_DETECT_DEAD) {
                                  deadChecks.incrementAndGet();
                                }
                              }
                            }))
                .build());
    ahead.start();
    flaky.down(false);
    int checks = deadChecks.get();
    Waits.until(() -> deadChecks.get() >= checks + 3, Duration.ofSeconds(20), recorder::toString);

    assertThat(recorder.events()).noneMatch(e -> e.contains(busy));
    assertThat(holding.events()).containsExactly("changed " + busy + " signature_requests_needed");
  }

  /**
   * docs/tracking.md: "Rows written by an earlier version with an i: prefix (input needed told) are
   * read". Such a row is listed as readable, polled, and saved back in the wait's own string.
   */
  @Test
  void aRowAnEarlierVersionWroteWithTheInputNeededPrefixIsReadPolledAndSavedAsTheWaitsString()
      throws Exception {
    FormationClient client = stillClient();
    String id = SubmittedSets.one(client);
    long now = Instant.now().toEpochMilli();
    String legacy = "i:w1." + id + ".input_needed." + now + ".2592000000.5000...0.1.";
    insertRow(id, legacy.getBytes(StandardCharsets.UTF_8));
    FormationTracker tracker =
        closing.add(
            FormationTracker.builder(client, table, recorder)
                .pollingInterval(Duration.ofMillis(20))
                .instanceName("test")
                .build());

    TrackedSet listed = tracker.tracked(id).orElseThrow();
    assertThat(listed.readable()).isTrue();
    assertThat(listed.lastState()).hasValueSatisfying(s -> assertThat(s.needsInput()).isTrue());

    tracker.start();
    recorder.awaitEvent(e -> e.startsWith("changed " + id));
    Waits.until(
        () -> tracker.tracked(id).map(t -> t.waitState().orElseThrow().polls() == 2).orElse(false),
        Duration.ofSeconds(20),
        recorder::toString);
    assertThat(rawData(id)).startsWith("w1." + id + ".");
    assertThat(recorder.events()).noneMatch(e -> e.startsWith("input "));
  }

  private void insertRow(String id, byte[] data) throws SQLException {
    try (Connection connection = table.getConnection();
        PreparedStatement statement =
            connection.prepareStatement(
                "INSERT INTO formation_tracking (task_name, task_instance, task_data,"
                    + " execution_time, picked, version) VALUES (?, ?, ?, CURRENT_TIMESTAMP,"
                    + " FALSE, 1)")) {
      statement.setString(1, FormationTracker.TASK_NAME);
      statement.setString(2, id);
      statement.setBytes(3, data);
      statement.executeUpdate();
    }
  }

  private String rawData(String id) throws SQLException {
    try (Connection connection = table.getConnection();
        PreparedStatement query =
            connection.prepareStatement(
                "SELECT task_data FROM formation_tracking WHERE task_instance = ?")) {
      query.setString(1, id);
      try (ResultSet row = query.executeQuery()) {
        assertThat(row.next()).isTrue();
        return new String(row.getBytes(1), StandardCharsets.UTF_8);
      }
    }
  }
}
