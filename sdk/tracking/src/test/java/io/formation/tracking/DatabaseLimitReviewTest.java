package io.formation.tracking;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.formation.sdk.SharedLimit.Fleet;
import io.formation.sdk.SharedLimit.News;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Review of DatabaseLimit's promises on the embedded PostgreSQL: each test tries to break one. */
class DatabaseLimitReviewTest {
  private static final String ORIGIN = "https://api.example.com";
  private static final String FILES = "https://files.example.com";
  private static final News NOTHING = new News(Optional.empty(), 0);

  private static EmbeddedPostgres postgres;
  private static DataSource database;

  @BeforeAll
  static void startPostgres() throws Exception {
    postgres = EmbeddedPostgres.builder().start();
    database = postgres.getPostgresDatabase();
    DatabaseLimitTest.createTables(database);
  }

  @AfterAll
  static void stopPostgres() throws Exception {
    postgres.close();
  }

  @BeforeEach
  void emptyTables() throws SQLException {
    execute("DELETE FROM formation_limit; DELETE FROM formation_limit_instance");
  }

  // "Times travel as ages ... DatabaseLimit reads the database's time"

  @Test
  void aCutToldWithAnAgeFromAClockMinutesAheadIsHeardWithThatAge() throws Exception {
    DatabaseLimit ahead = instance("ahead", Clock.offset(Clock.systemUTC(), Duration.ofMinutes(9)));
    DatabaseLimit behind =
        instance("behind", Clock.offset(Clock.systemUTC(), Duration.ofMinutes(-11)));

    ahead.exchange(ORIGIN, cut(Duration.ofMillis(400)));
    Fleet heard = behind.exchange(ORIGIN, NOTHING);

    assertThat(heard.lastCutAgo())
        .get()
        .satisfies(
            ago -> assertThat(ago).isBetween(Duration.ofMillis(400), Duration.ofSeconds(30)));
  }

  @Test
  void instancesWhoseClocksAreHoursApartStayLiveAndForgetNoOne() throws Exception {
    DatabaseLimit late = instance("late", Clock.offset(Clock.systemUTC(), Duration.ofHours(-3)));
    DatabaseLimit early = instance("early", Clock.offset(Clock.systemUTC(), Duration.ofHours(3)));
    DatabaseLimit plain = instance("plain", Clock.systemUTC());

    late.exchange(ORIGIN, NOTHING);
    early.exchange(ORIGIN, NOTHING);
    plain.exchange(ORIGIN, NOTHING);

    assertThat(late.exchange(ORIGIN, NOTHING).instances()).isEqualTo(3);
    assertThat(early.exchange(ORIGIN, NOTHING).instances()).isEqualTo(3);
    assertThat(plain.exchange(ORIGIN, NOTHING).instances()).isEqualTo(3);
  }

  // "the fleet's newest cut"; "Two cuts this close are one"

  @Test
  void aCutOlderThanTheOneKeptDoesNotReplaceIt() throws Exception {
    DatabaseLimit first = instance("first", Clock.systemUTC());
    DatabaseLimit late = instance("late", Clock.systemUTC());

    first.exchange(ORIGIN, cut(Duration.ZERO));
    Fleet heard = late.exchange(ORIGIN, cut(Duration.ofMillis(900)));

    assertThat(heard.lastCutAgo())
        .get()
        .satisfies(ago -> assertThat(ago).isLessThan(Duration.ofMillis(900)));
  }

  @Test
  void twoCutsMoreThanAWindowApartAreTwoTheNewerKept() throws Exception {
    DatabaseLimit first = instance("first", Clock.systemUTC());
    DatabaseLimit second = instance("second", Clock.systemUTC());

    first.exchange(ORIGIN, cut(Duration.ofMillis(600)));
    Fleet heard = second.exchange(ORIGIN, cut(Duration.ZERO));

    assertThat(heard.lastCutAgo())
        .get()
        .satisfies(ago -> assertThat(ago).isLessThan(Duration.ofMillis(600)));
  }

  // "One row per origin ... one row per live instance"

  @Test
  void eachOriginHasItsOwnCutLiveCountAndAnswers() throws Exception {
    DatabaseLimit first = instance("first", Clock.systemUTC());
    DatabaseLimit second = instance("second", Clock.systemUTC());

    first.exchange(ORIGIN, new News(Optional.of(Duration.ZERO), 300));
    Fleet files = second.exchange(FILES, new News(Optional.empty(), 50));
    Fleet api = second.exchange(ORIGIN, new News(Optional.empty(), 100));

    assertThat(files.instances()).isEqualTo(1);
    assertThat(files.lastCutAgo()).isEmpty();
    assertThat(files.answeredPerSecond()).isEqualTo(50);
    assertThat(api.instances()).isEqualTo(2);
    assertThat(api.lastCutAgo()).isPresent();
    assertThat(api.answeredPerSecond()).isEqualTo(400);
  }

