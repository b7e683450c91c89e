package com.example.partner;

import static org.assertj.core.api.Assertions.assertThat;

import io.formation.sdk.DocumentSets;
import io.formation.spring.test.AutoConfigureFormationSandbox;
import io.formation.tracking.FormationTracker;
import io.formation.tracking.TrackingHandler;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * An application with Flyway and a V1__ of its own tracks sets: the starter creates the tracker's
 * table beside its migrations, with a history table of its own.
 */
@SpringBootTest(properties = "spring.flyway.locations=classpath:partner/db/migration")
@AutoConfigureFormationSandbox
@Import(TrackingTableTest.Handler.class)
class TrackingTableTest {
  @TestConfiguration(proxyBeanMethods = false)
  static class Handler {
    @Bean
    TrackingHandler trackingHandler() {
      return new TrackingHandler() {};
    }
  }

  @Autowired DocumentSets documentSets;
  @Autowired FormationTracker tracker;
  @Autowired JdbcTemplate jdbc;

  @Test
  void anApplicationWithItsOwnVersionOneStartsAndTracksOnTheStartersTable() {
    String id = documentSets.create(DocumentSets.DELAWARE_CORPORATION).id();

    assertThat(tracker.track(id)).isTrue();
    assertThat(jdbc.queryForObject("SELECT COUNT(*) FROM partner_accounts", Integer.class))
        .isZero();
    assertThat(jdbc.queryForObject("SELECT COUNT(*) FROM formation_tracking", Integer.class))
        .isEqualTo(1);
    assertThat(
            jdbc.queryForList(
                "SELECT \"version\" FROM \"flyway_schema_history\" ORDER BY \"installed_rank\"",
                String.class))
        .containsExactly("1");
    assertThat(
            jdbc.queryForList(
                "SELECT \"version\" FROM \"formation_tracking_schema_history\""
                    + " ORDER BY \"installed_rank\"",
                String.class))
        .containsExactly("0", "1");
  }
}
