-- Deposits (issue 32): generated on its branch as 0062, generated again here after 0062_waitlist_quantities (the same statements). An offer or a store asks for a deposit online (deposit), the order keeps its balance due date and whether its reminder went out, the online checkout remembers the promo code and the order total it books.
ALTER TABLE "experience" ADD COLUMN "deposit" jsonb;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "balance_due_on" date;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "balance_reminder_sent_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "store" ADD COLUMN "deposit" jsonb;--> statement-breakpoint
ALTER TABLE "store" ADD COLUMN "balance_reminder_days" integer DEFAULT 3 NOT NULL;--> statement-breakpoint
ALTER TABLE "online_checkout" ADD COLUMN "order_total" integer;--> statement-breakpoint
ALTER TABLE "online_checkout" ADD COLUMN "promo_code" text;--> statement-breakpoint
ALTER TABLE "online_checkout" ADD COLUMN "balance_due_on" date;--> statement-breakpoint
CREATE INDEX "orders_balance_due_idx" ON "orders" USING btree ("account_id","balance_due_on") WHERE "orders"."balance_due_on" is not null;--> statement-breakpoint
ALTER TABLE "store" ADD CONSTRAINT "store_balance_reminder_check" CHECK ("store"."balance_reminder_days" between 1 and 60);