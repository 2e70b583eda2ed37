-- Gift vouchers (issue 32): generated on its branch as 0062, generated again here after 0063_deposits (the same statements).
-- Gift vouchers (issue 32): vouchers and their balance ledger, the payment method voucher, voucher settings of a store and the validity of the organisation, a voucher purchase on online_checkout.
CREATE TABLE "gift_voucher" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"account_id" uuid NOT NULL,
	"code" text NOT NULL,
	"currency" text NOT NULL,
	"value" integer NOT NULL,
	"balance" integer NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"source" text NOT NULL,
	"store_id" uuid,
	"checkout_id" uuid,
	"issued_by" uuid,
	"buyer_name" text DEFAULT '' NOT NULL,
	"buyer_email" text DEFAULT '' NOT NULL,
	"recipient_name" text DEFAULT '' NOT NULL,
	"recipient_email" text DEFAULT '' NOT NULL,
	"message" text DEFAULT '' NOT NULL,
	"language" text DEFAULT 'en' NOT NULL,
	"deliver_on" date NOT NULL,
	"delivered_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "gift_voucher_status_check" CHECK ("gift_voucher"."status" in ('active', 'cancelled')),
	CONSTRAINT "gift_voucher_source_check" CHECK ("gift_voucher"."source" in ('store', 'staff')),
	CONSTRAINT "gift_voucher_balance_check" CHECK ("gift_voucher"."value" > 0 and "gift_voucher"."balance" >= 0 and "gift_voucher"."balance" <= "gift_voucher"."value")
);
--> statement-breakpoint
ALTER TABLE "gift_voucher" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "gift_voucher_entry" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"account_id" uuid NOT NULL,
	"voucher_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"amount" integer NOT NULL,
	"balance_after" integer NOT NULL,
	"order_id" uuid,
	"payment_id" uuid,
	"expires_at" timestamp with time zone,
	"reason" text DEFAULT '' NOT NULL,
	"actor_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "gift_voucher_entry_kind_check" CHECK ("gift_voucher_entry"."kind" in ('issue', 'redemption', 'refund', 'cancel', 'extend'))
);
--> statement-breakpoint
ALTER TABLE "gift_voucher_entry" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "order_payment" DROP CONSTRAINT "order_payment_method_check";--> statement-breakpoint
ALTER TABLE "base_account" ADD COLUMN "voucher_validity_months" integer DEFAULT 36 NOT NULL;--> statement-breakpoint
ALTER TABLE "store" ADD COLUMN "sells_vouchers" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "store" ADD COLUMN "voucher_amounts" integer[] DEFAULT '{5000,10000,20000}'::integer[] NOT NULL;--> statement-breakpoint
ALTER TABLE "store" ADD COLUMN "voucher_min" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "store" ADD COLUMN "voucher_max" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "online_checkout" ADD COLUMN "voucher" jsonb;--> statement-breakpoint
ALTER TABLE "gift_voucher" ADD CONSTRAINT "gift_voucher_account_id_base_account_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."base_account"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "gift_voucher" ADD CONSTRAINT "gift_voucher_store_id_store_id_fk" FOREIGN KEY ("store_id") REFERENCES "public"."store"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "gift_voucher" ADD CONSTRAINT "gift_voucher_checkout_id_online_checkout_id_fk" FOREIGN KEY ("checkout_id") REFERENCES "public"."online_checkout"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "gift_voucher_entry" ADD CONSTRAINT "gift_voucher_entry_account_id_base_account_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."base_account"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "gift_voucher_entry" ADD CONSTRAINT "gift_voucher_entry_voucher_id_gift_voucher_id_fk" FOREIGN KEY ("voucher_id") REFERENCES "public"."gift_voucher"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "gift_voucher_entry" ADD CONSTRAINT "gift_voucher_entry_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "gift_voucher_entry" ADD CONSTRAINT "gift_voucher_entry_payment_id_order_payment_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."order_payment"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "gift_voucher_code_key" ON "gift_voucher" USING btree ("account_id",lower("code"));--> statement-breakpoint
CREATE UNIQUE INDEX "gift_voucher_checkout_key" ON "gift_voucher" USING btree ("checkout_id");--> statement-breakpoint
CREATE INDEX "gift_voucher_account_created_idx" ON "gift_voucher" USING btree ("account_id","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "gift_voucher_entry_voucher_idx" ON "gift_voucher_entry" USING btree ("account_id","voucher_id","created_at");--> statement-breakpoint
CREATE INDEX "gift_voucher_entry_created_idx" ON "gift_voucher_entry" USING btree ("account_id","created_at");--> statement-breakpoint
ALTER TABLE "base_account" ADD CONSTRAINT "base_account_voucher_validity_check" CHECK ("base_account"."voucher_validity_months" between 1 and 120);--> statement-breakpoint
ALTER TABLE "order_payment" ADD CONSTRAINT "order_payment_method_check" CHECK ("order_payment"."method" in ('cash', 'card terminal', 'bank transfer', 'other', 'online', 'voucher'));--> statement-breakpoint
ALTER TABLE "store" ADD CONSTRAINT "store_voucher_range_check" CHECK ("store"."voucher_min" >= 0 and "store"."voucher_max" >= 0 and ("store"."voucher_max" = 0 or "store"."voucher_max" >= "store"."voucher_min"));--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "gift_voucher" AS PERMISSIVE FOR ALL TO public USING (account_id = app_current_account()) WITH CHECK (account_id = app_current_account());--> statement-breakpoint
CREATE POLICY "server_access" ON "gift_voucher" AS PERMISSIVE FOR ALL TO "tourdesk_server" USING (true) WITH CHECK (true);--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "gift_voucher_entry" AS PERMISSIVE FOR ALL TO public USING (account_id = app_current_account()) WITH CHECK (account_id = app_current_account());--> statement-breakpoint
CREATE POLICY "server_access" ON "gift_voucher_entry" AS PERMISSIVE FOR ALL TO "tourdesk_server" USING (true) WITH CHECK (true);