package io.formation.spring.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import io.formation.sdk.FormationClient;
import io.formation.tracking.DatabaseLimit;
import io.formation.tracking.FormationTracker;
import io.formation.tracking.TrackingHandler;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import javax.sql.DataSource;
import org.hsqldb.jdbc.JDBCDataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.flyway.autoconfigure.FlywayAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

/**
 * With Flyway, the tracker's table is created beside an application that has its own version 1:
 * both start, each with its own history table, and the tracker tracks on the table. The shared
 * limit's tables are there before the client that exchanges through them is built.
 */
@ExtendWith(OutputCaptureExtension.class)
class TrackingTableFlywayTest {
  private static final AtomicInteger DATABASES = new AtomicInteger();

  final ApplicationContextRunner runner =
      new ApplicationContextRunner()
          .withConfiguration(
              AutoConfigurations.of(
                  FlywayAutoConfiguration.class,
                  FormationAutoConfiguration.class,
                  FormationTrackingAutoConfiguration.class,
                  FormationTrackingFlywayAutoConfiguration.class))
          .withPropertyValues(
              "spring.flyway.locations=classpath:partner/db/migration",
              "formation.base-url=http://127.0.0.1:9",
              "formation.allow-insecure-http=true",
              "formation.access-token=tok",
              "formation.tracking.enabled=true")
          .withBean(TrackingHandler.class, () -> new TrackingHandler() {});

  @Test
  void anApplicationWithItsOwnVersionOneStartsAndItsTrackerHasItsTable() throws SQLException {
    DataSource database = emptyDatabase();

    runner
        .withBean(DataSource.class, () -> database)
        .run(
            context -> {
              assertThat(context).hasNotFailed();
              assertThat(context.getBean(FormationTracker.class).track("ds_1")).isTrue();
            });

    assertThat(versions(database, "\"flyway_schema_history\"")).containsExactly("1");
    assertThat(
            versions(
                database, "\"" + FormationTrackingFlywayAutoConfiguration.HISTORY_TABLE + "\""))
        .containsExactly("0", "1");
    assertThat(
            versions(
                database,
                "\"" + FormationTrackingFlywayAutoConfiguration.LIMIT_HISTORY_TABLE + "\""))
        .containsExactly("0", "1");
    assertThat(TrackingDatabases.rows(database, "partner_accounts")).isZero();
    assertThat(TrackingDatabases.rows(database, FormationTracker.DEFAULT_TABLE)).isEqualTo(1);
    // The limit's table is there (counting throws otherwise); whether the client has exchanged
    // through it yet, and so made its origin's row, is a matter of timing.
    assertThat(TrackingDatabases.rows(database, DatabaseLimit.DEFAULT_TABLE)).isBetween(0, 1);
  }

  @Test
  void theClientJoinsItsFleetOnlyOnceTheLimitsTablesAreMade(CapturedOutput output)
      throws Exception {
    joinsOnceTheLimitsTablesAreMade(runner, emptyDatabase());

    assertThat(output).doesNotContain("cannot be reached");
  }

  @Test
  void madeByTheApplicationsOwnMigrationsTheLimitsTablesAreThereBeforeTheClientToo(
      CapturedOutput output) throws Exception {
    joinsOnceTheLimitsTablesAreMade(
        runner.withPropertyValues(
            "formation.tracking.flyway.enabled=false",
            "spring.flyway.locations=classpath:io/formation/tracking/limit/hsqldb",
            "spring.flyway.baseline-on-migrate=true",
            "spring.flyway.baseline-version=0"),
        TrackingDatabases.withDefaultTable());

    assertThat(output).doesNotContain("cannot be reached");
  }

