CREATE TABLE "guide" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"account_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "guide" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "guide_assignment" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"account_id" uuid NOT NULL,
	"slot_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"starts_at" timestamp with time zone NOT NULL,
	"ends_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "guide_assignment_window_check" CHECK ("guide_assignment"."ends_at" > "guide_assignment"."starts_at")
);
--> statement-breakpoint
ALTER TABLE "guide_assignment" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "guide_day_off" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"account_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"starts_on" date NOT NULL,
	"ends_on" date NOT NULL,
	"note" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "guide_day_off_dates_check" CHECK ("guide_day_off"."ends_on" >= "guide_day_off"."starts_on")
);
--> statement-breakpoint
ALTER TABLE "guide_day_off" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "slot" DROP CONSTRAINT "slot_seats_check";--> statement-breakpoint
ALTER TABLE "experience" ADD COLUMN "guests_per_guide" integer;--> statement-breakpoint
ALTER TABLE "slot" ADD COLUMN "guide_seats" integer;--> statement-breakpoint
ALTER TABLE "guide" ADD CONSTRAINT "guide_account_id_base_account_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."base_account"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "guide" ADD CONSTRAINT "guide_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "guide_assignment" ADD CONSTRAINT "guide_assignment_account_id_base_account_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."base_account"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "guide_assignment" ADD CONSTRAINT "guide_assignment_slot_id_slot_id_fk" FOREIGN KEY ("slot_id") REFERENCES "public"."slot"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "guide_assignment" ADD CONSTRAINT "guide_assignment_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "guide_day_off" ADD CONSTRAINT "guide_day_off_account_id_base_account_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."base_account"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "guide_day_off" ADD CONSTRAINT "guide_day_off_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "guide_user_key" ON "guide" USING btree ("account_id","user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "guide_assignment_slot_user_key" ON "guide_assignment" USING btree ("account_id","slot_id","user_id");--> statement-breakpoint
CREATE INDEX "guide_assignment_user_idx" ON "guide_assignment" USING btree ("account_id","user_id","starts_at");--> statement-breakpoint
CREATE INDEX "guide_day_off_user_idx" ON "guide_day_off" USING btree ("account_id","user_id","starts_on");--> statement-breakpoint
ALTER TABLE "experience" ADD CONSTRAINT "experience_guests_per_guide_check" CHECK ("experience"."guests_per_guide" is null or "experience"."guests_per_guide" > 0);--> statement-breakpoint
ALTER TABLE "slot" ADD CONSTRAINT "slot_seats_check" CHECK ("slot"."booked" + "slot"."held" <= "slot"."capacity" and ("slot"."guide_seats" is null or "slot"."booked" + "slot"."held" <= "slot"."guide_seats"));--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "guide" AS PERMISSIVE FOR ALL TO public USING (account_id = app_current_account()) WITH CHECK (account_id = app_current_account());--> statement-breakpoint
CREATE POLICY "server_access" ON "guide" AS PERMISSIVE FOR ALL TO "tourdesk_server" USING (true) WITH CHECK (true);--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "guide_assignment" AS PERMISSIVE FOR ALL TO public USING (account_id = app_current_account()) WITH CHECK (account_id = app_current_account());--> statement-breakpoint
CREATE POLICY "server_access" ON "guide_assignment" AS PERMISSIVE FOR ALL TO "tourdesk_server" USING (true) WITH CHECK (true);--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "guide_day_off" AS PERMISSIVE FOR ALL TO public USING (account_id = app_current_account()) WITH CHECK (account_id = app_current_account());--> statement-breakpoint
CREATE POLICY "server_access" ON "guide_day_off" AS PERMISSIVE FOR ALL TO "tourdesk_server" USING (true) WITH CHECK (true);--> statement-breakpoint
-- Issue 34, by hand (drizzle-kit declares neither exclusion constraints nor triggers). A guide is
-- never assigned to two overlapping departures, whoever writes: btree_gist gives uuid its = in a
-- GiST index beside the range's &&.
CREATE EXTENSION IF NOT EXISTS btree_gist;--> statement-breakpoint
ALTER TABLE "guide_assignment" ADD CONSTRAINT "guide_assignment_no_overlap"
  EXCLUDE USING gist ("account_id" WITH =, "user_id" WITH =, tstzrange("starts_at", "ends_at") WITH &&);--> statement-breakpoint
-- Seats remaining takes the guides' seats (02-slots.sql): the old signature goes, with the view
-- that calls it; src/db/functions/*.sql make both again right after the migrations.
DROP VIEW IF EXISTS slot_api;--> statement-breakpoint
DROP FUNCTION IF EXISTS tourdesk_seats_left(int, int, int, int);--> statement-breakpoint
-- The triggers' functions, as placeholders until functions/07-guides.sql (applied after the
-- migrations in the same run) gives them their bodies.
CREATE OR REPLACE FUNCTION tourdesk_guide_assignment_seats() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RETURN NULL; END $$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION tourdesk_slot_guide_seats() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RETURN NEW; END $$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION tourdesk_experience_guide_seats() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RETURN NULL; END $$;--> statement-breakpoint
CREATE TRIGGER guide_assignment_seats AFTER INSERT OR DELETE ON guide_assignment
  FOR EACH ROW EXECUTE FUNCTION tourdesk_guide_assignment_seats();--> statement-breakpoint
CREATE TRIGGER slot_guide_seats BEFORE INSERT ON slot
  FOR EACH ROW EXECUTE FUNCTION tourdesk_slot_guide_seats();--> statement-breakpoint
CREATE TRIGGER experience_guide_seats AFTER UPDATE OF guests_per_guide ON experience
  FOR EACH ROW EXECUTE FUNCTION tourdesk_experience_guide_seats();
