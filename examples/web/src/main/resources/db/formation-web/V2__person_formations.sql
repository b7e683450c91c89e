-- The web example's own table: which document sets each person started, with the start that made
-- each one and the last state the backend saw (from the page's stream or from tracking). Version 2:
-- version 1 is formation-tracking's table (io/formation/tracking/db/{vendor}), migrated by the same
-- Flyway run. Plain SQL that PostgreSQL and HSQLDB both read.
CREATE TABLE person_formations (
  id varchar(100) NOT NULL PRIMARY KEY,
  person_id varchar(22) NOT NULL,
  start_key varchar(64),
  started_at timestamp with time zone NOT NULL,
  last_state varchar(100)
);

-- One set per deliberate start: a start key names at most one set of a person.
CREATE UNIQUE INDEX person_formations_start_key_idx ON person_formations (person_id, start_key);
CREATE INDEX person_formations_person_idx ON person_formations (person_id, started_at);
