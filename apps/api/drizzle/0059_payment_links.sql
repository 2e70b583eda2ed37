CREATE TABLE "payment_link" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"account_id" uuid NOT NULL,
	"order_id" uuid NOT NULL,
	"token_hash" text NOT NULL,
	"email" text NOT NULL,
	"amount" integer NOT NULL,
	"currency" text NOT NULL,
	"sent_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "payment_link" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "online_checkout" ALTER COLUMN "store_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "online_checkout" ADD COLUMN "payment_link_id" uuid;--> statement-breakpoint
ALTER TABLE "payment_link" ADD CONSTRAINT "payment_link_account_id_base_account_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."base_account"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_link" ADD CONSTRAINT "payment_link_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "payment_link_token_key" ON "payment_link" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "payment_link_order_idx" ON "payment_link" USING btree ("account_id","order_id");--> statement-breakpoint
ALTER TABLE "online_checkout" ADD CONSTRAINT "online_checkout_payment_link_id_payment_link_id_fk" FOREIGN KEY ("payment_link_id") REFERENCES "public"."payment_link"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "online_checkout_order_idx" ON "online_checkout" USING btree ("account_id","order_id");--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "payment_link" AS PERMISSIVE FOR ALL TO public USING (account_id = app_current_account()) WITH CHECK (account_id = app_current_account());--> statement-breakpoint
CREATE POLICY "server_access" ON "payment_link" AS PERMISSIVE FOR ALL TO "tourdesk_server" USING (true) WITH CHECK (true);