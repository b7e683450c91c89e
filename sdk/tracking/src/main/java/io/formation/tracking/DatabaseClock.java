package io.formation.tracking;

import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.Locale;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.LongSupplier;
import javax.sql.DataSource;

/**
 * The database's time, read on this machine: a base clock corrected by its offset from the
 * database's own clock, so that instances whose machines disagree compare heartbeats, due times and
 * graces on one time (STYLE.md, rule 24). The offset is measured at the midpoint of a query's round
 * trip and measured again every {@link #REMEASURE}, in the background: reading the time never waits
 * for the database, and keeps the last offset while the database cannot be reached.
 */
final class DatabaseClock extends Clock {
  private static final Logger LOG = System.getLogger(DatabaseClock.class.getName());

  /** A machine's clock drifts by milliseconds a minute at worst; NTP steps it more rarely. */
  static final Duration REMEASURE = Duration.ofMinutes(1);

  /** Until a first measure succeeds, the machine's clock is all there is: asked again soon. */
  static final Duration UNMEASURED_RETRY = Duration.ofSeconds(1);

  private final DataSource dataSource;
  private final Clock base;
  private final LongSupplier ticker;
  private final ThreadPoolExecutor measurer;
  private final AtomicBoolean measuring = new AtomicBoolean();
  private volatile long offsetNanos;
  private volatile boolean measured;
  private volatile long lastAttemptTick;
  private volatile boolean attempted;
  private volatile String query;
  private volatile boolean closed;

  DatabaseClock(DataSource dataSource, Clock base, LongSupplier ticker) {
    this.dataSource = dataSource;
    this.base = base;
    this.ticker = ticker;
    this.measurer =
        new ThreadPoolExecutor(
            1,
            1,
            10,
            TimeUnit.SECONDS,
            new LinkedBlockingQueue<>(),
            task -> {
              Thread thread = new Thread(task, "formation-tracking-database-clock");
              thread.setDaemon(true);
              return thread;
            });
    measurer.allowCoreThreadTimeOut(true);
  }

  @Override
  public Instant instant() {
    Duration every = measured ? REMEASURE : UNMEASURED_RETRY;
    if (!attempted || ticker.getAsLong() - lastAttemptTick >= every.toNanos()) {
      measureInBackground();
    }
    return base.instant().plusNanos(offsetNanos);
  }

  /** How far the database's clock is ahead of the base clock, as last measured. */
  Duration offset() {
    return Duration.ofNanos(offsetNanos);
  }

  boolean measured() {
    return measured;
  }

  /**
   * Measures on a connection a call holds anyway, the first time only: a tracker's first call then
   * reads the database's time without waiting for the background.
   */
  void measureIfNeverMeasured(Connection connection) {
    if (!measured) {
      try {
        measure(connection);
      } catch (SQLException | RuntimeException e) {
        failed(e);
      }
    }
  }

  /** Measures now, on a connection of its own; false if the database could not be asked. */
  boolean measureNow() {
    try (Connection connection = dataSource.getConnection()) {
      measure(connection);
      return true;
    } catch (SQLException | RuntimeException e) {
      failed(e);
      return false;
    }
  }

  /**
   * Runs the action once the database's time has been read: at once if it has, else on the
   * measuring thread as soon as a measure succeeds (asked again every {@link #UNMEASURED_RETRY}),
   * never after {@link #close()}. Nothing that compares times across instances starts on the
   * machine's own clock.
   */
  void whenMeasured(Runnable action) {
    if (measured || measureNow()) {
      action.run();
      return;
    }
    measurer.execute(
        () -> {
          while (!closed && !measureNow()) {
            try {
              Thread.sleep(UNMEASURED_RETRY.toMillis());
            } catch (InterruptedException e) {
              return;
            }
          }
          if (!closed) {
            action.run();
          }
        });
  }

  /** Stops measuring; a pending {@link #whenMeasured} action never runs. */
  void close() {
    closed = true;
    measurer.shutdownNow();
  }

  private void measureInBackground() {
    if (!measuring.compareAndSet(false, true)) {
      return;
    }
    try {
      measurer.execute(
          () -> {
            try {
              measureNow();
            } finally {
              measuring.set(false);
            }
          });
    } catch (RejectedExecutionException e) {
      measuring.set(false);
    }
  }

  private void measure(Connection connection) throws SQLException {
    attempted(ticker.getAsLong());
    String sql = query(connection);
    Instant sent = base.instant();
    long sentTick = ticker.getAsLong();
    Instant database;
    try (Statement statement = connection.createStatement();
        ResultSet row = statement.executeQuery(sql)) {
      if (!row.next()) {
        throw new SQLException("the database answered no row to " + sql);
      }
      database = instant(row);
    }
    long roundTrip = ticker.getAsLong() - sentTick;
    // The database read its clock somewhere in the round trip; the midpoint errs by at most half.
    Instant here = sent.plusNanos(roundTrip / 2);
    offsetNanos = Duration.between(here, database).toNanos();
    if (!measured) {
      LOG.log(Level.DEBUG, "the database''s clock is {0} ahead of this machine''s", offset());
    }
    measured = true;
  }

  private void attempted(long tick) {
    lastAttemptTick = tick;
    attempted = true;
  }

  private void failed(Exception e) {
    attempted(ticker.getAsLong());
    LOG.log(
        Level.WARNING,
        "cannot read the database''s time; tracking goes on with the offset measured last ({0}):"
            + " {1}",
        offset(),
        e.toString());
  }

  /** The statement that reads the time on this database, at the moment it runs. */
  private String query(Connection connection) throws SQLException {
    String known = query;
    if (known != null) {
      return known;
    }
    String product = connection.getMetaData().getDatabaseProductName().toLowerCase(Locale.ROOT);
    // PostgreSQL's CURRENT_TIMESTAMP is the transaction's start; clock_timestamp() is now.
    String sql =
        product.contains("postgres")
            ? "SELECT clock_timestamp()"
            : product.contains("hsql")
                ? "VALUES (CURRENT_TIMESTAMP(6))"
                : product.contains("oracle")
                    ? "SELECT SYSTIMESTAMP FROM DUAL"
                    : "SELECT CURRENT_TIMESTAMP";
    query = sql;
    return sql;
  }

  private static Instant instant(ResultSet row) throws SQLException {
    try {
      OffsetDateTime time = row.getObject(1, OffsetDateTime.class);
      if (time != null) {
        return time.toInstant();
      }
    } catch (SQLException | RuntimeException notSupported) {
      // Drivers that cannot map the column to OffsetDateTime read it as a Timestamp.
    }
    Timestamp time = row.getTimestamp(1);
    if (time == null) {
      throw new SQLException("the database answered no time");
    }
    return time.toInstant();
  }

  @Override
  public ZoneId getZone() {
    return ZoneOffset.UTC;
  }

  @Override
  public Clock withZone(ZoneId zone) {
    throw new UnsupportedOperationException("the tracker's clock is UTC");
  }

  @Override
  public String toString() {
    return "DatabaseClock{offset=" + offset() + ", base=" + base + "}";
  }
}
