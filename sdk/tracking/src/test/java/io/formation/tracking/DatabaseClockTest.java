package io.formation.tracking;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import io.formation.sandbox.FormationSandbox;
import io.formation.sandbox.SandboxOptions;
import io.formation.sdk.FormationClient;
import io.formation.sdk.PollOptions;
import io.formation.sdk.model.DocumentSet;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.PrintWriter;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.SQLTransientConnectionException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.logging.Logger;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;

/**
 * The time tracking reads: the database's, on a machine whose own clock is minutes ahead. The
 * tests' databases run on this machine's clock, so the database's time is {@link Instant#now()};
 * the bounds allow a busy machine tens of seconds, against a skew of three minutes.
 */
class DatabaseClockTest {
  private static final Duration AHEAD = Duration.ofMinutes(3);
  private static final Duration SLACK = Duration.ofSeconds(30);
  private static final Clock FAST_MACHINE = Clock.offset(Clock.systemUTC(), AHEAD);

  private static void assertNearNow(Instant instant) {
    Instant now = Instant.now();
    assertThat(instant).isBetween(now.minus(SLACK), now.plus(SLACK));
  }

  @Test
  void onAMachineMinutesAheadTheClockReadsHsqldbsTime() {
    DatabaseClock clock = new DatabaseClock(Tables.hsqldb(), FAST_MACHINE, System::nanoTime);

    assertThat(clock.measureNow()).isTrue();

    assertThat(clock.offset()).isBetween(AHEAD.negated().minus(SLACK), AHEAD.negated().plus(SLACK));
    assertNearNow(clock.instant());
  }

  @Test
  void onAMachineMinutesAheadTheClockReadsPostgresqlsTime() throws Exception {
    try (EmbeddedPostgres postgres = EmbeddedPostgres.builder().start()) {
      DatabaseClock clock =
          new DatabaseClock(postgres.getPostgresDatabase(), FAST_MACHINE, System::nanoTime);

      assertThat(clock.measureNow()).isTrue();

      assertNearNow(clock.instant());
    }
  }

  @Test
  void readingTheTimeNeverWaitsForTheDatabaseAndKeepsTheLastOffsetWhileItIsUnreachable()
      throws Exception {
    GatedDataSource database = new GatedDataSource(Tables.hsqldb());
    AtomicLong ticker = new AtomicLong();
    DatabaseClock clock = new DatabaseClock(database, FAST_MACHINE, ticker::get);
    assertThat(clock.measureNow()).isTrue();
    Duration measured = clock.offset();

    // Unreachable when it is time to measure again: the offset measured last stays.
    database.down.set(true);
    ticker.addAndGet(DatabaseClock.REMEASURE.toNanos());
    assertNearNow(clock.instant());
    Waits.until(() -> database.refusals.get() == 1, Duration.ofSeconds(20), clock::toString);
    assertThat(clock.offset()).isEqualTo(measured);
    assertNearNow(clock.instant());

    // Hanging: reading the time goes on while the measure waits for a connection.
    database.down.set(false);
    database.hang.set(true);
    ticker.addAndGet(DatabaseClock.REMEASURE.toNanos());
    try {
      assertTimeoutPreemptively(
          Duration.ofSeconds(20),
          () -> {
            // Each read returns at once; one of them has the measure start, and wait.
            while (!database.waiting.await(1, TimeUnit.MILLISECONDS)) {
              assertNearNow(clock.instant());
            }
            for (int i = 0; i < 1000; i++) {
              assertNearNow(clock.instant());
            }
          });
    } finally {
      database.release.countDown();
    }
  }

