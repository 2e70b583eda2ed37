CREATE TABLE "booking_question" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"account_id" uuid NOT NULL,
	"question" text NOT NULL,
	"answer_type" text NOT NULL,
	"choices" text[] DEFAULT '{}'::text[] NOT NULL,
	"required" boolean DEFAULT false NOT NULL,
	"per_participant" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "booking_question" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "cancellation_policy" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"account_id" uuid NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"rules" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "cancellation_policy" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "experience" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"account_id" uuid NOT NULL,
	"status" text DEFAULT 'Draft' NOT NULL,
	"type" text NOT NULL,
	"title" text NOT NULL,
	"short_description" text DEFAULT '' NOT NULL,
	"categories" text[] DEFAULT '{}'::text[] NOT NULL,
	"tags" text[] DEFAULT '{}'::text[] NOT NULL,
	"languages" text[] DEFAULT '{}'::text[] NOT NULL,
	"duration_minutes" integer,
	"meeting_point_ids" uuid[] DEFAULT '{}'::uuid[] NOT NULL,
	"long_description" text DEFAULT '' NOT NULL,
	"highlights" text[] DEFAULT '{}'::text[] NOT NULL,
	"inclusions" text[] DEFAULT '{}'::text[] NOT NULL,
	"exclusions" text[] DEFAULT '{}'::text[] NOT NULL,
	"what_to_bring" text[] DEFAULT '{}'::text[] NOT NULL,
	"important_information" text DEFAULT '' NOT NULL,
	"min_participants" integer DEFAULT 1 NOT NULL,
	"max_participants" integer,
	"booking_cutoff_minutes" integer DEFAULT 0 NOT NULL,
	"confirmation_mode" text DEFAULT 'instant' NOT NULL,
	"cancellation_policy_id" uuid,
	"booking_question_ids" uuid[] DEFAULT '{}'::uuid[] NOT NULL,
	"extra_item_ids" uuid[] DEFAULT '{}'::uuid[] NOT NULL,
	"meeting_instructions" text DEFAULT '' NOT NULL,
	"voucher_text" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "experience_status_check" CHECK ("experience"."status" in ('Draft', 'Active', 'Inactive')),
	CONSTRAINT "experience_type_check" CHECK ("experience"."type" in ('Rental', 'Ticket & Passes', 'Transfer'))
);
--> statement-breakpoint
ALTER TABLE "experience" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "file_folder" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"account_id" uuid NOT NULL,
	"name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "file_folder" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "image" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"account_id" uuid NOT NULL,
	"experience_id" uuid,
	"folder_id" uuid,
	"status" text DEFAULT 'pending' NOT NULL,
	"original_name" text NOT NULL,
	"content_type" text,
	"width" integer,
	"height" integer,
	"size_bytes" integer,
	"storage_key" text,
	"thumbnail_key" text,
	"position" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "image" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "inventory_item" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"account_id" uuid NOT NULL,
	"type" text NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"category_id" uuid,
	"tags" text[] DEFAULT '{}'::text[] NOT NULL,
	"price" integer NOT NULL,
	"currency" text NOT NULL,
	"stock" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "inventory_item_type_check" CHECK ("inventory_item"."type" in ('Equipment', 'Extras', 'Package')),
	CONSTRAINT "inventory_item_price_check" CHECK ("inventory_item"."price" >= 0)
);
--> statement-breakpoint
ALTER TABLE "inventory_item" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "inventory_item_category" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"account_id" uuid NOT NULL,
	"name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "inventory_item_category" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "meeting_point" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"account_id" uuid NOT NULL,
	"name" text NOT NULL,
	"address" text DEFAULT '' NOT NULL,
	"latitude" double precision,
	"longitude" double precision,
	"instructions" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "meeting_point" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "pricing_category" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"account_id" uuid NOT NULL,
	"type" text NOT NULL,
	"label" text NOT NULL,
	"min_age" integer,
	"max_age" integer,
	"occupies_seat" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "pricing_category" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "pricing_rate" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"account_id" uuid NOT NULL,
	"experience_id" uuid NOT NULL,
	"pricing_category_id" uuid NOT NULL,
	"retail_price" integer NOT NULL,
	"net_price" integer,
	"currency" text NOT NULL,
	"valid_from" date,
	"valid_to" date,
	"weekdays" integer[] DEFAULT '{}'::integer[] NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "pricing_rate_price_check" CHECK ("pricing_rate"."retail_price" >= 0 and ("pricing_rate"."net_price" is null or "pricing_rate"."net_price" >= 0))
);
--> statement-breakpoint
ALTER TABLE "pricing_rate" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "video" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"account_id" uuid NOT NULL,
	"experience_id" uuid,
	"url" text NOT NULL,
	"provider" text,
	"title" text DEFAULT '' NOT NULL,
	"thumbnail_url" text,
	"notice" text,
	"position" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "video" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
