-- The role the application's connections run as (least privilege): it reads and writes what
-- requests need and nothing else. Its grants are kept current in src/db/functions/05-privileges.sql
-- (applied after every migration run): no access to the signing keys, read-only plans. It may
-- become tourdesk_app (tenant work under row-level security). The migrating user may become it,
-- so DATABASE_URL may be the owner's URL; in production give the application its own login role:
--   CREATE ROLE tourdesk_web LOGIN PASSWORD '…' IN ROLE tourdesk_server;
DO $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'tourdesk_server') THEN
    CREATE ROLE tourdesk_server NOLOGIN;
  END IF;
END
$$;
--> statement-breakpoint
GRANT tourdesk_app TO tourdesk_server;
--> statement-breakpoint
GRANT tourdesk_server TO CURRENT_USER;
