-- Who may do what, kept current at every migration run (a GRANT or REVOKE already in effect
-- changes nothing). Three roles:
--   the owner       (the migrating user): owns every object, runs migrations, writes the plans,
--                   keeps the signing keys;
--   tourdesk_server (the application's connections, migration 0028): reads and writes the rows
--                   requests need, in every organisation (policy server_access), nothing else;
--   tourdesk_app    (tenant work, SET LOCAL ROLE by inTenant): the same rows, of one organisation
--                   (policy tenant_isolation).
GRANT USAGE ON SCHEMA public TO tourdesk_server, tourdesk_app;
GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO tourdesk_server, tourdesk_app;
GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA public TO tourdesk_server, tourdesk_app;
-- The signing keys: read by the owner at start, never by the application's roles.
REVOKE ALL ON system_setting FROM tourdesk_server, tourdesk_app;
-- Plans and their features: the application reads them; only the owner (reference data) writes.
REVOKE INSERT, UPDATE, DELETE, TRUNCATE ON subscription_tier FROM tourdesk_server, tourdesk_app;
-- Which migrations are applied: read at start to refuse a database behind the code.
GRANT USAGE ON SCHEMA drizzle TO tourdesk_server;
GRANT SELECT ON drizzle.__drizzle_migrations, drizzle.tourdesk_definitions TO tourdesk_server;
-- The job queue (pg-boss, installed by the owner in the same run, src/lib/jobs.ts): the server's
-- workers read and write its rows; tenant work only adds jobs (an e-mail in its transaction).
GRANT USAGE ON SCHEMA pgboss TO tourdesk_server, tourdesk_app;
GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA pgboss TO tourdesk_server;
GRANT SELECT ON pgboss.queue TO tourdesk_app;
GRANT INSERT ON pgboss.job TO tourdesk_app;
GRANT SELECT (id) ON pgboss.job TO tourdesk_app;
-- Stripe's events are the server's (the webhook and its job), not any organisation's.
REVOKE ALL ON stripe_event FROM tourdesk_app;
