-- Waiting lists (issue 32): generated on its branch as 0059, generated again here after 0060_promo-codes (the same statements).
CREATE TABLE "waitlist_entry" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"account_id" uuid NOT NULL,
	"slot_id" uuid NOT NULL,
	"store_id" uuid NOT NULL,
	"email" text NOT NULL,
	"name" text NOT NULL,
	"seats" integer NOT NULL,
	"language" text DEFAULT 'en' NOT NULL,
	"status" text DEFAULT 'waiting' NOT NULL,
	"cart_id" uuid,
	"offered_at" timestamp with time zone,
	"offered_until" timestamp with time zone,
	"order_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "waitlist_entry_seats_check" CHECK ("waitlist_entry"."seats" between 1 and 100),
	CONSTRAINT "waitlist_entry_status_check" CHECK ("waitlist_entry"."status" in ('waiting', 'offered', 'booked', 'expired', 'removed'))
);
--> statement-breakpoint
ALTER TABLE "waitlist_entry" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "store" ADD COLUMN "waitlist_hold_minutes" integer DEFAULT 720 NOT NULL;--> statement-breakpoint
ALTER TABLE "waitlist_entry" ADD CONSTRAINT "waitlist_entry_account_id_base_account_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."base_account"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "waitlist_entry" ADD CONSTRAINT "waitlist_entry_slot_id_slot_id_fk" FOREIGN KEY ("slot_id") REFERENCES "public"."slot"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "waitlist_entry" ADD CONSTRAINT "waitlist_entry_store_id_store_id_fk" FOREIGN KEY ("store_id") REFERENCES "public"."store"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "waitlist_entry" ADD CONSTRAINT "waitlist_entry_cart_id_cart_id_fk" FOREIGN KEY ("cart_id") REFERENCES "public"."cart"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "waitlist_entry" ADD CONSTRAINT "waitlist_entry_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "waitlist_entry_slot_idx" ON "waitlist_entry" USING btree ("account_id","slot_id","created_at","id");--> statement-breakpoint
CREATE INDEX "waitlist_entry_cart_idx" ON "waitlist_entry" USING btree ("account_id","cart_id") WHERE "waitlist_entry"."cart_id" is not null;--> statement-breakpoint
CREATE INDEX "waitlist_entry_open_idx" ON "waitlist_entry" USING btree ("status","slot_id") WHERE "waitlist_entry"."status" in ('waiting', 'offered');--> statement-breakpoint
CREATE UNIQUE INDEX "waitlist_entry_email_key" ON "waitlist_entry" USING btree ("account_id","slot_id",lower("email")) WHERE "waitlist_entry"."status" in ('waiting', 'offered');--> statement-breakpoint
ALTER TABLE "store" ADD CONSTRAINT "store_waitlist_hold_check" CHECK ("store"."waitlist_hold_minutes" between 15 and 10080);--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "waitlist_entry" AS PERMISSIVE FOR ALL TO public USING (account_id = app_current_account()) WITH CHECK (account_id = app_current_account());--> statement-breakpoint
CREATE POLICY "server_access" ON "waitlist_entry" AS PERMISSIVE FOR ALL TO "tourdesk_server" USING (true) WITH CHECK (true);