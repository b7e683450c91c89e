-- The table of formation-tracking (io.formation:formation-tracking) on PostgreSQL: db-scheduler's
-- own table layout (version 16), one row per tracked document set. task_data holds the set's saved
-- wait as UTF-8 text (WaitState.encode(), under 200 bytes).
--
-- Run it once per database, by hand or as a migration: Flyway picks it up as version 1 from
-- classpath:io/formation/tracking/db/postgresql; Liquibase runs it with
-- <sqlFile path="io/formation/tracking/db/postgresql/V1__formation_tracking.sql"/>. For another
-- table name, copy it and give the name to FormationTracker.Builder.tableName.
CREATE TABLE formation_tracking (
  task_name text NOT NULL,
  task_instance text NOT NULL,
  task_data bytea,
  execution_time timestamp with time zone NOT NULL,
  picked boolean NOT NULL,
  picked_by text,
  last_success timestamp with time zone,
  last_failure timestamp with time zone,
  consecutive_failures int,
  last_heartbeat timestamp with time zone,
  version bigint NOT NULL,
  priority smallint,
  PRIMARY KEY (task_name, task_instance)
);

-- Finding the sets that fell due, and the picked ones whose instance stopped beating.
CREATE INDEX formation_tracking_execution_time_idx ON formation_tracking (execution_time);
CREATE INDEX formation_tracking_last_heartbeat_idx ON formation_tracking (last_heartbeat);
CREATE INDEX formation_tracking_priority_execution_time_idx
  ON formation_tracking (priority DESC, execution_time ASC);
