-- Promo codes (issue 32): generated on its branch as 0059, generated again here after 0059_payment_links (the same statements).
CREATE TABLE "promo_code" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"account_id" uuid NOT NULL,
	"code" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"kind" text NOT NULL,
	"percent_bp" integer DEFAULT 0 NOT NULL,
	"amount" integer DEFAULT 0 NOT NULL,
	"experience_ids" uuid[] DEFAULT '{}'::uuid[] NOT NULL,
	"category_ids" uuid[] DEFAULT '{}'::uuid[] NOT NULL,
	"valid_from" date,
	"valid_until" date,
	"departure_from" date,
	"departure_until" date,
	"min_order" integer DEFAULT 0 NOT NULL,
	"max_uses" integer,
	"max_uses_per_customer" integer,
	"store_id" uuid,
	"active" boolean DEFAULT true NOT NULL,
	"uses" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "promo_code_kind_check" CHECK (("promo_code"."kind" = 'percent' and "promo_code"."percent_bp" between 1 and 10000 and "promo_code"."amount" = 0) or ("promo_code"."kind" = 'amount' and "promo_code"."amount" > 0 and "promo_code"."percent_bp" = 0)),
	CONSTRAINT "promo_code_uses_check" CHECK ("promo_code"."uses" >= 0 and ("promo_code"."max_uses" is null or "promo_code"."uses" <= "promo_code"."max_uses")),
	CONSTRAINT "promo_code_limits_check" CHECK ("promo_code"."min_order" >= 0 and ("promo_code"."max_uses" is null or "promo_code"."max_uses" > 0) and ("promo_code"."max_uses_per_customer" is null or "promo_code"."max_uses_per_customer" > 0))
);
--> statement-breakpoint
ALTER TABLE "promo_code" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "booking" ADD COLUMN "discount" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "promo_code_id" uuid;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "promo_code" text;--> statement-breakpoint
ALTER TABLE "promo_code" ADD CONSTRAINT "promo_code_account_id_base_account_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."base_account"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "promo_code" ADD CONSTRAINT "promo_code_store_id_store_id_fk" FOREIGN KEY ("store_id") REFERENCES "public"."store"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "promo_code_code_key" ON "promo_code" USING btree ("account_id",lower("code"));--> statement-breakpoint
CREATE INDEX "promo_code_account_created_idx" ON "promo_code" USING btree ("account_id","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_promo_code_id_promo_code_id_fk" FOREIGN KEY ("promo_code_id") REFERENCES "public"."promo_code"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "orders_account_promo_idx" ON "orders" USING btree ("account_id","promo_code_id",lower("customer_email")) WHERE "orders"."promo_code_id" is not null;--> statement-breakpoint
ALTER TABLE "booking" ADD CONSTRAINT "booking_discount_check" CHECK ("booking"."discount" >= 0);--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "promo_code" AS PERMISSIVE FOR ALL TO public USING (account_id = app_current_account()) WITH CHECK (account_id = app_current_account());--> statement-breakpoint
CREATE POLICY "server_access" ON "promo_code" AS PERMISSIVE FOR ALL TO "tourdesk_server" USING (true) WITH CHECK (true);