package io.formation.tracking;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.formation.sdk.SharedLimit.Fleet;
import io.formation.sdk.SharedLimit.News;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The limit that instances share, in a real PostgreSQL: each instance a DatabaseLimit of its own.
 */
class DatabaseLimitTest {
  private static final String ORIGIN = "https://api.example.com";
  private static final News NOTHING = new News(Optional.empty(), 0);

  private static EmbeddedPostgres postgres;
  private static DataSource database;

  @BeforeAll
  static void startPostgres() throws Exception {
    postgres = EmbeddedPostgres.builder().start();
    database = postgres.getPostgresDatabase();
    createTables(database);
  }

  /** The limit's tables from the shipped file, as a partner's migration makes them. */
  static void createTables(DataSource database) throws Exception {
    try (Connection connection = database.getConnection();
        Statement statement = connection.createStatement()) {
      statement.execute(tablesSql());
    }
  }

  private static String tablesSql() throws Exception {
    String sql =
        new String(
            DatabaseLimit.class
                .getClassLoader()
                .getResourceAsStream(DatabaseLimit.POSTGRESQL_SQL)
                .readAllBytes(),
            StandardCharsets.UTF_8);
    return sql.replaceAll("(?m)^--.*$", "");
  }

  @AfterAll
  static void stopPostgres() throws Exception {
    postgres.close();
  }

  @BeforeEach
  void emptyTables() throws SQLException {
    execute("DELETE FROM formation_limit; DELETE FROM formation_limit_instance");
  }

  @Test
  void aCutOneInstanceTellsIsHeardByTheOtherWithBothCountedLiveAndTheirAnswersSummed()
      throws Exception {
    DatabaseLimit first = instance("first", Clock.systemUTC());
    DatabaseLimit second = instance("second", Clock.systemUTC());

    second.exchange(ORIGIN, new News(Optional.empty(), 500));
    first.exchange(ORIGIN, new News(Optional.of(Duration.ofMillis(20)), 300));
    Fleet heard = second.exchange(ORIGIN, new News(Optional.empty(), 600));

    assertThat(heard.instances()).isEqualTo(2);
    assertThat(heard.answeredPerSecond()).isEqualTo(900);
    assertThat(heard.lastCutAgo())
        .get()
        .satisfies(ago -> assertThat(ago).isBetween(Duration.ofMillis(20), Duration.ofSeconds(5)));
  }

  @Test
  void twoCutsWithinAWindowAreOneTheFirst() throws Exception {
    DatabaseLimit first = instance("first", Clock.systemUTC());
    DatabaseLimit second = instance("second", Clock.systemUTC());

    first.exchange(ORIGIN, cut(Duration.ofMillis(60)));
    Fleet after = second.exchange(ORIGIN, cut(Duration.ZERO));

    assertThat(after.lastCutAgo())
        .get()
        .satisfies(ago -> assertThat(ago).isGreaterThanOrEqualTo(Duration.ofMillis(60)));
  }

  @Test
  void instancesWhoseClocksDifferByMinutesAgreeOnTheDatabasesTime() throws Exception {
    DatabaseLimit behind =
        instance("behind", Clock.offset(Clock.systemUTC(), Duration.ofMinutes(-7)));
    DatabaseLimit ahead = instance("ahead", Clock.offset(Clock.systemUTC(), Duration.ofMinutes(5)));

    behind.exchange(ORIGIN, cut(Duration.ZERO));
    Fleet heard = ahead.exchange(ORIGIN, NOTHING);

    assertThat(heard.lastCutAgo())
        .get()
        .satisfies(
            ago -> assertThat(ago).isBetween(Duration.ofMillis(-100), Duration.ofSeconds(5)));
    assertThat(heard.instances()).isEqualTo(2);
  }

