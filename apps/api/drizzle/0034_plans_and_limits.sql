CREATE TABLE "billing_product" (
	"tier_id" text PRIMARY KEY NOT NULL,
	"stripe_product_id" text NOT NULL
);
--> statement-breakpoint
ALTER TABLE "base_account" ADD COLUMN "subscription_status" text DEFAULT 'none' NOT NULL;--> statement-breakpoint
ALTER TABLE "base_account" ADD COLUMN "subscription_interval" text;--> statement-breakpoint
ALTER TABLE "base_account" ADD COLUMN "subscription_period_end" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "base_account" ADD COLUMN "trial_ends_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "base_account" ADD COLUMN "trial_used" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "base_account" ADD COLUMN "stripe_customer_id" text;--> statement-breakpoint
ALTER TABLE "base_account" ADD COLUMN "stripe_subscription_id" text;--> statement-breakpoint
ALTER TABLE "subscription_tier" ADD COLUMN "yearly_price" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "subscription_tier" ADD COLUMN "trial_days" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "subscription_tier" ADD COLUMN "limits" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "billing_product" ADD CONSTRAINT "billing_product_tier_id_subscription_tier_id_fk" FOREIGN KEY ("tier_id") REFERENCES "public"."subscription_tier"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "booking_created_idx" ON "booking" USING btree ("account_id","created_at");