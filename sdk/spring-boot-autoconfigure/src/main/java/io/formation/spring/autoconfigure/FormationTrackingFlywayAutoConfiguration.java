package io.formation.spring.autoconfigure;

import io.formation.tracking.DatabaseLimit;
import io.formation.tracking.FormationTracker;
import java.lang.System.Logger.Level;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import javax.sql.DataSource;
import org.flywaydb.core.Flyway;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.beans.factory.config.BeanFactoryPostProcessor;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnSingleCandidate;
import org.springframework.boot.sql.init.dependency.DependsOnDatabaseInitialization;
import org.springframework.context.annotation.Bean;

/**
 * Creates the tracker's table with Flyway, when Flyway is on the class path, beside the
 * application's own migrations: a run of its own on the SQL file formation-tracking ships for the
 * database, with a history table of its own ({@value #HISTORY_TABLE}), so that its version 1 never
 * meets the application's. The schema already holds the application's tables, so the run starts
 * from a baseline (version 0), or from version 1 when the table is already there (made by an
 * earlier migration or by hand). The shared limit's tables ({@code DatabaseLimit}) come the same
 * way, from their own folder, with their own history table ({@value #LIMIT_HISTORY_TABLE}). It runs
 * after the application's own database initialization (Flyway, Liquibase, SQL scripts) and before
 * the tracker and the shared limit, so the client that takes the limit, are built. {@code
 * formation.tracking.flyway.enabled=false} turns it off.
 */
@AutoConfiguration(
    after = FormationTrackingAutoConfiguration.class,
    afterName = {
      "org.springframework.boot.autoconfigure.flyway.FlywayAutoConfiguration",
      "org.springframework.boot.flyway.autoconfigure.FlywayAutoConfiguration"
    })
@ConditionalOnClass(name = {"org.flywaydb.core.Flyway", "io.formation.tracking.FormationTracker"})
@ConditionalOnProperty(
    name = "formation.tracking.flyway.enabled",
    havingValue = "true",
    matchIfMissing = true)
@ConditionalOnBean(FormationTracker.class)
@ConditionalOnSingleCandidate(DataSource.class)
public class FormationTrackingFlywayAutoConfiguration {
  static final String HISTORY_TABLE = "formation_tracking_schema_history";

  /** The history of the shared limit's tables, a run of their own. */
  static final String LIMIT_HISTORY_TABLE = "formation_limit_schema_history";

  private static final System.Logger LOG =
      System.getLogger(FormationTrackingFlywayAutoConfiguration.class.getName());

  /** Only Spring creates it. */
  FormationTrackingFlywayAutoConfiguration() {}

  @Bean
  @DependsOnDatabaseInitialization
  TrackingTableMigration formationTrackingTableMigration(
      DataSource dataSource, FormationProperties properties) {
    String table = properties.getTracking().getTableName();
    if (table != null && !table.equals(FormationTracker.DEFAULT_TABLE)) {
      LOG.log(
          Level.INFO,
          "formation.tracking.table-name is {0}: the shipped migration creates {1}, so {0} is the"
              + " application''s to create",
          table,
          FormationTracker.DEFAULT_TABLE);
      return new TrackingTableMigration(false);
    }
    return new TrackingTableMigration(migrate(dataSource));
  }

  /**
   * The tracker and the shared limit are made after their tables, even when beans are initialized
   * lazily: the client that takes the limit exchanges through it as it is built.
   */
  @Bean
  static BeanFactoryPostProcessor formationTrackerAndLimitAfterTheirTables() {
    return beanFactory -> {
      for (Class<?> type : List.of(FormationTracker.class, DatabaseLimit.class)) {
        for (String name : beanFactory.getBeanNamesForType(type, true, false)) {
          BeanDefinition bean = beanFactory.getBeanDefinition(name);
          String[] dependsOn = bean.getDependsOn();
          List<String> all =
              new ArrayList<>(dependsOn == null ? List.of() : Arrays.asList(dependsOn));
          all.add("formationTrackingTableMigration");
          bean.setDependsOn(all.toArray(String[]::new));
        }
      }
    };
  }

  /** Whether the run happened (false for a database formation-tracking ships no SQL for). */
  record TrackingTableMigration(boolean ran) {}

  /**
   * Runs the shipped migration on the database behind {@code dataSource}.
   *
   * @return false for a database formation-tracking ships no SQL for
   */
  static boolean migrate(DataSource dataSource) {
    String product;
    boolean tableExists;
    boolean limitExists;
    try (Connection connection = dataSource.getConnection()) {
      DatabaseMetaData meta = connection.getMetaData();
      product = meta.getDatabaseProductName();
      tableExists = exists(meta, connection.getSchema(), FormationTracker.DEFAULT_TABLE);
      limitExists = exists(meta, connection.getSchema(), DatabaseLimit.DEFAULT_TABLE);
    } catch (SQLException e) {
      throw new IllegalStateException("The tracker's database could not be looked at", e);
    }
    String folder = folder(product, FormationTracker.POSTGRESQL_SQL, FormationTracker.HSQLDB_SQL);
    if (folder == null) {
      if (!tableExists) {
        LOG.log(
            Level.WARNING,
            "formation-tracking ships no SQL for this database: create its {0} table from"
                + " db-scheduler's table for it (docs/tracking.md, \"The table\")",
            FormationTracker.DEFAULT_TABLE);
      }
      return false;
    }
    run(dataSource, folder, HISTORY_TABLE, tableExists);
    run(
        dataSource,
        folder(product, DatabaseLimit.POSTGRESQL_SQL, DatabaseLimit.HSQLDB_SQL),
        LIMIT_HISTORY_TABLE,
        limitExists);
    return true;
  }

  /** One shipped folder, from a baseline: its version 1 when its tables are already there. */
  private static void run(DataSource dataSource, String folder, String history, boolean made) {
    Flyway.configure(FormationTrackingFlywayAutoConfiguration.class.getClassLoader())
        .dataSource(dataSource)
        .locations("classpath:" + folder)
        .table(history)
        .baselineOnMigrate(true)
        .baselineVersion(made ? "1" : "0")
        .load()
        .migrate();
  }

  /** The class path folder of one of the shipped files for a database, by its product name. */
  private static String folder(String product, String postgresql, String hsqldb) {
    String file;
    if (product.equalsIgnoreCase("PostgreSQL")) {
      file = postgresql;
    } else if (product.startsWith("HSQL")) {
      file = hsqldb;
    } else {
      return null;
    }
    return file.substring(0, file.lastIndexOf('/'));
  }

  private static boolean exists(DatabaseMetaData meta, String schema, String table)
      throws SQLException {
    // Unquoted names are folded to upper case by some databases, to lower case by others.
    for (String name : List.of(table, table.toUpperCase(Locale.ROOT))) {
      try (ResultSet tables = meta.getTables(null, schema, name, null)) {
        if (tables.next()) {
          return true;
        }
      }
    }
    return false;
  }
}
