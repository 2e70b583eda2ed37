-- The hold functions lose their test-only p_lock argument (tests install their own copy without
-- the lock instead); the new definitions are in src/db/functions/04-carts.sql.
DROP FUNCTION IF EXISTS tourdesk_hold_many(uuid, uuid, jsonb, boolean);
--> statement-breakpoint
DROP FUNCTION IF EXISTS tourdesk_hold(uuid, uuid, uuid, jsonb, jsonb, boolean);
