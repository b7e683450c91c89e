package io.formation.tracking;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.atomic.AtomicInteger;
import javax.sql.DataSource;
import org.hsqldb.jdbc.JDBCDataSource;

/** Creates the tracking table from the SQL files the jar ships, as a partner would. */
final class Tables {
  private static final AtomicInteger DATABASES = new AtomicInteger();

  private Tables() {}

  /** A fresh in-memory HSQLDB database holding the table. */
  static DataSource hsqldb() {
    JDBCDataSource dataSource = new JDBCDataSource();
    dataSource.setUrl("jdbc:hsqldb:mem:tracking" + DATABASES.incrementAndGet());
    dataSource.setUser("SA");
    dataSource.setPassword("");
    create(dataSource, FormationTracker.HSQLDB_SQL);
    return dataSource;
  }

  /** Runs a shipped SQL file, statement by statement. */
  static void create(DataSource dataSource, String resource) {
    String sql;
    try (InputStream in = Tables.class.getClassLoader().getResourceAsStream(resource)) {
      if (in == null) {
        throw new IllegalStateException("the jar does not ship " + resource);
      }
      sql = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    StringBuilder withoutComments = new StringBuilder();
    for (String line : sql.split("\n")) {
      if (!line.strip().startsWith("--")) {
        withoutComments.append(line).append('\n');
      }
    }
    try (Connection connection = dataSource.getConnection();
        Statement statement = connection.createStatement()) {
      for (String one : withoutComments.toString().split(";")) {
        if (!one.isBlank()) {
          statement.execute(one);
        }
      }
    } catch (SQLException e) {
      throw new IllegalStateException("cannot run " + resource, e);
    }
  }
}
