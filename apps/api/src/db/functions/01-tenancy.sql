-- Current definition, applied at every start after the versioned migrations (see
-- src/db/functions.ts): edit it here; a change of a function's arguments or result type needs a
-- versioned migration that drops the old one first.

-- The organisation of the current transaction, or NULL (then no tenant row matches).
CREATE OR REPLACE FUNCTION app_current_account() RETURNS uuid
  LANGUAGE sql STABLE
  AS $$ SELECT nullif(current_setting('app.account_id', true), '')::uuid $$;

-- Starts a tenant scope inside one statement (for the hot paths called outside a transaction):
-- the organisation, the tourdesk_app role (row-level security) and a lock timeout, until the
-- statement's own transaction ends.
CREATE OR REPLACE FUNCTION tourdesk_enter(p_account uuid) RETURNS void
  LANGUAGE plpgsql AS $$
BEGIN
  PERFORM set_config('app.account_id', p_account::text, true), set_config('role', 'tourdesk_app', true), set_config('lock_timeout', '5s', true);
END $$;
