CREATE TABLE "user_identity" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"account_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"issuer" text NOT NULL,
	"subject" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "user_identity" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "user_identity" ADD CONSTRAINT "user_identity_account_id_base_account_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."base_account"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_identity" ADD CONSTRAINT "user_identity_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "user_identity_subject_key" ON "user_identity" USING btree ("issuer","subject");--> statement-breakpoint
CREATE UNIQUE INDEX "user_identity_user_issuer_key" ON "user_identity" USING btree ("user_id","issuer");--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "user_identity" AS PERMISSIVE FOR ALL TO public USING (account_id = app_current_account()) WITH CHECK (account_id = app_current_account());