-- The people this backend issued an id to: a cookie naming any other id is not adopted. Version 3,
-- after formation-tracking's table (1) and person_formations (2).
CREATE TABLE people (
  id varchar(22) NOT NULL PRIMARY KEY,
  issued_at timestamp with time zone NOT NULL
);