  @Test
  void anInstanceThatStoppedBeatingLongAgoIsNotCountedAndOneClosedIsGoneAtOnce() throws Exception {
    execute(
        "INSERT INTO formation_limit_instance VALUES ('"
            + ORIGIN
            + "', 'dead', now() - interval '10 seconds', 900)");
    DatabaseLimit first = instance("first", Clock.systemUTC());
    DatabaseLimit second = instance("second", Clock.systemUTC());
    first.exchange(ORIGIN, NOTHING);
    assertThat(second.exchange(ORIGIN, NOTHING).instances()).isEqualTo(2);

    first.close();

    assertThat(second.exchange(ORIGIN, NOTHING).instances()).isEqualTo(1);
  }

  @Test
  void aRowWrittenByANewerVersionIsLeftAsItIsAndTheExchangeFails() throws Exception {
    DatabaseLimit instance = instance("old", Clock.systemUTC());
    instance.exchange(ORIGIN, NOTHING);
    execute("UPDATE formation_limit SET format = 2, cut_at = NULL");

    assertThatThrownBy(() -> instance.exchange(ORIGIN, cut(Duration.ZERO)))
        .isInstanceOf(SQLException.class)
        .hasMessageContaining("newer formation-tracking");
    assertThat(count("SELECT count(*) FROM formation_limit WHERE format = 2 AND cut_at IS NULL"))
        .isEqualTo(1);
  }

  @Test
  void aDatabaseThatIsDownFailsTheExchangeAndOneThatIsBackServesIt() throws Exception {
    FlakyDataSource flaky = new FlakyDataSource(database);
    DatabaseLimit instance =
        new DatabaseLimit(flaky, "formation_limit", "flaky", Clock.systemUTC());
    flaky.down(true);

    assertThatThrownBy(() -> instance.exchange(ORIGIN, cut(Duration.ZERO)))
        .isInstanceOf(SQLException.class);

    flaky.down(false);
    assertThat(instance.exchange(ORIGIN, NOTHING).instances()).isEqualTo(1);
  }

  @Test
  void aRowLockedByAnotherTransactionFailsTheExchangeAfterTheStatementTimeout() throws Exception {
    DatabaseLimit instance = instance("blocked", Clock.systemUTC());
    instance.exchange(ORIGIN, NOTHING);
    try (Connection holder = database.getConnection()) {
      holder.setAutoCommit(false);
      try (Statement lock = holder.createStatement()) {
        lock.execute("SELECT * FROM formation_limit FOR UPDATE");
      }
      CompletableFuture<Fleet> exchange =
          CompletableFuture.supplyAsync(
              () -> {
                try {
                  return instance.exchange(ORIGIN, cut(Duration.ZERO));
                } catch (SQLException e) {
                  throw new IllegalStateException(e);
                }
              });

      // Far more than the statement timeout: a hang would fail here, not hold the suite.
      assertThatThrownBy(() -> exchange.get(60, TimeUnit.SECONDS))
          .hasRootCauseInstanceOf(SQLException.class);
      holder.rollback();
    }
  }

  @Test
  void missingTablesFailTheExchange() throws Exception {
    DatabaseLimit instance =
        new DatabaseLimit(database, "no_such_limit", "lost", Clock.systemUTC());

    assertThatThrownBy(() -> instance.exchange(ORIGIN, NOTHING)).isInstanceOf(SQLException.class);
  }

  @Test
  void anOriginsRowThatCouldNotBeMadeIsMadeAtTheNextExchange() throws Exception {
    DatabaseLimit instance = new DatabaseLimit(database, "late_limit", "early", Clock.systemUTC());
    assertThatThrownBy(() -> instance.exchange(ORIGIN, NOTHING)).isInstanceOf(SQLException.class);

    execute(tablesSql().replace("formation_limit", "late_limit"));
    instance.exchange(ORIGIN, cut(Duration.ZERO));

    assertThat(instance.exchange(ORIGIN, NOTHING).lastCutAgo()).isPresent();
  }

  @Test
  void aTableNameThatIsNotAPlainIdentifierIsRefused() {
    assertThatThrownBy(() -> DatabaseLimit.on(database, "limits; DROP TABLE x"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("plain SQL identifier");
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
