-- The partner application's own first migration: its version 1, beside the tracker's.
CREATE TABLE partner_accounts (
  id BIGINT PRIMARY KEY,
  formation_set_id VARCHAR(100)
);
