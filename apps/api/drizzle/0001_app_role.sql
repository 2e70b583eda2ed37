-- The role that tenant-scoped queries run as (SET LOCAL ROLE in src/lib/tenancy.ts).
-- Row-level security applies to it; it never logs in by itself.
DO $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'tourdesk_app') THEN
    CREATE ROLE tourdesk_app NOLOGIN;
  END IF;
END
$$;
--> statement-breakpoint
GRANT tourdesk_app TO CURRENT_USER;
--> statement-breakpoint
GRANT USAGE ON SCHEMA public TO tourdesk_app;
--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO tourdesk_app;
--> statement-breakpoint
ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES TO tourdesk_app;
--> statement-breakpoint
ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT USAGE, SELECT ON SEQUENCES TO tourdesk_app;
--> statement-breakpoint
-- The organisation of the current transaction, or NULL (then no tenant row matches).
CREATE OR REPLACE FUNCTION app_current_account() RETURNS uuid
  LANGUAGE sql STABLE
  AS $$ SELECT nullif(current_setting('app.account_id', true), '')::uuid $$;
