package io.formation.tracking;

import static org.assertj.core.api.Assertions.assertThat;

import io.formation.sandbox.FormationSandbox;
import io.formation.sandbox.SandboxOptions;
import io.formation.sandbox.SandboxTemplates;
import io.formation.sdk.FormationClient;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import javax.sql.DataSource;
import liquibase.command.CommandScope;
import liquibase.command.core.UpdateCommandStep;
import liquibase.command.core.helpers.DbUrlConnectionArgumentsCommandStep;
import liquibase.database.Database;
import liquibase.database.DatabaseFactory;
import liquibase.database.jvm.JdbcConnection;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.output.MigrateResult;
import org.hsqldb.jdbc.JDBCDataSource;
import org.junit.jupiter.api.Test;

/**
 * The shipped SQL files as a partner runs them, into a database that already holds the
 * application's own tables: Flyway migrations from their class path location, and a Liquibase
 * changeset's {@code sqlFile}, with the settings docs/tracking.md gives; then a tracker tracks a
 * set on the table they made.
 */
class TableMigrationsTest {
  private static final String HISTORY = "formation_tracking_schema_history";
  private static final String CHANGELOG = "io/formation/tracking/liquibase-changelog.xml";

  @Test
  void flywayCreatesTheTableOnHsqldbFromTheShippedMigrationAndASetIsTrackedOnIt() throws Exception {
    JDBCDataSource database = new JDBCDataSource();
    database.setUrl("jdbc:hsqldb:mem:migrations");
    database.setUser("SA");
    database.setPassword("");

    migratesAndTracks(database, "classpath:io/formation/tracking/db/hsqldb");
  }

  @Test
  void flywayCreatesTheTableOnPostgresqlFromTheShippedMigrationAndASetIsTrackedOnIt()
      throws Exception {
    try (EmbeddedPostgres postgres = EmbeddedPostgres.builder().start()) {
      migratesAndTracks(
          postgres.getPostgresDatabase(), "classpath:io/formation/tracking/db/postgresql");
    }
  }

  @Test
  void liquibaseCreatesTheTableOnHsqldbWithAnSqlFileChangeSetAndASetIsTrackedOnIt()
      throws Exception {
    JDBCDataSource database = new JDBCDataSource();
    database.setUrl("jdbc:hsqldb:mem:liquibase");
    database.setUser("SA");
    database.setPassword("");

    updatesAndTracks(database);
  }

  @Test
  void liquibaseCreatesTheTableOnPostgresqlWithAnSqlFileChangeSetAndASetIsTrackedOnIt()
      throws Exception {
    try (EmbeddedPostgres postgres = EmbeddedPostgres.builder().start()) {
      updatesAndTracks(postgres.getPostgresDatabase());
    }
  }

  /** The changelog of docs/tracking.md: one changeset running the shipped file per database. */
  private static void updatesAndTracks(DataSource database) throws Exception {
    execute(database, "CREATE TABLE formations (set_id varchar(64) PRIMARY KEY)");
    for (int run = 0; run < 2; run++) { // at every start of the application: the second is idle
      try (Connection connection = database.getConnection()) {
        Database liquibase =
            DatabaseFactory.getInstance()
                .findCorrectDatabaseImplementation(new JdbcConnection(connection));
        new CommandScope(UpdateCommandStep.COMMAND_NAME)
            .addArgumentValue(DbUrlConnectionArgumentsCommandStep.DATABASE_ARG, liquibase)
            .addArgumentValue(UpdateCommandStep.CHANGELOG_FILE_ARG, CHANGELOG)
            .execute();
      }
    }
    try (Connection connection = database.getConnection();
        Statement statement = connection.createStatement();
        ResultSet ran =
            statement.executeQuery("SELECT id FROM databasechangelog ORDER BY orderexecuted")) {
      assertThat(ran.next()).isTrue();
      assertThat(ran.getString(1)).startsWith("formation-tracking-1");
      assertThat(ran.next()).isTrue();
      assertThat(ran.getString(1)).startsWith("formation-limit-1");
      assertThat(ran.next()).as("two changesets ran, once each").isFalse();
    }
    tracksASetToCompletion(database);
  }

  private static void migratesAndTracks(DataSource database, String location) throws Exception {
    execute(database, "CREATE TABLE formations (set_id varchar(64) PRIMARY KEY)");

    MigrateResult result = flyway(database, location).migrate();

    assertThat(result.success).isTrue();
    assertThat(result.migrations)
        .singleElement()
        .satisfies(
            migration -> {
              assertThat(migration.version).isEqualTo("1");
              assertThat(migration.filepath).endsWith("V1__formation_tracking.sql");
            });
    // Run again, as at every start of the application: nothing more to do.
    assertThat(flyway(database, location).migrate().migrationsExecuted).isZero();
    tracksASetToCompletion(database);
  }

  /** Flyway with the settings of docs/tracking.md, beside the application's own migrations. */
  private static Flyway flyway(DataSource database, String location) {
    return Flyway.configure()
        .dataSource(database)
        .locations(location)
        .table(HISTORY)
        .baselineOnMigrate(true)
        .baselineVersion("0")
        .load();
  }

  private static void tracksASetToCompletion(DataSource database) throws Exception {
    Recorder recorder = new Recorder();
    try (FormationSandbox sandbox =
            FormationSandbox.start(
                SandboxOptions.defaults()
                    .withProcessingLag(Duration.ZERO)
                    .withStepDelay(Duration.ZERO));
        FormationClient client = SandboxClients.of(sandbox);
        FormationTracker tracker =
            FormationTracker.builder(client, database, recorder)
                .pollingInterval(Duration.ofMillis(50))
                .build()) {
      String id = sandbox.createSubmitted(SandboxTemplates.DELAWARE_CORPORATION).id();
      tracker.start();

      assertThat(tracker.track(id)).isTrue();

      recorder.awaitEvent(e -> e.equals("completed " + id + " complete"));
      Waits.until(() -> tracker.tracked().isEmpty(), Duration.ofSeconds(20), recorder::toString);
    }
  }

  private static void execute(DataSource database, String sql) throws SQLException {
    try (Connection connection = database.getConnection();
        Statement statement = connection.createStatement()) {
      statement.execute(sql);
    }
  }
}
