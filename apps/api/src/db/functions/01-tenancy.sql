-- Current definition, applied at every start after the versioned migrations (see
-- src/db/functions.ts): edit it here; a change of a function's arguments or result type needs a
-- versioned migration that drops the old one first.

-- The organisation of the current transaction, or NULL (then no tenant row matches).
CREATE OR REPLACE FUNCTION app_current_account() RETURNS uuid
  LANGUAGE sql STABLE
  AS $$ SELECT nullif(current_setting('app.account_id', true), '')::uuid $$;

-- Today's date in an organisation's time zone: the day a rate's `valid_to` is compared with, so a
-- rate ends at midnight where the organisation sells, not where the database server runs
-- (current_date). An organisation's zone is no secret, and its row may be hidden from the caller's
-- tenant (a reseller reading its supplier's rates), so it runs as its owner.
CREATE OR REPLACE FUNCTION tourdesk_today(p_account uuid) RETURNS date
  LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public AS $$
  SELECT (now() AT TIME ZONE coalesce((SELECT a.time_zone FROM base_account a WHERE a.id = p_account), 'UTC'))::date
$$;
REVOKE ALL ON FUNCTION tourdesk_today(uuid) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION tourdesk_today(uuid) TO tourdesk_server, tourdesk_app;

-- Starts a tenant scope inside one statement (for the hot paths called outside a transaction):
-- the organisation, the tourdesk_app role (row-level security) and a lock timeout, until the
-- statement's own transaction ends.
CREATE OR REPLACE FUNCTION tourdesk_enter(p_account uuid) RETURNS void
  LANGUAGE plpgsql AS $$
BEGIN
  PERFORM set_config('app.account_id', p_account::text, true), set_config('role', 'tourdesk_app', true), set_config('lock_timeout', '5s', true);
END $$;
