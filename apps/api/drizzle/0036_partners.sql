CREATE TABLE "api_key" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"account_id" uuid NOT NULL,
	"partnership_id" uuid NOT NULL,
	"name" text NOT NULL,
	"prefix" text NOT NULL,
	"secret_hash" text NOT NULL,
	"created_by" uuid,
	"last_used_at" timestamp with time zone,
	"revoked_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "api_key" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "octo_booking" (
	"uuid" uuid PRIMARY KEY NOT NULL,
	"account_id" uuid NOT NULL,
	"partnership_id" uuid NOT NULL,
	"api_key_id" uuid,
	"status" text DEFAULT 'ON_HOLD' NOT NULL,
	"experience_id" uuid NOT NULL,
	"slot_id" uuid NOT NULL,
	"cart_id" uuid,
	"cart_line_id" uuid,
	"order_id" uuid,
	"booking_id" uuid,
	"reseller_reference" text,
	"unit_items" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"contact" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"notes" text,
	"expires_at" timestamp with time zone,
	"cancellation_reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "octo_booking_status_check" CHECK ("octo_booking"."status" in ('ON_HOLD', 'CONFIRMED', 'CANCELLED', 'EXPIRED'))
);
--> statement-breakpoint
ALTER TABLE "octo_booking" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "partnership" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"supplier_account_id" uuid,
	"reseller_account_id" uuid,
	"invited_by_account_id" uuid NOT NULL,
	"invited_by_user_id" uuid,
	"invite_email" text,
	"invite_token_hash" text,
	"status" text DEFAULT 'Invited' NOT NULL,
	"pricing" text DEFAULT 'commission' NOT NULL,
	"commission_bp" integer DEFAULT 0 NOT NULL,
	"payment_collector" text DEFAULT 'reseller' NOT NULL,
	"valid_from" date,
	"valid_to" date,
	"currency" text NOT NULL,
	"notes" text DEFAULT '' NOT NULL,
	"responded_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "partnership_status_check" CHECK ("partnership"."status" in ('Invited', 'Active', 'Declined', 'Suspended', 'Ended')),
	CONSTRAINT "partnership_pricing_check" CHECK ("partnership"."pricing" in ('commission', 'net')),
	CONSTRAINT "partnership_collector_check" CHECK ("partnership"."payment_collector" in ('reseller', 'supplier')),
	CONSTRAINT "partnership_commission_check" CHECK ("partnership"."commission_bp" between 0 and 10000),
	CONSTRAINT "partnership_sides_check" CHECK ("partnership"."supplier_account_id" is distinct from "partnership"."reseller_account_id"),
	CONSTRAINT "partnership_known_check" CHECK ("partnership"."supplier_account_id" is not null or "partnership"."reseller_account_id" is not null),
	CONSTRAINT "partnership_accepted_check" CHECK ("partnership"."status" in ('Invited', 'Declined') or ("partnership"."supplier_account_id" is not null and "partnership"."reseller_account_id" is not null)),
	CONSTRAINT "partnership_dates_check" CHECK ("partnership"."valid_to" is null or "partnership"."valid_from" is null or "partnership"."valid_to" >= "partnership"."valid_from"),
	CONSTRAINT "partnership_currency_check" CHECK ("partnership"."currency" ~ '^[A-Z]{3}$')
);
--> statement-breakpoint
ALTER TABLE "partnership" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "partnership_experience" (
	"partnership_id" uuid NOT NULL,
	"account_id" uuid NOT NULL,
	"experience_id" uuid NOT NULL,
	"net_rates" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "partnership_experience_partnership_id_experience_id_pk" PRIMARY KEY("partnership_id","experience_id")
);
--> statement-breakpoint
ALTER TABLE "partnership_experience" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "qr_code" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"account_id" uuid NOT NULL,
	"code" text NOT NULL,
	"name" text NOT NULL,
	"campaign" text DEFAULT '' NOT NULL,
	"ownership" text DEFAULT 'Internal' NOT NULL,
	"target" text NOT NULL,
	"store_id" uuid,
	"experience_id" uuid,
	"partnership_id" uuid,
	"scans" integer DEFAULT 0 NOT NULL,
	"last_scanned_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "qr_code_ownership_check" CHECK ("qr_code"."ownership" in ('Internal', 'External')),
	CONSTRAINT "qr_code_target_check" CHECK ("qr_code"."target" in ('store', 'experience', 'partner_store'))
);
--> statement-breakpoint
ALTER TABLE "qr_code" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "qr_scan_day" (
	"account_id" uuid NOT NULL,
	"qr_code_id" uuid NOT NULL,
	"day" date NOT NULL,
	"scans" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "qr_scan_day_qr_code_id_day_pk" PRIMARY KEY("qr_code_id","day")
);
--> statement-breakpoint
ALTER TABLE "qr_scan_day" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "settlement" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"partnership_id" uuid NOT NULL,
	"supplier_account_id" uuid NOT NULL,
	"reseller_account_id" uuid NOT NULL,
	"number" text NOT NULL,
	"period_from" date NOT NULL,
	"period_to" date NOT NULL,
	"currency" text NOT NULL,
	"bookings" integer DEFAULT 0 NOT NULL,
	"gross" integer DEFAULT 0 NOT NULL,
	"commission" integer DEFAULT 0 NOT NULL,
	"supplier_net" integer DEFAULT 0 NOT NULL,
	"reseller_owes" integer DEFAULT 0 NOT NULL,
	"status" text DEFAULT 'Open' NOT NULL,
	"settled_at" timestamp with time zone,
	"settled_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "settlement_status_check" CHECK ("settlement"."status" in ('Open', 'Settled')),
	CONSTRAINT "settlement_period_check" CHECK ("settlement"."period_to" >= "settlement"."period_from")
);
--> statement-breakpoint
ALTER TABLE "settlement" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "booking" ADD COLUMN "partnership_id" uuid;--> statement-breakpoint
ALTER TABLE "booking" ADD COLUMN "reseller_account_id" uuid;--> statement-breakpoint
ALTER TABLE "booking" ADD COLUMN "commission" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "booking" ADD COLUMN "settlement_id" uuid;--> statement-breakpoint
ALTER TABLE "cart" ADD COLUMN "qr_code_id" uuid;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "qr_code_id" uuid;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "partnership_id" uuid;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "reseller_account_id" uuid;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "reseller_reference" text;--> statement-breakpoint
ALTER TABLE "api_key" ADD CONSTRAINT "api_key_account_id_base_account_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."base_account"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "api_key" ADD CONSTRAINT "api_key_partnership_id_partnership_id_fk" FOREIGN KEY ("partnership_id") REFERENCES "public"."partnership"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "api_key" ADD CONSTRAINT "api_key_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "octo_booking" ADD CONSTRAINT "octo_booking_account_id_base_account_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."base_account"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "octo_booking" ADD CONSTRAINT "octo_booking_partnership_id_partnership_id_fk" FOREIGN KEY ("partnership_id") REFERENCES "public"."partnership"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "octo_booking" ADD CONSTRAINT "octo_booking_api_key_id_api_key_id_fk" FOREIGN KEY ("api_key_id") REFERENCES "public"."api_key"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "octo_booking" ADD CONSTRAINT "octo_booking_experience_id_experience_id_fk" FOREIGN KEY ("experience_id") REFERENCES "public"."experience"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "partnership" ADD CONSTRAINT "partnership_supplier_account_id_base_account_id_fk" FOREIGN KEY ("supplier_account_id") REFERENCES "public"."base_account"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "partnership" ADD CONSTRAINT "partnership_reseller_account_id_base_account_id_fk" FOREIGN KEY ("reseller_account_id") REFERENCES "public"."base_account"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "partnership" ADD CONSTRAINT "partnership_invited_by_account_id_base_account_id_fk" FOREIGN KEY ("invited_by_account_id") REFERENCES "public"."base_account"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "partnership" ADD CONSTRAINT "partnership_invited_by_user_id_users_id_fk" FOREIGN KEY ("invited_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "partnership_experience" ADD CONSTRAINT "partnership_experience_partnership_id_partnership_id_fk" FOREIGN KEY ("partnership_id") REFERENCES "public"."partnership"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "partnership_experience" ADD CONSTRAINT "partnership_experience_account_id_base_account_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."base_account"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "partnership_experience" ADD CONSTRAINT "partnership_experience_experience_id_experience_id_fk" FOREIGN KEY ("experience_id") REFERENCES "public"."experience"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "qr_code" ADD CONSTRAINT "qr_code_account_id_base_account_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."base_account"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "qr_code" ADD CONSTRAINT "qr_code_store_id_store_id_fk" FOREIGN KEY ("store_id") REFERENCES "public"."store"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "qr_code" ADD CONSTRAINT "qr_code_experience_id_experience_id_fk" FOREIGN KEY ("experience_id") REFERENCES "public"."experience"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "qr_code" ADD CONSTRAINT "qr_code_partnership_id_partnership_id_fk" FOREIGN KEY ("partnership_id") REFERENCES "public"."partnership"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "qr_scan_day" ADD CONSTRAINT "qr_scan_day_account_id_base_account_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."base_account"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "qr_scan_day" ADD CONSTRAINT "qr_scan_day_qr_code_id_qr_code_id_fk" FOREIGN KEY ("qr_code_id") REFERENCES "public"."qr_code"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "settlement" ADD CONSTRAINT "settlement_partnership_id_partnership_id_fk" FOREIGN KEY ("partnership_id") REFERENCES "public"."partnership"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "settlement" ADD CONSTRAINT "settlement_supplier_account_id_base_account_id_fk" FOREIGN KEY ("supplier_account_id") REFERENCES "public"."base_account"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "settlement" ADD CONSTRAINT "settlement_reseller_account_id_base_account_id_fk" FOREIGN KEY ("reseller_account_id") REFERENCES "public"."base_account"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "settlement" ADD CONSTRAINT "settlement_settled_by_users_id_fk" FOREIGN KEY ("settled_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "api_key_secret_key" ON "api_key" USING btree ("secret_hash");--> statement-breakpoint
CREATE INDEX "api_key_partnership_idx" ON "api_key" USING btree ("account_id","partnership_id");--> statement-breakpoint
CREATE INDEX "octo_booking_partnership_idx" ON "octo_booking" USING btree ("account_id","partnership_id","created_at");--> statement-breakpoint
CREATE INDEX "octo_booking_reseller_ref_idx" ON "octo_booking" USING btree ("account_id","partnership_id","reseller_reference");--> statement-breakpoint
CREATE INDEX "partnership_supplier_idx" ON "partnership" USING btree ("supplier_account_id","status","created_at");--> statement-breakpoint
CREATE INDEX "partnership_reseller_idx" ON "partnership" USING btree ("reseller_account_id","status","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "partnership_pair_key" ON "partnership" USING btree ("supplier_account_id","reseller_account_id") WHERE "partnership"."status" in ('Invited', 'Active', 'Suspended') and "partnership"."supplier_account_id" is not null and "partnership"."reseller_account_id" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "partnership_invite_key" ON "partnership" USING btree ("invite_token_hash") WHERE "partnership"."invite_token_hash" is not null;--> statement-breakpoint
CREATE INDEX "partnership_experience_offer_idx" ON "partnership_experience" USING btree ("account_id","experience_id");--> statement-breakpoint
CREATE UNIQUE INDEX "qr_code_code_key" ON "qr_code" USING btree ("code");--> statement-breakpoint
CREATE INDEX "qr_code_account_created_idx" ON "qr_code" USING btree ("account_id","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "qr_scan_day_account_idx" ON "qr_scan_day" USING btree ("account_id","day");--> statement-breakpoint
CREATE UNIQUE INDEX "settlement_number_key" ON "settlement" USING btree ("supplier_account_id","number");--> statement-breakpoint
CREATE INDEX "settlement_partnership_idx" ON "settlement" USING btree ("partnership_id","period_from");--> statement-breakpoint
ALTER TABLE "booking" ADD CONSTRAINT "booking_partnership_id_partnership_id_fk" FOREIGN KEY ("partnership_id") REFERENCES "public"."partnership"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "booking" ADD CONSTRAINT "booking_reseller_account_id_base_account_id_fk" FOREIGN KEY ("reseller_account_id") REFERENCES "public"."base_account"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "booking" ADD CONSTRAINT "booking_settlement_id_settlement_id_fk" FOREIGN KEY ("settlement_id") REFERENCES "public"."settlement"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cart" ADD CONSTRAINT "cart_qr_code_id_qr_code_id_fk" FOREIGN KEY ("qr_code_id") REFERENCES "public"."qr_code"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_qr_code_id_qr_code_id_fk" FOREIGN KEY ("qr_code_id") REFERENCES "public"."qr_code"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_partnership_id_partnership_id_fk" FOREIGN KEY ("partnership_id") REFERENCES "public"."partnership"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_reseller_account_id_base_account_id_fk" FOREIGN KEY ("reseller_account_id") REFERENCES "public"."base_account"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "booking_partnership_idx" ON "booking" USING btree ("account_id","partnership_id","created_at") WHERE "booking"."partnership_id" is not null;--> statement-breakpoint
CREATE INDEX "booking_reseller_idx" ON "booking" USING btree ("reseller_account_id","created_at") WHERE "booking"."reseller_account_id" is not null;--> statement-breakpoint
CREATE INDEX "orders_account_qr_idx" ON "orders" USING btree ("account_id","qr_code_id") WHERE "orders"."qr_code_id" is not null;--> statement-breakpoint
CREATE INDEX "orders_reseller_created_idx" ON "orders" USING btree ("reseller_account_id","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE "orders"."reseller_account_id" is not null;--> statement-breakpoint
CREATE INDEX "orders_partnership_idx" ON "orders" USING btree ("account_id","partnership_id","created_at") WHERE "orders"."partnership_id" is not null;--> statement-breakpoint
ALTER TABLE "booking" ADD CONSTRAINT "booking_commission_check" CHECK ("booking"."commission" >= 0 and "booking"."commission" <= "booking"."total");--> statement-breakpoint
CREATE POLICY "reseller_read" ON "booking" AS PERMISSIVE FOR SELECT TO public USING ("booking"."reseller_account_id" = app_current_account());--> statement-breakpoint
CREATE POLICY "reseller_read" ON "orders" AS PERMISSIVE FOR SELECT TO public USING ("orders"."reseller_account_id" = app_current_account());--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "api_key" AS PERMISSIVE FOR ALL TO public USING (account_id = app_current_account()) WITH CHECK (account_id = app_current_account());--> statement-breakpoint
CREATE POLICY "server_access" ON "api_key" AS PERMISSIVE FOR ALL TO "tourdesk_server" USING (true) WITH CHECK (true);--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "octo_booking" AS PERMISSIVE FOR ALL TO public USING (account_id = app_current_account()) WITH CHECK (account_id = app_current_account());--> statement-breakpoint
CREATE POLICY "server_access" ON "octo_booking" AS PERMISSIVE FOR ALL TO "tourdesk_server" USING (true) WITH CHECK (true);--> statement-breakpoint
CREATE POLICY "partner_isolation" ON "partnership" AS PERMISSIVE FOR ALL TO public USING (supplier_account_id = app_current_account() or reseller_account_id = app_current_account()) WITH CHECK (supplier_account_id = app_current_account() or reseller_account_id = app_current_account());--> statement-breakpoint
CREATE POLICY "server_access" ON "partnership" AS PERMISSIVE FOR ALL TO "tourdesk_server" USING (true) WITH CHECK (true);--> statement-breakpoint
CREATE POLICY "partner_isolation" ON "partnership_experience" AS PERMISSIVE FOR ALL TO public USING (exists (select 1 from partnership p where p.id = "partnership_experience"."partnership_id")) WITH CHECK ("partnership_experience"."account_id" = app_current_account());--> statement-breakpoint
CREATE POLICY "server_access" ON "partnership_experience" AS PERMISSIVE FOR ALL TO "tourdesk_server" USING (true) WITH CHECK (true);--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "qr_code" AS PERMISSIVE FOR ALL TO public USING (account_id = app_current_account()) WITH CHECK (account_id = app_current_account());--> statement-breakpoint
CREATE POLICY "server_access" ON "qr_code" AS PERMISSIVE FOR ALL TO "tourdesk_server" USING (true) WITH CHECK (true);--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "qr_scan_day" AS PERMISSIVE FOR ALL TO public USING (account_id = app_current_account()) WITH CHECK (account_id = app_current_account());--> statement-breakpoint
CREATE POLICY "server_access" ON "qr_scan_day" AS PERMISSIVE FOR ALL TO "tourdesk_server" USING (true) WITH CHECK (true);--> statement-breakpoint
CREATE POLICY "partner_isolation" ON "settlement" AS PERMISSIVE FOR ALL TO public USING (supplier_account_id = app_current_account() or reseller_account_id = app_current_account()) WITH CHECK (supplier_account_id = app_current_account() or reseller_account_id = app_current_account());--> statement-breakpoint
CREATE POLICY "server_access" ON "settlement" AS PERMISSIVE FOR ALL TO "tourdesk_server" USING (true) WITH CHECK (true);