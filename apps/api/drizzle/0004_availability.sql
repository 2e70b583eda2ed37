CREATE TABLE "booking" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"account_id" uuid NOT NULL,
	"order_id" uuid NOT NULL,
	"experience_id" uuid NOT NULL,
	"slot_id" uuid NOT NULL,
	"status" text DEFAULT 'Confirmed' NOT NULL,
	"attendance" text DEFAULT 'Open' NOT NULL,
	"ticket_code" text NOT NULL,
	"quantities" jsonb NOT NULL,
	"extras" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"answers" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"seats" integer NOT NULL,
	"total" integer NOT NULL,
	"currency" text NOT NULL,
	"checked_in_at" timestamp with time zone,
	"canceled_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "booking_status_check" CHECK ("booking"."status" in ('Created', 'Confirmed', 'Canceled')),
	CONSTRAINT "booking_attendance_check" CHECK ("booking"."attendance" in ('Open', 'Arrived', 'No show'))
);
--> statement-breakpoint
ALTER TABLE "booking" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "cart" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"account_id" uuid NOT NULL,
	"user_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "cart" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "cart_line" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"account_id" uuid NOT NULL,
	"cart_id" uuid NOT NULL,
	"slot_id" uuid NOT NULL,
	"quantities" jsonb NOT NULL,
	"extras" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"seats" integer NOT NULL,
	"total" integer NOT NULL,
	"currency" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "cart_line" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "closed_date" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"account_id" uuid NOT NULL,
	"experience_id" uuid NOT NULL,
	"date" date NOT NULL,
	"reason" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "closed_date" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "customer" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"account_id" uuid NOT NULL,
	"email" text NOT NULL,
	"first_name" text DEFAULT '' NOT NULL,
	"last_name" text DEFAULT '' NOT NULL,
	"phone" text DEFAULT '' NOT NULL,
	"country" text,
	"marketing_consent" boolean DEFAULT false NOT NULL,
	"notes" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "customer" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "orders" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"account_id" uuid NOT NULL,
	"reference" text NOT NULL,
	"status" text DEFAULT 'Created' NOT NULL,
	"payment_status" text DEFAULT 'Not paid' NOT NULL,
	"customer_id" uuid NOT NULL,
	"total" integer NOT NULL,
	"currency" text NOT NULL,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "orders" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "schedule_rule" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"account_id" uuid NOT NULL,
	"experience_id" uuid NOT NULL,
	"kind" text DEFAULT 'start_times' NOT NULL,
	"valid_from" date NOT NULL,
	"valid_to" date,
	"weekdays" integer[] DEFAULT '{}'::integer[] NOT NULL,
	"start_times" text[] NOT NULL,
	"closing_time" text,
	"capacity" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "schedule_rule" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "slot" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"account_id" uuid NOT NULL,
	"experience_id" uuid NOT NULL,
	"rule_id" uuid,
	"starts_at" timestamp with time zone NOT NULL,
	"ends_at" timestamp with time zone NOT NULL,
	"local_date" date NOT NULL,
	"local_time" text NOT NULL,
	"capacity" integer NOT NULL,
	"booked" integer DEFAULT 0 NOT NULL,
	"closed" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "slot_capacity_check" CHECK ("slot"."capacity" >= 0 and "slot"."booked" >= 0)
);
--> statement-breakpoint
ALTER TABLE "slot" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "base_account" ADD COLUMN "hold_minutes" integer DEFAULT 15 NOT NULL;--> statement-breakpoint
ALTER TABLE "base_account" ADD COLUMN "default_cutoff_minutes" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "booking" ADD CONSTRAINT "booking_account_id_base_account_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."base_account"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "booking" ADD CONSTRAINT "booking_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "booking" ADD CONSTRAINT "booking_experience_id_experience_id_fk" FOREIGN KEY ("experience_id") REFERENCES "public"."experience"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "booking" ADD CONSTRAINT "booking_slot_id_slot_id_fk" FOREIGN KEY ("slot_id") REFERENCES "public"."slot"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cart" ADD CONSTRAINT "cart_account_id_base_account_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."base_account"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cart" ADD CONSTRAINT "cart_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cart_line" ADD CONSTRAINT "cart_line_account_id_base_account_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."base_account"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cart_line" ADD CONSTRAINT "cart_line_cart_id_cart_id_fk" FOREIGN KEY ("cart_id") REFERENCES "public"."cart"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cart_line" ADD CONSTRAINT "cart_line_slot_id_slot_id_fk" FOREIGN KEY ("slot_id") REFERENCES "public"."slot"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "closed_date" ADD CONSTRAINT "closed_date_account_id_base_account_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."base_account"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "closed_date" ADD CONSTRAINT "closed_date_experience_id_experience_id_fk" FOREIGN KEY ("experience_id") REFERENCES "public"."experience"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "customer" ADD CONSTRAINT "customer_account_id_base_account_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."base_account"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_account_id_base_account_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."base_account"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_customer_id_customer_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customer"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "schedule_rule" ADD CONSTRAINT "schedule_rule_account_id_base_account_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."base_account"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "schedule_rule" ADD CONSTRAINT "schedule_rule_experience_id_experience_id_fk" FOREIGN KEY ("experience_id") REFERENCES "public"."experience"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "slot" ADD CONSTRAINT "slot_account_id_base_account_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."base_account"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "slot" ADD CONSTRAINT "slot_experience_id_experience_id_fk" FOREIGN KEY ("experience_id") REFERENCES "public"."experience"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "slot" ADD CONSTRAINT "slot_rule_id_schedule_rule_id_fk" FOREIGN KEY ("rule_id") REFERENCES "public"."schedule_rule"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "booking_ticket_key" ON "booking" USING btree ("ticket_code");--> statement-breakpoint
CREATE INDEX "booking_slot_idx" ON "booking" USING btree ("account_id","slot_id");--> statement-breakpoint
CREATE INDEX "booking_order_idx" ON "booking" USING btree ("account_id","order_id");--> statement-breakpoint
CREATE UNIQUE INDEX "cart_user_key" ON "cart" USING btree ("account_id","user_id");--> statement-breakpoint
CREATE INDEX "cart_line_slot_idx" ON "cart_line" USING btree ("slot_id","expires_at");--> statement-breakpoint
CREATE INDEX "cart_line_cart_idx" ON "cart_line" USING btree ("account_id","cart_id");--> statement-breakpoint
CREATE UNIQUE INDEX "closed_date_key" ON "closed_date" USING btree ("account_id","experience_id","date");--> statement-breakpoint
CREATE UNIQUE INDEX "customer_email_key" ON "customer" USING btree ("account_id",lower("email"));--> statement-breakpoint
CREATE UNIQUE INDEX "orders_reference_key" ON "orders" USING btree ("account_id","reference");--> statement-breakpoint
CREATE INDEX "orders_account_created_idx" ON "orders" USING btree ("account_id","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "schedule_rule_experience_idx" ON "schedule_rule" USING btree ("account_id","experience_id");--> statement-breakpoint
CREATE UNIQUE INDEX "slot_experience_start_key" ON "slot" USING btree ("account_id","experience_id","starts_at");--> statement-breakpoint
CREATE INDEX "slot_account_day_idx" ON "slot" USING btree ("account_id","local_date");--> statement-breakpoint
ALTER TABLE "base_account" ADD CONSTRAINT "base_account_hold_check" CHECK ("base_account"."hold_minutes" between 10 and 60);--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "booking" AS PERMISSIVE FOR ALL TO public USING (account_id = app_current_account()) WITH CHECK (account_id = app_current_account());--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "cart" AS PERMISSIVE FOR ALL TO public USING (account_id = app_current_account()) WITH CHECK (account_id = app_current_account());--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "cart_line" AS PERMISSIVE FOR ALL TO public USING (account_id = app_current_account()) WITH CHECK (account_id = app_current_account());--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "closed_date" AS PERMISSIVE FOR ALL TO public USING (account_id = app_current_account()) WITH CHECK (account_id = app_current_account());--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "customer" AS PERMISSIVE FOR ALL TO public USING (account_id = app_current_account()) WITH CHECK (account_id = app_current_account());--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "orders" AS PERMISSIVE FOR ALL TO public USING (account_id = app_current_account()) WITH CHECK (account_id = app_current_account());--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "schedule_rule" AS PERMISSIVE FOR ALL TO public USING (account_id = app_current_account()) WITH CHECK (account_id = app_current_account());--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "slot" AS PERMISSIVE FOR ALL TO public USING (account_id = app_current_account()) WITH CHECK (account_id = app_current_account());