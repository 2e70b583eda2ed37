-- Outgoing webhooks (issue 31): endpoints, events and their deliveries, each delivery with its order's sequence for order per order.
CREATE TABLE "webhook_delivery" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"account_id" uuid NOT NULL,
	"endpoint_id" uuid NOT NULL,
	"event_id" uuid NOT NULL,
	"order_key" uuid,
	"seq" bigint GENERATED ALWAYS AS IDENTITY (sequence name "webhook_delivery_seq_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"status" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"http_status" integer,
	"response" text,
	"duration_ms" integer,
	"last_attempt_at" timestamp with time zone,
	"job_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "webhook_delivery_status_check" CHECK ("webhook_delivery"."status" in ('pending', 'succeeded', 'failed'))
);
--> statement-breakpoint
ALTER TABLE "webhook_delivery" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "webhook_endpoint" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"account_id" uuid NOT NULL,
	"url" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"event_types" text[] NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"secret_sealed" text NOT NULL,
	"secret_hint" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "webhook_endpoint" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "webhook_event" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"account_id" uuid NOT NULL,
	"type" text NOT NULL,
	"payload" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "webhook_event" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "webhook_delivery" ADD CONSTRAINT "webhook_delivery_account_id_base_account_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."base_account"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_delivery" ADD CONSTRAINT "webhook_delivery_endpoint_id_webhook_endpoint_id_fk" FOREIGN KEY ("endpoint_id") REFERENCES "public"."webhook_endpoint"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_delivery" ADD CONSTRAINT "webhook_delivery_event_id_webhook_event_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."webhook_event"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_endpoint" ADD CONSTRAINT "webhook_endpoint_account_id_base_account_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."base_account"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_event" ADD CONSTRAINT "webhook_event_account_id_base_account_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."base_account"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "webhook_delivery_endpoint_idx" ON "webhook_delivery" USING btree ("account_id","endpoint_id","created_at" DESC NULLS LAST,"seq" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "webhook_delivery_pending_idx" ON "webhook_delivery" USING btree ("account_id","endpoint_id","order_key","seq") WHERE status = 'pending';--> statement-breakpoint
CREATE INDEX "webhook_endpoint_account_created_idx" ON "webhook_endpoint" USING btree ("account_id","created_at","id");--> statement-breakpoint
CREATE INDEX "webhook_event_account_idx" ON "webhook_event" USING btree ("account_id","created_at");--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "webhook_delivery" AS PERMISSIVE FOR ALL TO public USING (account_id = app_current_account()) WITH CHECK (account_id = app_current_account());--> statement-breakpoint
CREATE POLICY "server_access" ON "webhook_delivery" AS PERMISSIVE FOR ALL TO "tourdesk_server" USING (true) WITH CHECK (true);--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "webhook_endpoint" AS PERMISSIVE FOR ALL TO public USING (account_id = app_current_account()) WITH CHECK (account_id = app_current_account());--> statement-breakpoint
CREATE POLICY "server_access" ON "webhook_endpoint" AS PERMISSIVE FOR ALL TO "tourdesk_server" USING (true) WITH CHECK (true);--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "webhook_event" AS PERMISSIVE FOR ALL TO public USING (account_id = app_current_account()) WITH CHECK (account_id = app_current_account());--> statement-breakpoint
CREATE POLICY "server_access" ON "webhook_event" AS PERMISSIVE FOR ALL TO "tourdesk_server" USING (true) WITH CHECK (true);