  // "close() deletes its rows at once"

  @Test
  void closeDeletesTheInstancesRowsOfEveryOriginAndTheOthersCountOneFewer() throws Exception {
    DatabaseLimit leaving = instance("leaving", Clock.systemUTC());
    DatabaseLimit staying = instance("staying", Clock.systemUTC());
    leaving.exchange(ORIGIN, NOTHING);
    leaving.exchange(FILES, NOTHING);
    staying.exchange(ORIGIN, NOTHING);
    staying.exchange(FILES, NOTHING);

    leaving.close();

    assertThat(count("SELECT count(*) FROM formation_limit_instance WHERE instance = 'leaving'"))
        .isZero();
    assertThat(staying.exchange(ORIGIN, NOTHING).instances()).isEqualTo(1);
    assertThat(staying.exchange(FILES, NOTHING).instances()).isEqualTo(1);
  }

  @Test
  void anExchangeUnderWayWhenCloseIsCalledLeavesNoRowOfTheInstanceBehind() throws Exception {
    CountDownLatch asked = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    AtomicInteger connections = new AtomicInteger();
    DataSource slowFirst =
        new Delegating(database) {
          @Override
          public Connection getConnection() throws SQLException {
            if (connections.incrementAndGet() == 2) { // the second exchange's connection
              asked.countDown();
              try {
                release.await(30, TimeUnit.SECONDS);
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
            }
            return database.getConnection();
          }
        };
    DatabaseLimit leaving =
        new DatabaseLimit(slowFirst, "formation_limit", "leaving", Clock.systemUTC());
    DatabaseLimit staying = instance("staying", Clock.systemUTC());
    leaving.exchange(ORIGIN, NOTHING);
    CompletableFuture<Object> underWay =
        CompletableFuture.supplyAsync(
            () -> {
              try {
                return leaving.exchange(ORIGIN, NOTHING);
              } catch (SQLException e) {
                return e;
              }
            });
    assertThat(asked.await(30, TimeUnit.SECONDS)).isTrue();

    leaving.close();
    release.countDown();
    underWay.get(60, TimeUnit.SECONDS);

    assertThat(staying.exchange(ORIGIN, NOTHING).instances())
        .as("the closed instance still counted live")
        .isEqualTo(1);
  }

  @Test
  void rowsOfInstancesGoneForAnHourAreDeletedAndYoungerOnesKept() throws Exception {
    execute(
        "INSERT INTO formation_limit_instance VALUES ('"
            + ORIGIN
            + "', 'gone', now() - interval '2 hours', 10), ('"
            + ORIGIN
            + "', 'idle', now() - interval '20 minutes', 10)");
    DatabaseLimit instance = instance("here", Clock.systemUTC());

    Fleet heard = instance.exchange(ORIGIN, new News(Optional.empty(), 7));

    assertThat(heard.instances()).isEqualTo(1);
    assertThat(heard.answeredPerSecond()).isEqualTo(7);
    assertThat(count("SELECT count(*) FROM formation_limit_instance WHERE instance = 'gone'"))
        .isZero();
    assertThat(count("SELECT count(*) FROM formation_limit_instance WHERE instance = 'idle'"))
        .isEqualTo(1);
  }

  // "a row written by a newer version (a higher format, left as it is), the exchange fails"

  @Test
  void aNewerVersionsRowFailsEvenAnExchangeWithNothingToTellAndIsLeftAsItIs() throws Exception {
    execute(
        "INSERT INTO formation_limit VALUES ('"
            + ORIGIN
            + "', 7, timestamp with time zone '2020-01-01 00:00:00+00')");
    DatabaseLimit instance = instance("old", Clock.systemUTC());

    assertThatThrownBy(() -> instance.exchange(ORIGIN, NOTHING)).isInstanceOf(SQLException.class);
    assertThatThrownBy(() -> instance.exchange(ORIGIN, cut(Duration.ZERO)))
        .isInstanceOf(SQLException.class);
    assertThat(
            count(
                "SELECT count(*) FROM formation_limit WHERE format = 7 AND cut_at = timestamp"
                    + " with time zone '2020-01-01 00:00:00+00'"))
        .isEqualTo(1);
    // Another origin's row is this version's: its exchange is served.
    assertThat(instance.exchange(FILES, NOTHING).instances()).isEqualTo(1);
  }

  // many instances meeting a new origin at once

  @Test
  void instancesExchangingANewOriginAtTheSameMomentAllSucceed() throws Exception {
    int instances = 6;
    ExecutorService threads = Executors.newFixedThreadPool(instances);
    try {
      List<DatabaseLimit> limits = new ArrayList<>();
      for (int i = 0; i < instances; i++) {
        limits.add(instance("racer-" + i, Clock.systemUTC()));
      }
      for (int round = 0; round < 10; round++) {
        String origin = "https://race-" + round + ".example.com";
        CyclicBarrier together = new CyclicBarrier(instances);
        List<Future<Fleet>> heard = new ArrayList<>();
        for (DatabaseLimit limit : limits) {
          heard.add(
              threads.submit(
                  () -> {
                    together.await(30, TimeUnit.SECONDS);
                    return limit.exchange(origin, cut(Duration.ZERO));
                  }));
        }
        for (Future<Fleet> fleet : heard) {
          assertThat(fleet.get(60, TimeUnit.SECONDS).instances()).isBetween(1, instances);
        }
        assertThat(count("SELECT count(*) FROM formation_limit WHERE origin = '" + origin + "'"))
            .isEqualTo(1);
      }
    } finally {
      threads.shutdownNow();
    }
  }

  // "While the database ... hangs past STATEMENT_TIMEOUT ... the exchange fails"

  @Test
  void aLockOnTheInstancesTableFailsTheExchangeRatherThanHoldingIt() throws Exception {
    DatabaseLimit instance = instance("blocked", Clock.systemUTC());
    instance.exchange(ORIGIN, NOTHING);
    try (Connection holder = database.getConnection()) {
      holder.setAutoCommit(false);
      try (Statement lock = holder.createStatement()) {
        lock.execute("LOCK TABLE formation_limit_instance IN ACCESS EXCLUSIVE MODE");
      }
      CompletableFuture<Object> exchange =
          CompletableFuture.supplyAsync(
              () -> {
                try {
                  return instance.exchange(ORIGIN, NOTHING);
                } catch (SQLException e) {
                  return e;
                }
              });
      assertThat(exchange.get(60, TimeUnit.SECONDS)).isInstanceOf(SQLException.class);
      holder.rollback();
    }
  }

  @Test
  void aConnectionThePoolGivesUpOnFailsTheExchangeNoLaterThanThePool() throws Exception {
    // A pool's connection timeout: getConnection waits, then throws, as Hikari does.
    CountDownLatch poolTimesOut = new CountDownLatch(1);
    DataSource hanging =
        new Delegating(database) {
          @Override
          public Connection getConnection() throws SQLException {
            try {
              poolTimesOut.await(120, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
              Thread.currentThread().interrupt();
            }
            throw new SQLTransientConnectionException("connection is not available (test)");
          }
        };
    DatabaseLimit instance =
        new DatabaseLimit(hanging, "formation_limit", "hung", Clock.systemUTC());
    CompletableFuture<Object> exchange =
        CompletableFuture.supplyAsync(
            () -> {
              try {
                return instance.exchange(ORIGIN, NOTHING);
              } catch (SQLException e) {
                return e;
              }
            });

    assertThat(exchange).isNotDone();
    poolTimesOut.countDown();
    assertThat(exchange.get(30, TimeUnit.SECONDS))
        .isInstanceOf(SQLTransientConnectionException.class);
  }

  /** A database whose connections a test decides about; the rest as the real one. */
  abstract static class Delegating implements javax.sql.DataSource {
    final DataSource database;

    Delegating(DataSource database) {
      this.database = database;
    }

    @Override
    public Connection getConnection(String user, String password) throws SQLException {
      return getConnection();
    }

    @Override
    public java.io.PrintWriter getLogWriter() throws SQLException {
      return database.getLogWriter();
    }

    @Override
    public void setLogWriter(java.io.PrintWriter out) throws SQLException {
      database.setLogWriter(out);
    }

    @Override
    public void setLoginTimeout(int seconds) throws SQLException {
      database.setLoginTimeout(seconds);
    }

    @Override
    public int getLoginTimeout() throws SQLException {
      return database.getLoginTimeout();
    }

    @Override
    public java.util.logging.Logger getParentLogger()
        throws java.sql.SQLFeatureNotSupportedException {
      return database.getParentLogger();
    }

    @Override
    public <T> T unwrap(Class<T> type) throws SQLException {
      return database.unwrap(type);
    }

    @Override
    public boolean isWrapperFor(Class<?> type) throws SQLException {
      return database.isWrapperFor(type);
    }
  }

  private static News cut(Duration ago) {
    return new News(Optional.of(ago), 0);
  }

  private static DatabaseLimit instance(String name, Clock clock) {
    return new DatabaseLimit(database, "formation_limit", name, clock);
  }

  private static void execute(String sql) throws SQLException {
    try (Connection connection = database.getConnection();
        Statement statement = connection.createStatement()) {
      statement.execute(sql);
    }
  }

  private static int count(String sql) throws SQLException {
    try (Connection connection = database.getConnection();
        Statement statement = connection.createStatement();
        var row = statement.executeQuery(sql)) {
      row.next();
      return row.getInt(1);
    }
  }
}