  /** Starts on the database, its limit's tables there as the client is built and exchanges. */
  private static void joinsOnceTheLimitsTablesAreMade(
      ApplicationContextRunner runner, DataSource database) throws Exception {
    AtomicReference<Boolean> madeBeforeTheClient = new AtomicReference<>();
    runner
        .withBean(DataSource.class, () -> database)
        .withInitializer(
            context ->
                context
                    .getBeanFactory()
                    .addBeanPostProcessor(
                        new BeanPostProcessor() {
                          @Override
                          public Object postProcessBeforeInitialization(Object bean, String name) {
                            // Just built: its first exchange is already on its way.
                            if (bean instanceof FormationClient) {
                              madeBeforeTheClient.set(hasLimitTable(database));
                            }
                            return bean;
                          }
                        }))
        .run(
            context -> {
              assertThat(context).hasNotFailed();
              assertThat(madeBeforeTheClient.get())
                  .as("the limit's table is there when the client is built")
                  .isTrue();
              awaitTheOriginsRow(database);
            });
  }

  @Test
  void theSecondStartFindsBothUpToDateAndChangesNothing() {
    DataSource database = emptyDatabase();
    runner.withBean(DataSource.class, () -> database).run(context -> {});

    runner
        .withBean(DataSource.class, () -> database)
        .run(context -> assertThat(context).hasNotFailed());

    assertThat(
            versions(
                database, "\"" + FormationTrackingFlywayAutoConfiguration.HISTORY_TABLE + "\""))
        .containsExactly("0", "1");
  }

  @Test
  void aTableTheApplicationsOwnMigrationsMadeIsTakenAsItIsAndNotCreatedAgain() {
    DataSource database = emptyDatabase();

    // What an application without a version 1 of its own could do: run the shipped file itself.
    runner
        .withBean(DataSource.class, () -> database)
        .withPropertyValues("spring.flyway.locations=classpath:io/formation/tracking/db/hsqldb")
        .run(
            context -> {
              assertThat(context).hasNotFailed();
              assertThat(context.getBean(FormationTracker.class).track("ds_1")).isTrue();
            });

    assertThat(versions(database, "\"flyway_schema_history\"")).containsExactly("1");
    assertThat(
            versions(
                database, "\"" + FormationTrackingFlywayAutoConfiguration.HISTORY_TABLE + "\""))
        .containsExactly("1");
  }

  @Test
  void turnedOffTheTableIsTheApplicationsToCreate() {
    DataSource database = emptyDatabase();

    runner
        .withBean(DataSource.class, () -> database)
        .withPropertyValues("formation.tracking.flyway.enabled=false")
        .run(context -> assertThat(context).doesNotHaveBean("formationTrackingTableMigration"));

    assertThat(versions(database, "\"flyway_schema_history\"")).containsExactly("1");
  }

  private static DataSource emptyDatabase() {
    JDBCDataSource dataSource = new JDBCDataSource();
    dataSource.setUrl("jdbc:hsqldb:mem:flyway-tracking" + DATABASES.incrementAndGet());
    dataSource.setUser("SA");
    dataSource.setPassword("");
    return dataSource;
  }

  private static boolean hasLimitTable(DataSource database) {
    try {
      TrackingDatabases.rows(database, DatabaseLimit.DEFAULT_TABLE);
      return true;
    } catch (SQLException missing) {
      return false;
    }
  }

  /** Waits for the client's first exchange to have written its origin's row. */
  private static void awaitTheOriginsRow(DataSource database) throws Exception {
    for (int tries = 0;
        TrackingDatabases.rows(database, DatabaseLimit.DEFAULT_TABLE) == 0;
        tries++) {
      assertThat(tries).as("the origin's row within 10 s").isLessThan(1_000);
      Thread.sleep(10);
    }
  }

  /** The versions a Flyway history table records, in order (a baseline too). */
  private static List<String> versions(DataSource dataSource, String table) {
    List<String> versions = new ArrayList<>();
    try (Connection connection = dataSource.getConnection();
        Statement statement = connection.createStatement();
        ResultSet result =
            statement.executeQuery(
                "SELECT \"version\" FROM " + table + " ORDER BY \"installed_rank\"")) {
      while (result.next()) {
        versions.add(result.getString(1));
      }
    } catch (SQLException e) {
      throw new IllegalStateException(e);
    }
    return versions;
  }
}
