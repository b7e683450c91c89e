package io.formation.tracking;

import io.formation.sdk.SharedLimit;
import java.lang.management.ManagementFactory;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import javax.sql.DataSource;

/**
 * A {@link SharedLimit} in the partner's database, beside the tracking table: the instances that
 * call the service with one token follow its rate limit as one client. One row per origin holds the
 * fleet's last cut, one row per live instance its answers a second; a call never touches the
 * database, only the client's exchanges about every 100 ms do, each one connection and a few
 * statements, on the database's time so that machines' clocks do not matter.
 *
 * <p>The jar ships the SQL that creates its tables ({@value #POSTGRESQL_SQL}, {@value
 * #HSQLDB_SQL}), a Flyway migration of its own beside the tracking table's. While the database is
 * down (no connection within the DataSource's own timeout), a statement waits past {@link
 * #STATEMENT_TIMEOUT}, the tables are missing or a row was written by a newer version, the exchange
 * fails and each client follows its own rate alone; its calls never wait for an exchange.
 *
 * <pre>{@code
 * DatabaseLimit limit = DatabaseLimit.on(dataSource);
 * FormationClient client = FormationClient.builder().sharedLimit(limit)...build();
 * }</pre>
 */
public final class DatabaseLimit implements SharedLimit, AutoCloseable {
  /** The class path resource that creates the tables on PostgreSQL, a Flyway migration too. */
  public static final String POSTGRESQL_SQL =
      "io/formation/tracking/limit/postgresql/V1__formation_limit.sql";

  /** The class path resource that creates the tables on HSQLDB, a Flyway migration too. */
  public static final String HSQLDB_SQL =
      "io/formation/tracking/limit/hsqldb/V1__formation_limit.sql";

  /** The limits' table unless told otherwise; the instances' is its name and {@code _instance}. */
  public static final String DEFAULT_TABLE = "formation_limit";

  /** The longest a statement may take before the exchange gives up: the client goes on alone. */
  public static final Duration STATEMENT_TIMEOUT = Duration.ofSeconds(1);

  /**
   * How long after its last exchange an instance counts as live: its client exchanges every 100 ms.
   */
  static final Duration LIVE = Duration.ofMillis(1_500);

  /** Heartbeats this old are deleted: an instance that stopped without closing. */
  static final Duration FORGOTTEN = Duration.ofHours(1);

  /** Two cuts this close are one: the fleet cuts once for what it sent at one rate. */
  static final Duration ONE_CUT = Duration.ofMillis(100);

  /** The layout of the rows this version writes; a newer one's rows are left alone. */
  static final int FORMAT = 1;

  private final DataSource dataSource;
  private final DatabaseClock clock;
  private final String limits;
  private final String instances;
  private final String instance;
  private final Set<String> rows = ConcurrentHashMap.newKeySet();
  private volatile boolean closed;

  DatabaseLimit(DataSource dataSource, String tableName, String instance, Clock base) {
    this.dataSource = dataSource;
    this.clock = new DatabaseClock(dataSource, base, System::nanoTime);
    this.limits = tableName;
    this.instances = tableName + "_instance";
    this.instance = instance;
  }

  /**
   * The shared limit in the tables {@code formation_limit} and {@code formation_limit_instance}.
   *
   * @param dataSource the database the instances share; a pooled one in production
   * @return the shared limit, for {@link io.formation.sdk.FormationClient.Builder#sharedLimit}
   */
  public static DatabaseLimit on(DataSource dataSource) {
    return on(dataSource, DEFAULT_TABLE);
  }

  /**
   * As {@link #on(DataSource)}, in tables of another name: {@code tableName} and {@code
   * tableName_instance}.
   *
   * @param dataSource the database the instances share
   * @param tableName the limits' table
   * @return the shared limit
   * @throws IllegalArgumentException if the name is not a plain SQL identifier
   */
  public static DatabaseLimit on(DataSource dataSource, String tableName) {
    if (dataSource == null) {
      throw new NullPointerException("dataSource");
    }
    if (tableName == null || !tableName.matches("[A-Za-z_][A-Za-z0-9_]{0,50}")) {
      throw new IllegalArgumentException(
          "tableName must be a plain SQL identifier of at most 51 characters: " + tableName);
    }
    String name = ManagementFactory.getRuntimeMXBean().getName();
    return new DatabaseLimit(
        dataSource, tableName, name + "-" + UUID.randomUUID(), Clock.systemUTC());
  }

