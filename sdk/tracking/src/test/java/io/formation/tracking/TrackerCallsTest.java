package io.formation.tracking;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import io.formation.sandbox.FormationSandbox;
import io.formation.sandbox.SandboxOptions;
import io.formation.sdk.FormationClient;
import io.formation.sdk.PollOptions;
import io.formation.sdk.WaitState;
import io.formation.sdk.model.DocumentSet;
import io.formation.sdk.model.DocumentSetState;
import io.formation.testkit.FakeTime;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The tracker's public calls on HSQLDB: what each may throw, their races with a poll (made
 * deterministic by a hook between a call's statements), the table name, rows this version cannot
 * read, and how long closing may take.
 */
class TrackerCallsTest {
  private static final PollOptions FAST =
      PollOptions.builder()
          .initialInterval(Duration.ofMillis(30))
          .multiplier(1.0)
          .maxInterval(Duration.ofMillis(30))
          .jitter(0.0)
          .timeout(Duration.ofDays(30))
          .build();

  @RegisterExtension final Closing closing = new Closing();
  private final DataSource table = Tables.hsqldb();
  private final Recorder recorder = new Recorder();

  /** A sandbox whose sets, once submitted, move on only when a test says. */
  private FormationClient stillClient() {
    FormationSandbox sandbox =
        closing.add(
            FormationSandbox.start(
                SandboxOptions.defaults()
                    .withProcessingLag(Duration.ZERO)
                    .withStepDelay(Duration.ofDays(1))));
    return closing.add(SandboxClients.of(sandbox));
  }

  /** A sandbox whose submitted sets are complete at once. */
  private FormationClient completingClient() {
    FormationSandbox sandbox =
        closing.add(
            FormationSandbox.start(
                SandboxOptions.defaults()
                    .withProcessingLag(Duration.ZERO)
                    .withStepDelay(Duration.ZERO)));
    return closing.add(SandboxClients.of(sandbox));
  }

  private FormationTracker.Builder tracker(
      FormationClient client, DataSource database, TrackingHandler handler) {
    return FormationTracker.builder(client, database, handler)
        .pollOptions(FAST)
        .pollingInterval(Duration.ofMillis(20))
        .instanceName("test");
  }

