package io.formation.tracking;

import static org.assertj.core.api.Assertions.assertThat;

import com.github.kagkarlsson.scheduler.jdbc.DefaultJdbcCustomization;
import io.formation.sdk.FormationClient;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;

class SchedulerDatabaseTest {
  @Test
  void onHsqldbTheSchedulerIsToldTheDatabaseSoItLogsNoWarningAtStart() throws Exception {
    DataSource database = Tables.hsqldb();
    ByteArrayOutputStream logged = new ByteArrayOutputStream();
    PrintStream err = System.err;
    System.setErr(new PrintStream(logged, true, StandardCharsets.UTF_8));
    try (FormationClient client =
            FormationClient.builder()
                .baseUrl("http://127.0.0.1:9")
                .accessToken("test-token")
                .build();
        FormationTracker tracker =
            FormationTracker.builder(client, database, new TrackingHandler() {}).build()) {
      tracker.start();
    } finally {
      System.setErr(err);
    }

    assertThat(logged.toString(StandardCharsets.UTF_8))
        .doesNotContain("No database-specific jdbc-overrides");
    assertThat(FormationTracker.forShippedTable(database))
        .containsInstanceOf(DefaultJdbcCustomization.class);
  }

  @Test
  void aDatabaseDownWhenTheTrackerIsBuiltIsLeftToTheSchedulersOwnDetection() {
    FlakyDataSource down = new FlakyDataSource(Tables.hsqldb());
    down.down(true);

    assertThat(FormationTracker.forShippedTable(down)).isEmpty();
  }
}