  @Override
  public Fleet exchange(String origin, News news) throws SQLException {
    try (Connection connection = dataSource.getConnection()) {
      connection.setAutoCommit(true);
      clock.measureIfNeverMeasured(connection);
      Instant now = clock.instant();
      if (!rows.contains(origin)) {
        insertIfAbsent(
            connection,
            "INSERT INTO " + limits + " (origin, format) VALUES (?, ?)",
            origin,
            FORMAT);
        rows.add(origin);
      }
      if (news.cutAgo().isPresent()) {
        Instant at = now.minus(news.cutAgo().get());
        update(
            connection,
            "UPDATE "
                + limits
                + " SET cut_at = ? WHERE origin = ? AND format = ?"
                + " AND (cut_at IS NULL OR cut_at <= ?)",
            at,
            origin,
            FORMAT,
            at.minus(ONE_CUT));
      }
      // Every exchange: how many answers this instance gets is fresh when another cuts.
      beat(connection, origin, now, news.answeredPerSecond());
      if (closed) {
        // Closed while this exchange ran: its row must not outlive the close's delete.
        forget(connection);
        throw new SQLException("the shared limit is closed");
      }
      return read(connection, origin, now);
    }
  }

  private Fleet read(Connection connection, String origin, Instant now) throws SQLException {
    Optional<Duration> cutAgo = Optional.empty();
    try (PreparedStatement select =
            prepare(
                connection, "SELECT format, cut_at FROM " + limits + " WHERE origin = ?", origin);
        ResultSet row = select.executeQuery()) {
      if (row.next()) {
        int format = row.getInt(1);
        if (format > FORMAT) {
          throw new SQLException(
              "the limit's row for "
                  + origin
                  + " was written by a newer formation-tracking"
                  + " (format "
                  + format
                  + "); this instance goes on alone until it is upgraded");
        }
        Timestamp cut = row.getTimestamp(2);
        cutAgo = cut == null ? cutAgo : Optional.of(Duration.between(cut.toInstant(), now));
      }
    }
    try (PreparedStatement count =
            prepare(
                connection,
                "SELECT count(*), sum(answered) FROM "
                    + instances
                    + " WHERE origin = ? AND seen_at > ?",
                origin,
                now.minus(LIVE));
        ResultSet row = count.executeQuery()) {
      row.next();
      return new Fleet(cutAgo, Math.max(1, row.getInt(1)), row.getDouble(2));
    }
  }

  private void beat(Connection connection, String origin, Instant now, double answered)
      throws SQLException {
    int updated =
        update(
            connection,
            "UPDATE "
                + instances
                + " SET seen_at = ?, answered = ? WHERE origin = ? AND instance = ?",
            now,
            answered,
            origin,
            instance);
    if (updated == 0) {
      insertIfAbsent(
          connection,
          "INSERT INTO " + instances + " (origin, instance, seen_at, answered) VALUES (?, ?, ?, ?)",
          origin,
          instance,
          now,
          answered);
      update(
          connection,
          "DELETE FROM " + instances + " WHERE origin = ? AND seen_at < ?",
          origin,
          now.minus(FORGOTTEN));
    }
  }

  /** Says this instance is gone, so that the others split the budget without it at once. */
  @Override
  public void close() {
    closed = true;
    clock.close();
    try (Connection connection = dataSource.getConnection()) {
      connection.setAutoCommit(true);
      forget(connection);
    } catch (SQLException | RuntimeException e) {
      // Its rows stop counting within LIVE all the same.
    }
  }

  private void forget(Connection connection) throws SQLException {
    update(connection, "DELETE FROM " + instances + " WHERE instance = ?", instance);
  }

  private static void insertIfAbsent(Connection connection, String sql, Object... values)
      throws SQLException {
    try {
      update(connection, sql, values);
    } catch (SQLException e) {
      // Another instance inserted it first: integrity constraint violation.
      if (e.getSQLState() == null || !e.getSQLState().startsWith("23")) {
        throw e;
      }
    }
  }

  private static int update(Connection connection, String sql, Object... values)
      throws SQLException {
    try (PreparedStatement statement = prepare(connection, sql, values)) {
      return statement.executeUpdate();
    }
  }

  private static PreparedStatement prepare(Connection connection, String sql, Object... values)
      throws SQLException {
    PreparedStatement statement = connection.prepareStatement(sql);
    try {
      statement.setQueryTimeout((int) STATEMENT_TIMEOUT.toSeconds());
      for (int i = 0; i < values.length; i++) {
        Object value = values[i];
        if (value instanceof Instant) {
          statement.setTimestamp(i + 1, Timestamp.from((Instant) value));
        } else {
          statement.setObject(i + 1, value);
        }
      }
      return statement;
    } catch (SQLException | RuntimeException e) {
      statement.close();
      throw e;
    }
  }
}
