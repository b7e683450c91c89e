package io.formation.tracking;

import java.io.PrintWriter;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Logger;
import javax.sql.DataSource;

/**
 * A database that runs a hook of the test's just before one statement of the test's thread on the
 * tracking table is prepared: another instance's poll landing between a call's read and its write,
 * deterministically. The hook writes through the database itself, not through this wrapper.
 */
final class HookedDataSource implements DataSource {
  interface Hook {
    void run(DataSource database) throws SQLException;
  }

  interface When {
    boolean at(int statement, String sql);
  }

  private final DataSource database;
  private volatile Thread thread;
  private volatile When when;
  private volatile Hook hook;
  private final AtomicInteger statements = new AtomicInteger();
  private final AtomicInteger ran = new AtomicInteger();

  HookedDataSource(DataSource database) {
    this.database = database;
  }

  /** Runs the hook once, before the statement on the table that {@code when} picks (from 1). */
  void beforeStatement(When when, Hook hook) {
    this.thread = Thread.currentThread();
    this.statements.set(0);
    this.when = when;
    this.hook = hook;
  }

  int hooksRun() {
    return ran.get();
  }

  private void preparing(String sql) throws SQLException {
    Hook pending = hook;
    if (pending == null
        || Thread.currentThread() != thread
        || !sql.toLowerCase(Locale.ROOT).contains("formation_tracking")) {
      return;
    }
    if (when.at(statements.incrementAndGet(), sql.strip().toLowerCase(Locale.ROOT))) {
      hook = null;
      pending.run(database);
      ran.incrementAndGet();
    }
  }

  private Connection hooked(Connection connection) {
    return (Connection)
        Proxy.newProxyInstance(
            Connection.class.getClassLoader(),
            new Class<?>[] {Connection.class},
            (proxy, method, args) -> {
              if (method.getName().equals("prepareStatement") && args[0] instanceof String sql) {
                preparing(sql);
              }
              try {
                return method.invoke(connection, args);
              } catch (InvocationTargetException e) {
                throw e.getCause();
              }
            });
  }

  @Override
  public Connection getConnection() throws SQLException {
    return hooked(database.getConnection());
  }

  @Override
  public Connection getConnection(String user, String password) throws SQLException {
    return hooked(database.getConnection(user, password));
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
