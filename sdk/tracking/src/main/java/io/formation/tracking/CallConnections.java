package io.formation.tracking;

import java.io.PrintWriter;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.util.logging.Logger;
import javax.sql.DataSource;

/**
 * The DataSource db-scheduler is given: on a thread inside one of the tracker's calls, that call's
 * one connection, so that a call waits for the pool once at most (db-scheduler's insert asks the
 * pool again after a failure); on db-scheduler's own threads, the partner's DataSource as it is.
 */
final class CallConnections implements DataSource {
  interface Work<T> {
    T run(Connection connection) throws SQLException;
  }

  private final DataSource dataSource;
  private final ThreadLocal<Connection> held = new ThreadLocal<>();

  CallConnections(DataSource dataSource) {
    this.dataSource = dataSource;
  }

  /** Runs the work with one connection, which db-scheduler's statements on this thread share. */
  <T> T with(Work<T> work) throws SQLException {
    try (Connection connection = dataSource.getConnection()) {
      held.set(connection);
      try {
        return work.run(connection);
      } finally {
        held.remove();
      }
    }
  }

  @Override
  public Connection getConnection() throws SQLException {
    Connection connection = held.get();
    return connection == null ? dataSource.getConnection() : unclosable(connection);
  }

  @Override
  public Connection getConnection(String user, String password) throws SQLException {
    Connection connection = held.get();
    return connection == null ? dataSource.getConnection(user, password) : unclosable(connection);
  }

  /** The held connection, whose close is the call's, not the statement's. */
  private static Connection unclosable(Connection connection) {
    return (Connection)
        Proxy.newProxyInstance(
            Connection.class.getClassLoader(),
            new Class<?>[] {Connection.class},
            (proxy, method, args) -> {
              if (method.getName().equals("close") && method.getParameterCount() == 0) {
                return null;
              }
              try {
                return method.invoke(connection, args);
              } catch (InvocationTargetException e) {
                throw e.getCause();
              }
            });
  }

  @Override
  public PrintWriter getLogWriter() throws SQLException {
    return dataSource.getLogWriter();
  }

  @Override
  public void setLogWriter(PrintWriter out) throws SQLException {
    dataSource.setLogWriter(out);
  }

  @Override
  public void setLoginTimeout(int seconds) throws SQLException {
    dataSource.setLoginTimeout(seconds);
  }

  @Override
  public int getLoginTimeout() throws SQLException {
    return dataSource.getLoginTimeout();
  }

  @Override
  public Logger getParentLogger() throws SQLFeatureNotSupportedException {
    return dataSource.getParentLogger();
  }

  @Override
  public <T> T unwrap(Class<T> type) throws SQLException {
    return type.isInstance(this) ? type.cast(this) : dataSource.unwrap(type);
  }

  @Override
  public boolean isWrapperFor(Class<?> type) throws SQLException {
    return type.isInstance(this) || dataSource.isWrapperFor(type);
  }
}
