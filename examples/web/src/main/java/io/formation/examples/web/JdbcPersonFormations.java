package io.formation.examples.web;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Optional;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

/**
 * A person's formations in the {@code person_formations} table (created by Flyway from {@code
 * db/formation-web/V2__person_formations.sql}), in whichever database {@code spring.datasource.url}
 * names: an HSQLDB file by default, PostgreSQL for several instances. Every instance reads and
 * writes the same rows, so a person sees the same formations whichever instance answers.
 */
@Component
final class JdbcPersonFormations implements PersonFormations {
  private static final String COLUMNS = "id, start_key, started_at, last_state, app_link";

  private final JdbcClient jdbc;

  JdbcPersonFormations(JdbcClient jdbc) {
    this.jdbc = jdbc;
  }

  @Override
  public List<Started> of(Person person) {
    return jdbc.sql(
            "SELECT "
                + COLUMNS
                + " FROM person_formations WHERE person_id = ? ORDER BY started_at DESC, id DESC")
        .param(person.id())
        .query(JdbcPersonFormations::started)
        .list();
  }

  @Override
  public Optional<Started> startedWith(Person person, String startKey) {
    return jdbc.sql(
            "SELECT " + COLUMNS + " FROM person_formations WHERE person_id = ? AND start_key = ?")
        .param(person.id())
        .param(startKey)
        .query(JdbcPersonFormations::started)
        .optional();
  }

  @Override
  public List<Instant> startsSince(Person person, Instant since) {
    return jdbc.sql(
            "SELECT started_at FROM person_formations WHERE person_id = ? AND started_at > ?"
                + " ORDER BY started_at")
        .param(person.id())
        .param(OffsetDateTime.ofInstant(since, ZoneOffset.UTC))
        .query((row, n) -> row.getObject("started_at", OffsetDateTime.class).toInstant())
        .list();
  }

  @Override
  public boolean owns(Person person, String id) {
    return jdbc.sql("SELECT COUNT(*) FROM person_formations WHERE id = ? AND person_id = ?")
            .param(id)
            .param(person.id())
            .query(Integer.class)
            .single()
        > 0;
  }

  @Override
  public void remember(Person person, Started started) {
    try {
      jdbc.sql(
              "INSERT INTO person_formations (person_id, "
                  + COLUMNS
                  + ") VALUES (?, ?, ?, ?, ?, ?)")
          .param(person.id())
          .param(started.id())
          .param(started.startKey())
          .param(OffsetDateTime.ofInstant(started.startedAt(), ZoneOffset.UTC))
          .param(started.lastState())
          .param(started.appLink())
          .update();
    } catch (DuplicateKeyException e) {
      // The same start sent twice at once, to one instance or two: the service's idempotency key
      // gave both the same set, and the first insert keeps it.
    }
  }

  @Override
  public void seen(String id, String state) {
    // Idempotent by set id and state: a repeat of a delivery, or the same state heard from the
    // page's stream and from tracking, changes nothing.
    jdbc.sql(
            "UPDATE person_formations SET last_state = ? WHERE id = ?"
                + " AND (last_state IS NULL OR last_state <> ?)")
        .param(state)
        .param(id)
        .param(state)
        .update();
  }

  private static Started started(ResultSet row, int rowNumber) throws SQLException {
    Instant startedAt = row.getObject("started_at", OffsetDateTime.class).toInstant();
    return new Started(
        row.getString("id"),
        row.getString("start_key"),
        startedAt,
        row.getString("last_state"),
        row.getString("app_link"));
  }
}
