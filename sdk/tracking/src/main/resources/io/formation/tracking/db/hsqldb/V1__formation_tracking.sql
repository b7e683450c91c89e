-- The table of formation-tracking (io.formation:formation-tracking) on HSQLDB, the embedded
-- database its tests run on (and db-scheduler's own): db-scheduler's table layout (version 16), one
-- row per tracked document set. task_data holds the set's saved wait as UTF-8 bytes.
--
-- Run it once per database, by hand or as a migration: Flyway picks it up as version 1 from
-- classpath:io/formation/tracking/db/hsqldb; Liquibase runs it with
-- <sqlFile path="io/formation/tracking/db/hsqldb/V1__formation_tracking.sql"/>.
CREATE TABLE formation_tracking (
  task_name varchar(100) NOT NULL,
  task_instance varchar(255) NOT NULL,
  task_data blob,
  execution_time timestamp with time zone NOT NULL,
  picked boolean NOT NULL,
  picked_by varchar(100),
  last_success timestamp with time zone,
  last_failure timestamp with time zone,
  consecutive_failures int,
  last_heartbeat timestamp with time zone,
  version bigint NOT NULL,
  priority smallint,
  PRIMARY KEY (task_name, task_instance)
);

CREATE INDEX formation_tracking_execution_time_idx ON formation_tracking (execution_time);
CREATE INDEX formation_tracking_last_heartbeat_idx ON formation_tracking (last_heartbeat);