DROP INDEX "system_notification_published_idx";--> statement-breakpoint
ALTER TABLE "booking_question" ADD CONSTRAINT "booking_question_account_id_base_account_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."base_account"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cancellation_policy" ADD CONSTRAINT "cancellation_policy_account_id_base_account_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."base_account"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "experience" ADD CONSTRAINT "experience_account_id_base_account_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."base_account"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "experience" ADD CONSTRAINT "experience_cancellation_policy_id_cancellation_policy_id_fk" FOREIGN KEY ("cancellation_policy_id") REFERENCES "public"."cancellation_policy"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "file_folder" ADD CONSTRAINT "file_folder_account_id_base_account_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."base_account"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "image" ADD CONSTRAINT "image_account_id_base_account_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."base_account"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "image" ADD CONSTRAINT "image_experience_id_experience_id_fk" FOREIGN KEY ("experience_id") REFERENCES "public"."experience"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "image" ADD CONSTRAINT "image_folder_id_file_folder_id_fk" FOREIGN KEY ("folder_id") REFERENCES "public"."file_folder"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inventory_item" ADD CONSTRAINT "inventory_item_account_id_base_account_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."base_account"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inventory_item" ADD CONSTRAINT "inventory_item_category_id_inventory_item_category_id_fk" FOREIGN KEY ("category_id") REFERENCES "public"."inventory_item_category"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inventory_item_category" ADD CONSTRAINT "inventory_item_category_account_id_base_account_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."base_account"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "meeting_point" ADD CONSTRAINT "meeting_point_account_id_base_account_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."base_account"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pricing_category" ADD CONSTRAINT "pricing_category_account_id_base_account_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."base_account"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pricing_rate" ADD CONSTRAINT "pricing_rate_account_id_base_account_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."base_account"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pricing_rate" ADD CONSTRAINT "pricing_rate_experience_id_experience_id_fk" FOREIGN KEY ("experience_id") REFERENCES "public"."experience"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pricing_rate" ADD CONSTRAINT "pricing_rate_pricing_category_id_pricing_category_id_fk" FOREIGN KEY ("pricing_category_id") REFERENCES "public"."pricing_category"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "video" ADD CONSTRAINT "video_account_id_base_account_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."base_account"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "video" ADD CONSTRAINT "video_experience_id_experience_id_fk" FOREIGN KEY ("experience_id") REFERENCES "public"."experience"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "booking_question_account_idx" ON "booking_question" USING btree ("account_id","created_at");--> statement-breakpoint
CREATE INDEX "cancellation_policy_account_idx" ON "cancellation_policy" USING btree ("account_id","name");--> statement-breakpoint
CREATE INDEX "experience_account_updated_idx" ON "experience" USING btree ("account_id","updated_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "experience_account_status_idx" ON "experience" USING btree ("account_id","status","updated_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "experience_account_title_idx" ON "experience" USING btree ("account_id",lower("title"),"id");--> statement-breakpoint
CREATE UNIQUE INDEX "file_folder_name_key" ON "file_folder" USING btree ("account_id",lower("name"));--> statement-breakpoint
CREATE INDEX "image_experience_idx" ON "image" USING btree ("account_id","experience_id","position");--> statement-breakpoint
CREATE INDEX "inventory_item_account_idx" ON "inventory_item" USING btree ("account_id","name");--> statement-breakpoint
CREATE UNIQUE INDEX "inventory_item_category_name_key" ON "inventory_item_category" USING btree ("account_id",lower("name"));--> statement-breakpoint
CREATE INDEX "meeting_point_account_idx" ON "meeting_point" USING btree ("account_id","name");--> statement-breakpoint
CREATE UNIQUE INDEX "pricing_category_label_key" ON "pricing_category" USING btree ("account_id",lower("label"));--> statement-breakpoint
CREATE INDEX "pricing_rate_experience_idx" ON "pricing_rate" USING btree ("account_id","experience_id","pricing_category_id");--> statement-breakpoint
CREATE INDEX "video_experience_idx" ON "video" USING btree ("account_id","experience_id","position");--> statement-breakpoint
CREATE INDEX "system_notification_published_idx" ON "system_notification" USING btree ("published_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "booking_question" AS PERMISSIVE FOR ALL TO public USING (account_id = app_current_account()) WITH CHECK (account_id = app_current_account());--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "cancellation_policy" AS PERMISSIVE FOR ALL TO public USING (account_id = app_current_account()) WITH CHECK (account_id = app_current_account());--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "experience" AS PERMISSIVE FOR ALL TO public USING (account_id = app_current_account()) WITH CHECK (account_id = app_current_account());--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "file_folder" AS PERMISSIVE FOR ALL TO public USING (account_id = app_current_account()) WITH CHECK (account_id = app_current_account());--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "image" AS PERMISSIVE FOR ALL TO public USING (account_id = app_current_account()) WITH CHECK (account_id = app_current_account());--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "inventory_item" AS PERMISSIVE FOR ALL TO public USING (account_id = app_current_account()) WITH CHECK (account_id = app_current_account());--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "inventory_item_category" AS PERMISSIVE FOR ALL TO public USING (account_id = app_current_account()) WITH CHECK (account_id = app_current_account());--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "meeting_point" AS PERMISSIVE FOR ALL TO public USING (account_id = app_current_account()) WITH CHECK (account_id = app_current_account());--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "pricing_category" AS PERMISSIVE FOR ALL TO public USING (account_id = app_current_account()) WITH CHECK (account_id = app_current_account());--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "pricing_rate" AS PERMISSIVE FOR ALL TO public USING (account_id = app_current_account()) WITH CHECK (account_id = app_current_account());--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "video" AS PERMISSIVE FOR ALL TO public USING (account_id = app_current_account()) WITH CHECK (account_id = app_current_account());