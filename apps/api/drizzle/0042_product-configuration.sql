ALTER TABLE "base_account" ADD COLUMN "time_format" text DEFAULT '24h' NOT NULL;--> statement-breakpoint
ALTER TABLE "base_account" ADD COLUMN "default_capacity" integer DEFAULT 10 NOT NULL;--> statement-breakpoint
ALTER TABLE "base_account" ADD COLUMN "default_cancellation_policy_id" uuid;--> statement-breakpoint
ALTER TABLE "base_account" ADD COLUMN "vat_rates_by_type" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "base_account" ADD COLUMN "ticket_fields" text[] DEFAULT '{meeting_point,customer_name,items,balance_due,order_reference}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "base_account" ADD CONSTRAINT "base_account_default_cancellation_policy_id_cancellation_policy_id_fk" FOREIGN KEY ("default_cancellation_policy_id") REFERENCES "public"."cancellation_policy"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "base_account" ADD CONSTRAINT "base_account_time_format_check" CHECK ("base_account"."time_format" in ('24h', '12h'));--> statement-breakpoint
ALTER TABLE "base_account" ADD CONSTRAINT "base_account_default_capacity_check" CHECK ("base_account"."default_capacity" between 1 and 10000);