  @Test
  void aTrackerOnAMachineMinutesAheadSchedulesAndBeatsOnTheDatabasesTime() throws Exception {
    DataSource table = Tables.hsqldb();
    CountDownLatch polling = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    Recorder holding =
        new Recorder() {
          @Override
          public void stateChanged(DocumentSet set) throws Exception {
            super.stateChanged(set);
            polling.countDown();
            release.await(20, TimeUnit.SECONDS);
          }
        };
    try (FormationSandbox sandbox =
            FormationSandbox.start(
                SandboxOptions.defaults()
                    .withProcessingLag(Duration.ZERO)
                    .withStepDelay(Duration.ofDays(1)));
        FormationClient client = SandboxClients.of(sandbox);
        FormationTracker tracker =
            FormationTracker.builder(client, table, holding)
                .baseClock(FAST_MACHINE)
                .pollOptions(
                    PollOptions.builder()
                        .initialInterval(Duration.ofMinutes(1))
                        .maxInterval(Duration.ofMinutes(1))
                        .jitter(0.0)
                        .build())
                .pollingInterval(Duration.ofMillis(20))
                .build()) {
      String id = SubmittedSets.one(client);

      tracker.track(id);

      // The wait starts, and its first poll falls due, on the database's time, not 3 min ahead.
      TrackedSet tracked = tracker.tracked(id).orElseThrow();
      assertNearNow(tracked.nextPollAt());
      assertNearNow(tracked.waitState().orElseThrow().started());

      // While it polls, its heartbeat is the database's time: no other instance takes it as dead.
      tracker.start();
      assertThat(polling.await(20, TimeUnit.SECONDS)).isTrue();
      assertNearNow(heartbeat(table, id));
      release.countDown();

      // Its next poll is the wait's minute after the poll, on the database's time.
      Waits.until(
          () -> tracker.tracked(id).map(t -> t.lastState().isPresent()).orElse(false),
          Duration.ofSeconds(20),
          holding::toString);
      Instant aMinuteFromNow = Instant.now().plus(Duration.ofMinutes(1));
      assertThat(tracker.tracked(id).orElseThrow().nextPollAt())
          .isBetween(aMinuteFromNow.minus(SLACK), aMinuteFromNow.plus(SLACK));
    }
  }

  private static Instant heartbeat(DataSource table, String id) throws SQLException {
    try (Connection connection = table.getConnection();
        PreparedStatement query =
            connection.prepareStatement(
                "SELECT last_heartbeat FROM formation_tracking WHERE task_instance = ?")) {
      query.setString(1, id);
      try (ResultSet row = query.executeQuery()) {
        assertThat(row.next()).isTrue();
        return row.getTimestamp(1).toInstant();
      }
    }
  }

  /** A database that can be made unreachable, or made to hang until released. */
  private static final class GatedDataSource implements DataSource {
    final DataSource database;
    final AtomicBoolean down = new AtomicBoolean();
    final AtomicBoolean hang = new AtomicBoolean();
    final AtomicLong refusals = new AtomicLong();
    final CountDownLatch waiting = new CountDownLatch(1);
    final CountDownLatch release = new CountDownLatch(1);

    GatedDataSource(DataSource database) {
      this.database = database;
    }

    @Override
    public Connection getConnection() throws SQLException {
      if (down.get()) {
        refusals.incrementAndGet();
        throw new SQLTransientConnectionException("the database is unreachable (test)");
      }
      if (hang.get()) {
        waiting.countDown();
        try {
          release.await();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }
      return database.getConnection();
    }

    @Override
    public Connection getConnection(String user, String password) throws SQLException {
      return getConnection();
    }

    @Override
    public PrintWriter getLogWriter() {
      return null;
    }

    @Override
    public void setLogWriter(PrintWriter out) {}

    @Override
    public void setLoginTimeout(int seconds) {}

    @Override
    public int getLoginTimeout() {
      return 0;
    }

    @Override
    public Logger getParentLogger() throws SQLFeatureNotSupportedException {
      throw new SQLFeatureNotSupportedException();
    }

    @Override
    public <T> T unwrap(Class<T> type) throws SQLException {
      throw new SQLException("not a wrapper");
    }

    @Override
    public boolean isWrapperFor(Class<?> type) {
      return false;
    }
  }
}