  @Test
  void aTableNameThatIsNotAnSqlIdentifierIsRefusedSayingWhatIsWrong() {
    FormationTracker.Builder builder = tracker(stillClient(), table, recorder);

    assertThatThrownBy(() -> builder.tableName("formation_tracking WHERE 1=1 OR 1=1 --"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("SQL identifier")
        .hasMessageContaining("holds ' '");
    assertThatThrownBy(() -> builder.tableName("a.b.formation_tracking"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("more than one '.'");
    assertThatThrownBy(() -> builder.tableName("1tracking"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("starts with a digit");
    assertThatThrownBy(() -> builder.tableName("tracking;DROP"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("holds ';'");
    assertThatThrownBy(() -> builder.tableName("\"formation_tracking\""))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("holds '\"'");
    assertThatThrownBy(() -> builder.tableName("public."))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("empty");
    assertThatThrownBy(() -> builder.tableName(" "))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("blank");

    builder.tableName("PUBLIC.formation_tracking");
    FormationTracker tracker = closing.add(builder.build());
    assertThat(tracker.track("ds_schema_qualified")).isTrue();
    assertThat(tracker.tracked()).extracting(TrackedSet::setId).contains("ds_schema_qualified");
  }

  @Test
  void eachCallWithTheDatabaseDownFailsWithATrackingExceptionAfterOneAskForAConnection() {
    FlakyDataSource flaky = new FlakyDataSource(table);
    FormationTracker tracker =
        closing.add(tracker(stillClient(), flaky, recorder).clock(Clock.systemUTC()).build());
    flaky.down(true);

    List<Runnable> calls =
        List.of(
            () -> tracker.track("ds_1"),
            () -> tracker.track("ds_1", WaitState.decode(someWait("ds_1"))),
            () -> tracker.untrack("ds_1"),
            () -> tracker.submitted("ds_1", Instant.now()),
            () -> tracker.tracked(),
            () -> tracker.tracked("ds_1"));
    for (Runnable call : calls) {
      int before = flaky.refusals();
      assertThatThrownBy(call::run)
          .isInstanceOf(TrackingException.class)
          .hasMessageContaining("formation_tracking")
          .hasRootCauseInstanceOf(java.sql.SQLTransientConnectionException.class);
      // One connection asked for: the call fails after at most the pool's connection timeout.
      assertThat(flaky.refusals() - before).isEqualTo(1);
    }
  }

  private String someWait(String id) {
    return stillClient().documentSets().startWait(id, FAST).encode();
  }

  @Test
  void untrackRacingAPollIsTheDocumentedCallAgain() throws Exception {
    HookedDataSource hooked = new HookedDataSource(table);
    FormationTracker tracker =
        closing.add(tracker(stillClient(), hooked, recorder).clock(Clock.systemUTC()).build());
    tracker.track("ds_racing");

    // Another instance picks the set just before this call's delete.
    hooked.beforeStatement((n, sql) -> sql.startsWith("delete"), db -> pick(db, "ds_racing"));
    assertThatThrownBy(() -> tracker.untrack("ds_racing"))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("ds_racing")
        .hasMessageContaining("again shortly");
    assertThat(hooked.hooksRun()).isEqualTo(1);
    assertThat(tracker.tracked("ds_racing"))
        .hasValueSatisfying(t -> assertThat(t.polling()).isTrue());

    // Its poll saves the wait; called again, untrack removes the set.
    savePoll(table, "ds_racing", null, Instant.now());
    assertThat(tracker.untrack("ds_racing")).isTrue();
    assertThat(tracker.tracked("ds_racing")).isEmpty();
  }

  @Test
  void untrackRacingAPollThatEndedTheSetAnswersFalse() throws Exception {
    HookedDataSource hooked = new HookedDataSource(table);
    FormationTracker tracker =
        closing.add(tracker(stillClient(), hooked, recorder).clock(Clock.systemUTC()).build());
    tracker.track("ds_ended");

    // Another instance's poll finds the set complete and removes its row just before the delete.
    hooked.beforeStatement(
        (n, sql) -> sql.startsWith("delete"),
        db -> update(db, "DELETE FROM formation_tracking WHERE task_instance = ?", "ds_ended"));

    assertThat(tracker.untrack("ds_ended")).isFalse();
    assertThat(hooked.hooksRun()).isEqualTo(1);
  }

  @Test
  void aPollFinishingBetweenSubmittedsReadAndWriteIsKeptAndTheCallIsAskedAgain() throws Exception {
    HookedDataSource hooked = new HookedDataSource(table);
    FormationClient client = stillClient();
    FormationTracker tracker =
        closing.add(tracker(client, hooked, recorder).clock(Clock.systemUTC()).build());
    String id = SubmittedSets.one(client);
    tracker.track(id);
    WaitState tracked = tracker.tracked(id).orElseThrow().waitState().orElseThrow();
    // What a poll of another instance saves: the state it read, one poll more, its next poll.
    WaitState polled = client.documentSets().poll(tracked, FAST).waitState();
    Instant nextPoll =
        Instant.now().plusSeconds(600).truncatedTo(java.time.temporal.ChronoUnit.MILLIS);
    Instant acceptedAt = Instant.now().truncatedTo(java.time.temporal.ChronoUnit.MILLIS);

    // That poll lands between this call's read of the row and its write.
    hooked.beforeStatement((n, sql) -> n == 2, db -> savePoll(db, id, polled, nextPoll));
    assertThatThrownBy(() -> tracker.submitted(id, acceptedAt))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining(id)
        .hasMessageContaining("again");
    assertThat(hooked.hooksRun()).isEqualTo(1);

    TrackedSet kept = tracker.tracked(id).orElseThrow();
    assertThat(kept.lastState()).contains(DocumentSetState.SIGNATURE_REQUESTS_NEEDED);
    assertThat(kept.waitState().orElseThrow().polls()).isEqualTo(1);
    assertThat(kept.nextPollAt()).isEqualTo(nextPoll);

    // Called again, it adds the submission to the poll's wait and keeps the next poll.
    assertThat(tracker.submitted(id, acceptedAt)).isTrue();
    TrackedSet told = tracker.tracked(id).orElseThrow();
    assertThat(told.waitState().orElseThrow().lastSubmission()).contains(acceptedAt);
    assertThat(told.waitState().orElseThrow().polls()).isEqualTo(1);
    assertThat(told.lastState()).contains(DocumentSetState.SIGNATURE_REQUESTS_NEEDED);
    assertThat(told.nextPollAt()).isEqualTo(nextPoll);
  }

  @Test
  void aRowALaterVersionWroteIsListedAsUnreadableLeftAsItIsAndTheOthersArePolled()
      throws Exception {
    FormationClient client = completingClient();
    String later = "w9.ds_later.whatever.a.later.version.writes";
    insertRow("ds_later", later.getBytes(StandardCharsets.UTF_8));
    insertRow("ds_damaged", "not a saved wait at all".getBytes(StandardCharsets.UTF_8));
    FormationTracker tracker = closing.add(tracker(client, table, recorder).build());
    String id = SubmittedSets.one(client);
    tracker.track(id);

    List<TrackedSet> listed = tracker.tracked();
    assertThat(listed).extracting(TrackedSet::setId).contains(id, "ds_later", "ds_damaged");
    TrackedSet unreadable = tracker.tracked("ds_later").orElseThrow();
    assertThat(unreadable.readable()).isFalse();
    assertThat(unreadable.waitState()).isEmpty();
    assertThat(unreadable.lastState()).isEmpty();
    assertThat(unreadable.unreadable())
        .hasValueSatisfying(why -> assertThat(why).contains("later version"));
    assertThat(tracker.tracked("ds_damaged").orElseThrow().unreadable()).isPresent();
    assertThat(tracker.tracked(id).orElseThrow().readable()).isTrue();
    Instant dueBefore = unreadable.nextPollAt();

    tracker.start();
    recorder.awaitEvent(e -> e.equals("completed " + id + " complete"));
    // Picked and put back as they were, a little later, for an instance that can read them.
    for (String left : List.of("ds_later", "ds_damaged")) {
      Waits.until(
          () ->
              tracker
                  .tracked(left)
                  .map(t -> !t.polling() && t.nextPollAt().isAfter(dueBefore))
                  .orElse(false),
          Duration.ofSeconds(20),
          () -> String.valueOf(tracker.tracked(left)));
      TrackedSet after = tracker.tracked(left).orElseThrow();
      assertThat(after.consecutiveFailures()).isZero();
      assertThat(after.nextPollAt()).isAfter(Instant.now().plusSeconds(10));
    }
    assertThat(rawData("ds_later")).isEqualTo(later);
    assertThat(rawData("ds_damaged")).isEqualTo("not a saved wait at all");
    assertThat(recorder.events()).containsExactly("completed " + id + " complete");
  }

  @Test
  void closeReturnsWithinItsShutdownTimeoutWhileAHandlerHangs() throws Exception {
    FormationClient client = completingClient();
    CountDownLatch inHandler = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    Recorder hanging =
        new Recorder() {
          @Override
          public void completed(DocumentSet set) {
            inHandler.countDown();
            // A handler that ignores interrupts: only the bound on closing ends the wait.
            while (true) {
              try {
                if (release.await(1, TimeUnit.SECONDS)) {
                  return;
                }
              } catch (InterruptedException ignored) {
                // Hangs on.
              }
            }
          }
        };
    FormationTracker tracker =
        tracker(client, table, hanging).shutdownTimeout(Duration.ofMillis(500)).build();
    tracker.start();
    tracker.track(SubmittedSets.one(client));
    assertThat(inHandler.await(20, TimeUnit.SECONDS)).isTrue();

    try {
      // db-scheduler's default would wait 2 × 30 minutes here.
      assertTimeoutPreemptively(Duration.ofSeconds(60), tracker::close);
    } finally {
      release.countDown();
    }
  }

  @Test
  void everyWaitOfTheTrackerReadsTheTrackersClock() throws Exception {
    FormationClient client = stillClient();
    FakeTime trackerClock = new FakeTime(Instant.now().plus(Duration.ofDays(3)));
    FormationTracker tracker =
        closing.add(
            tracker(client, table, recorder)
                .pollOptions(
                    FAST.newBuilder()
                        .initialInterval(Duration.ofMinutes(1))
                        .maxInterval(Duration.ofMinutes(1))
                        .build())
                .clock(trackerClock)
                .build());
    String id = SubmittedSets.one(client);

    tracker.track(id);
    WaitState started = tracker.tracked(id).orElseThrow().waitState().orElseThrow();
    assertThat(started.started())
        .isEqualTo(trackerClock.instant().truncatedTo(java.time.temporal.ChronoUnit.MILLIS));
    tracker.start();
    recorder.awaitEvent(e -> e.startsWith("changed " + id));
    Waits.until(
        () -> tracker.tracked(id).map(t -> !t.polling() && t.lastState().isPresent()).orElse(false),
        Duration.ofSeconds(20),
        recorder::toString);

    // The poll's next poll is a minute after it on the tracker's clock (moved on by the poll's
    // own duration, as the SDK measures it), not on this machine's, three days behind.
    Instant aMinuteAfter = trackerClock.instant().plus(Duration.ofMinutes(1));
    assertThat(tracker.tracked(id).orElseThrow().nextPollAt())
        .isBetween(aMinuteAfter.minusMillis(1), aMinuteAfter.plusSeconds(20));
  }

  private static void pick(DataSource database, String id) throws SQLException {
    update(
        database,
        "UPDATE formation_tracking SET picked = TRUE, picked_by = 'other', last_heartbeat ="
            + " CURRENT_TIMESTAMP, version = version + 1 WHERE task_instance = ?",
        id);
  }

  /** Writes what another instance's finished poll writes: its wait, its next poll, unpicked. */
  private static void savePoll(DataSource database, String id, WaitState wait, Instant nextPoll)
      throws SQLException {
    try (Connection connection = database.getConnection();
        PreparedStatement statement =
            connection.prepareStatement(
                "UPDATE formation_tracking SET picked = FALSE, picked_by = NULL, last_heartbeat ="
                    + " NULL, execution_time = ?, version = version + 2"
                    + (wait == null ? "" : ", task_data = ?")
                    + " WHERE task_instance = ?")) {
      statement.setTimestamp(1, Timestamp.from(nextPoll));
      int index = 2;
      if (wait != null) {
        statement.setBytes(index++, wait.encode().getBytes(StandardCharsets.UTF_8));
      }
      statement.setString(index, id);
      assertThat(statement.executeUpdate()).isEqualTo(1);
    }
  }

  private static void update(DataSource database, String sql, String id) throws SQLException {
    try (Connection connection = database.getConnection();
        PreparedStatement statement = connection.prepareStatement(sql)) {
      statement.setString(1, id);
      assertThat(statement.executeUpdate()).isEqualTo(1);
    }
  }

  /** A row as another version writes it: due now. */
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
