package io.formation.tracking;

import java.io.PrintWriter;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.SQLTransientConnectionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Logger;
import javax.sql.DataSource;

/** A database that can be made unreachable: no new connection while it is down. */
final class FlakyDataSource implements DataSource {
  private final DataSource database;
  private final AtomicBoolean down = new AtomicBoolean();
  private final AtomicInteger refusals = new AtomicInteger();

  FlakyDataSource(DataSource database) {
    this.database = database;
  }

  void down(boolean down) {
    this.down.set(down);
  }

  int refusals() {
    return refusals.get();
  }

  @Override
  public Connection getConnection() throws SQLException {
    if (down.get()) {
      refusals.incrementAndGet();
      throw new SQLTransientConnectionException("the database is unreachable (test)");
    }
    return database.getConnection();
  }

  @Override
  public Connection getConnection(String user, String password) throws SQLException {
    return getConnection();
  }

  @Override
  public PrintWriter getLogWriter() throws SQLException {
    return database.getLogWriter();
  }

  @Override
  public void setLogWriter(PrintWriter out) throws SQLException {
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
  public Logger getParentLogger() throws SQLFeatureNotSupportedException {
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
