CREATE TABLE "online_checkout" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"account_id" uuid NOT NULL,
	"store_id" uuid NOT NULL,
	"cart_id" uuid,
	"lines" uuid[] NOT NULL,
	"held" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"customer" jsonb NOT NULL,
	"answers" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"amount" integer NOT NULL,
	"currency" text NOT NULL,
	"application_fee" integer DEFAULT 0 NOT NULL,
	"connected_account" text NOT NULL,
	"session_id" text,
	"payment_intent" text,
	"status" text DEFAULT 'open' NOT NULL,
	"order_id" uuid,
	"manage_token_hash" text NOT NULL,
	"manage_token" text,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "online_checkout_status_check" CHECK ("online_checkout"."status" in ('open', 'paid', 'expired', 'failed', 'refunded'))
);
--> statement-breakpoint
ALTER TABLE "online_checkout" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "payment_account" (
	"account_id" uuid PRIMARY KEY NOT NULL,
	"provider" text DEFAULT 'stripe' NOT NULL,
	"external_id" text NOT NULL,
	"details_submitted" boolean DEFAULT false NOT NULL,
	"charges_enabled" boolean DEFAULT false NOT NULL,
	"payouts_enabled" boolean DEFAULT false NOT NULL,
	"requirements" text[] DEFAULT '{}'::text[] NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "payment_account" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "stripe_event" (
	"id" text PRIMARY KEY NOT NULL,
	"type" text NOT NULL,
	"stripe_account" text,
	"payload" jsonb NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	"processed_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "order_payment" DROP CONSTRAINT "order_payment_method_check";--> statement-breakpoint
ALTER TABLE "subscription_tier" ADD COLUMN "application_fee_bp" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "order_payment" ADD COLUMN "provider_ref" text;--> statement-breakpoint
ALTER TABLE "online_checkout" ADD CONSTRAINT "online_checkout_account_id_base_account_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."base_account"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "online_checkout" ADD CONSTRAINT "online_checkout_store_id_store_id_fk" FOREIGN KEY ("store_id") REFERENCES "public"."store"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "online_checkout" ADD CONSTRAINT "online_checkout_cart_id_cart_id_fk" FOREIGN KEY ("cart_id") REFERENCES "public"."cart"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "online_checkout" ADD CONSTRAINT "online_checkout_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_account" ADD CONSTRAINT "payment_account_account_id_base_account_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."base_account"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "online_checkout_session_key" ON "online_checkout" USING btree ("session_id");--> statement-breakpoint
CREATE INDEX "online_checkout_store_idx" ON "online_checkout" USING btree ("account_id","store_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "payment_account_external_key" ON "payment_account" USING btree ("external_id");--> statement-breakpoint
CREATE UNIQUE INDEX "order_payment_provider_ref_key" ON "order_payment" USING btree ("provider_ref");--> statement-breakpoint
ALTER TABLE "order_payment" ADD CONSTRAINT "order_payment_method_check" CHECK ("order_payment"."method" in ('cash', 'card terminal', 'bank transfer', 'other', 'online'));--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "online_checkout" AS PERMISSIVE FOR ALL TO public USING (account_id = app_current_account()) WITH CHECK (account_id = app_current_account());--> statement-breakpoint
CREATE POLICY "server_access" ON "online_checkout" AS PERMISSIVE FOR ALL TO "tourdesk_server" USING (true) WITH CHECK (true);--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "payment_account" AS PERMISSIVE FOR ALL TO public USING (account_id = app_current_account()) WITH CHECK (account_id = app_current_account());--> statement-breakpoint
CREATE POLICY "server_access" ON "payment_account" AS PERMISSIVE FOR ALL TO "tourdesk_server" USING (true) WITH CHECK (true);