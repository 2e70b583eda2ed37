CREATE TABLE "store" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"account_id" uuid NOT NULL,
	"name" text NOT NULL,
	"slug" text NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"currency" text NOT NULL,
	"logo_image_id" uuid,
	"primary_color" text DEFAULT '#1c7ed6' NOT NULL,
	"intro" text DEFAULT '' NOT NULL,
	"terms_url" text DEFAULT '' NOT NULL,
	"contact_email" text DEFAULT '' NOT NULL,
	"contact_phone" text DEFAULT '' NOT NULL,
	"payment_options" text[] DEFAULT '{pay_on_site}'::text[] NOT NULL,
	"embed_origins" text[] DEFAULT '{}'::text[] NOT NULL,
	"notify_new_bookings" boolean DEFAULT false NOT NULL,
	"notify_email" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "store_currency_check" CHECK ("store"."currency" ~ '^[A-Z]{3}$')
);
--> statement-breakpoint
ALTER TABLE "store" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "store_experience" (
	"account_id" uuid NOT NULL,
	"store_id" uuid NOT NULL,
	"experience_id" uuid NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "store_experience_store_id_experience_id_pk" PRIMARY KEY("store_id","experience_id")
);
--> statement-breakpoint
ALTER TABLE "store_experience" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "store_visit" (
	"account_id" uuid NOT NULL,
	"store_id" uuid NOT NULL,
	"visit_id" text NOT NULL,
	"day" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "store_visit_store_id_day_visit_id_pk" PRIMARY KEY("store_id","day","visit_id")
);
--> statement-breakpoint
ALTER TABLE "store_visit" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "cart" ADD COLUMN "store_id" uuid;--> statement-breakpoint
ALTER TABLE "cart" ADD COLUMN "token_hash" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "manage_token_hash" text;--> statement-breakpoint
ALTER TABLE "store" ADD CONSTRAINT "store_account_id_base_account_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."base_account"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "store" ADD CONSTRAINT "store_logo_image_id_image_id_fk" FOREIGN KEY ("logo_image_id") REFERENCES "public"."image"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "store_experience" ADD CONSTRAINT "store_experience_account_id_base_account_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."base_account"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "store_experience" ADD CONSTRAINT "store_experience_store_id_store_id_fk" FOREIGN KEY ("store_id") REFERENCES "public"."store"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "store_experience" ADD CONSTRAINT "store_experience_experience_id_experience_id_fk" FOREIGN KEY ("experience_id") REFERENCES "public"."experience"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "store_visit" ADD CONSTRAINT "store_visit_account_id_base_account_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."base_account"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "store_visit" ADD CONSTRAINT "store_visit_store_id_store_id_fk" FOREIGN KEY ("store_id") REFERENCES "public"."store"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "store_slug_key" ON "store" USING btree ("account_id","slug");--> statement-breakpoint
CREATE UNIQUE INDEX "store_account_key" ON "store" USING btree ("account_id","id");--> statement-breakpoint
CREATE INDEX "store_account_created_idx" ON "store" USING btree ("account_id","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "store_experience_order_idx" ON "store_experience" USING btree ("account_id","store_id","position");--> statement-breakpoint
CREATE INDEX "store_visit_day_idx" ON "store_visit" USING btree ("account_id","store_id","day");--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_store_id_store_id_fk" FOREIGN KEY ("store_id") REFERENCES "public"."store"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "cart_store_created_idx" ON "cart" USING btree ("account_id","store_id","created_at") WHERE "cart"."store_id" is not null;--> statement-breakpoint
CREATE INDEX "orders_account_store_idx" ON "orders" USING btree ("account_id","store_id","created_at") WHERE "orders"."store_id" is not null;--> statement-breakpoint
ALTER TABLE "cart" ADD CONSTRAINT "cart_owner_check" CHECK (("cart"."user_id" is null) <> ("cart"."token_hash" is null));--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "store" AS PERMISSIVE FOR ALL TO public USING (account_id = app_current_account()) WITH CHECK (account_id = app_current_account());--> statement-breakpoint
CREATE POLICY "server_access" ON "store" AS PERMISSIVE FOR ALL TO "tourdesk_server" USING (true) WITH CHECK (true);--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "store_experience" AS PERMISSIVE FOR ALL TO public USING (account_id = app_current_account()) WITH CHECK (account_id = app_current_account());--> statement-breakpoint
CREATE POLICY "server_access" ON "store_experience" AS PERMISSIVE FOR ALL TO "tourdesk_server" USING (true) WITH CHECK (true);--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "store_visit" AS PERMISSIVE FOR ALL TO public USING (account_id = app_current_account()) WITH CHECK (account_id = app_current_account());--> statement-breakpoint
CREATE POLICY "server_access" ON "store_visit" AS PERMISSIVE FOR ALL TO "tourdesk_server" USING (true) WITH CHECK (true);