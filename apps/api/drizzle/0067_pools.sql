CREATE TABLE "pool_usage" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"account_id" uuid NOT NULL,
	"experience_id" uuid NOT NULL,
	"pool_id" uuid NOT NULL,
	"per" text NOT NULL,
	"pricing_category_id" uuid,
	"extra_id" uuid,
	"units" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "pool_usage_per_check" CHECK (("pool_usage"."per" = 'seat' and "pool_usage"."pricing_category_id" is not null and "pool_usage"."extra_id" is null) or ("pool_usage"."per" = 'booking' and "pool_usage"."pricing_category_id" is null and "pool_usage"."extra_id" is null) or ("pool_usage"."per" = 'extra' and "pool_usage"."extra_id" is not null and "pool_usage"."pricing_category_id" is null)),
	CONSTRAINT "pool_usage_units_check" CHECK ("pool_usage"."units" > 0)
);
--> statement-breakpoint
ALTER TABLE "pool_usage" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "inventory_item" ADD COLUMN "buffer_before_minutes" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "inventory_item" ADD COLUMN "buffer_after_minutes" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "booking" ADD COLUMN "pools" jsonb;--> statement-breakpoint
ALTER TABLE "cart_line" ADD COLUMN "pools" jsonb;--> statement-breakpoint
ALTER TABLE "pool_usage" ADD CONSTRAINT "pool_usage_account_id_base_account_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."base_account"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pool_usage" ADD CONSTRAINT "pool_usage_experience_id_experience_id_fk" FOREIGN KEY ("experience_id") REFERENCES "public"."experience"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pool_usage" ADD CONSTRAINT "pool_usage_pool_id_inventory_item_id_fk" FOREIGN KEY ("pool_id") REFERENCES "public"."inventory_item"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pool_usage" ADD CONSTRAINT "pool_usage_pricing_category_id_pricing_category_id_fk" FOREIGN KEY ("pricing_category_id") REFERENCES "public"."pricing_category"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pool_usage" ADD CONSTRAINT "pool_usage_extra_id_inventory_item_id_fk" FOREIGN KEY ("extra_id") REFERENCES "public"."inventory_item"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "pool_usage_experience_idx" ON "pool_usage" USING btree ("account_id","experience_id","pool_id");--> statement-breakpoint
CREATE INDEX "pool_usage_pool_idx" ON "pool_usage" USING btree ("account_id","pool_id");--> statement-breakpoint
ALTER TABLE "inventory_item" ADD CONSTRAINT "inventory_item_buffers_check" CHECK ("inventory_item"."buffer_before_minutes" between 0 and 1440 and "inventory_item"."buffer_after_minutes" between 0 and 1440);--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "pool_usage" AS PERMISSIVE FOR ALL TO public USING (account_id = app_current_account()) WITH CHECK (account_id = app_current_account());--> statement-breakpoint
CREATE POLICY "server_access" ON "pool_usage" AS PERMISSIVE FOR ALL TO "tourdesk_server" USING (true) WITH CHECK (true);--> statement-breakpoint
-- Issue 34, by hand (drizzle-kit declares neither expression GiST indexes nor triggers). A pool's
-- checks find the departures whose window meets a stretch of time by this index (btree_gist,
-- migration 0066, gives uuid its = beside the range's &&).
CREATE INDEX "slot_window_idx" ON "slot" USING gist ("account_id", "experience_id", tstzrange("starts_at", "ends_at"));--> statement-breakpoint
-- The triggers' functions, as placeholders until functions/02-pools.sql (applied after the
-- migrations in the same run) gives them their bodies.
CREATE OR REPLACE FUNCTION tourdesk_pool_row_check() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RETURN NULL; END $$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION tourdesk_booking_pools() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RETURN NEW; END $$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION tourdesk_pool_change() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RETURN NEW; END $$;--> statement-breakpoint
-- What a line takes is worked out by tourdesk_hold_until_cutoff (04-carts.sql) with its expiry:
-- its trigger now fires on a change of what the line sells too.
DROP TRIGGER IF EXISTS cart_line_until_cutoff ON cart_line;--> statement-breakpoint
CREATE TRIGGER cart_line_until_cutoff BEFORE INSERT OR UPDATE OF expires_at, slot_id, quantities, extras ON cart_line
  FOR EACH ROW EXECUTE FUNCTION tourdesk_hold_until_cutoff();--> statement-breakpoint
CREATE TRIGGER booking_pools BEFORE INSERT OR UPDATE OF quantities, extras, slot_id ON booking
  FOR EACH ROW EXECUTE FUNCTION tourdesk_booking_pools();--> statement-breakpoint
-- No pool is ever used past its stock, whoever writes: checked at commit, with the pool locked.
CREATE CONSTRAINT TRIGGER cart_line_pool_use_check AFTER INSERT OR UPDATE OF pools, expires_at, slot_id, quantities, extras ON cart_line
  DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW WHEN (NEW.pools IS NOT NULL) EXECUTE FUNCTION tourdesk_pool_row_check();--> statement-breakpoint
CREATE CONSTRAINT TRIGGER booking_pool_use_check AFTER INSERT OR UPDATE OF pools, status, slot_id, quantities, extras ON booking
  DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW WHEN (NEW.pools IS NOT NULL AND NEW.status <> 'Canceled') EXECUTE FUNCTION tourdesk_pool_row_check();--> statement-breakpoint
CREATE TRIGGER inventory_item_pool_change BEFORE UPDATE OF stock, buffer_before_minutes, buffer_after_minutes ON inventory_item
  FOR EACH ROW EXECUTE FUNCTION tourdesk_pool_change();
