package io.formation.spring.autoconfigure;

import io.formation.tracking.FormationTracker;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.atomic.AtomicInteger;
import javax.sql.DataSource;
import org.hsqldb.jdbc.JDBCDataSource;

/**
 * Fresh in-memory HSQLDB databases holding the table from the SQL file formation-tracking ships.
 */
final class TrackingDatabases {
  private static final AtomicInteger DATABASES = new AtomicInteger();

  private TrackingDatabases() {}

  /** A database with the tracker's table under its default name. */
  static DataSource withDefaultTable() {
    return withTable(FormationTracker.DEFAULT_TABLE);
  }

  /** A database with the tracker's table under another name, as a partner's migration could. */
  static DataSource withTable(String name) {
    JDBCDataSource dataSource = new JDBCDataSource();
    dataSource.setUrl("jdbc:hsqldb:mem:boot-tracking" + DATABASES.incrementAndGet());
    dataSource.setUser("SA");
    dataSource.setPassword("");
    String sql;
    try (InputStream in =
        TrackingDatabases.class.getClassLoader().getResourceAsStream(FormationTracker.HSQLDB_SQL)) {
      sql = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    StringBuilder statements = new StringBuilder();
    for (String line : sql.split("\n")) {
      if (!line.strip().startsWith("--")) {
        statements.append(line.replace(FormationTracker.DEFAULT_TABLE, name)).append('\n');
      }
    }
    try (Connection connection = dataSource.getConnection();
        Statement statement = connection.createStatement()) {
      for (String one : statements.toString().split(";")) {
        if (!one.isBlank()) {
          statement.execute(one);
        }
      }
    } catch (SQLException e) {
      throw new IllegalStateException(e);
    }
    return dataSource;
  }

  /** How many rows a table holds. */
  static int rows(DataSource dataSource, String table) throws SQLException {
    try (Connection connection = dataSource.getConnection();
        Statement statement = connection.createStatement();
        ResultSet result = statement.executeQuery("SELECT COUNT(*) FROM " + table)) {
      result.next();
      return result.getInt(1);
    }
  }
}
