-- Each set's link to the service's app, kept from its create, so that the person's list is read
-- from this table alone.
ALTER TABLE person_formations ADD COLUMN app_link varchar(2000);
