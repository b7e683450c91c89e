-- The tables of formation-tracking's DatabaseLimit on PostgreSQL: the rate limit that the instances
-- calling the service with one token share. One row per origin holds the fleet's last cut (format:
-- the row's layout, 1 here); one row per instance and origin its last exchange and the answers a
-- second it got lately.
--
-- Run it once per database, as the tracking table's file: by hand, or as a migration of its own
-- (Flyway: classpath:io/formation/tracking/limit/postgresql, with a history table of its own). For
-- another name, copy it and give the name to DatabaseLimit.on(dataSource, tableName): the second
-- table is tableName_instance.
CREATE TABLE formation_limit (
  origin text NOT NULL,
  format int NOT NULL,
  cut_at timestamp with time zone,
  PRIMARY KEY (origin)
);

CREATE TABLE formation_limit_instance (
  origin text NOT NULL,
  instance text NOT NULL,
  seen_at timestamp with time zone NOT NULL,
  answered double precision NOT NULL,
  PRIMARY KEY (origin, instance)
);
