CREATE TABLE "check_in_scan" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"account_id" uuid NOT NULL,
	"scan_id" uuid NOT NULL,
	"device_id" text NOT NULL,
	"user_id" uuid,
	"booking_id" uuid,
	"ticket_code" text NOT NULL,
	"scanned_at" timestamp with time zone NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	"result" text NOT NULL,
	"override" boolean DEFAULT false NOT NULL,
	CONSTRAINT "check_in_scan_result_check" CHECK (result in ('admitted', 'already_checked_in', 'wrong_day', 'wrong_departure', 'canceled', 'unconfirmed', 'unknown'))
);
--> statement-breakpoint
ALTER TABLE "check_in_scan" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "booking" ADD COLUMN "checked_in_by" uuid;--> statement-breakpoint
ALTER TABLE "booking" ADD COLUMN "checked_in_device" text;--> statement-breakpoint
ALTER TABLE "check_in_scan" ADD CONSTRAINT "check_in_scan_account_id_base_account_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."base_account"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "check_in_scan" ADD CONSTRAINT "check_in_scan_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "check_in_scan" ADD CONSTRAINT "check_in_scan_booking_id_booking_id_fk" FOREIGN KEY ("booking_id") REFERENCES "public"."booking"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "check_in_scan_key" ON "check_in_scan" USING btree ("account_id","scan_id");--> statement-breakpoint
CREATE INDEX "check_in_scan_booking_idx" ON "check_in_scan" USING btree ("account_id","booking_id","scanned_at");--> statement-breakpoint
ALTER TABLE "booking" ADD CONSTRAINT "booking_checked_in_by_users_id_fk" FOREIGN KEY ("checked_in_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "check_in_scan" AS PERMISSIVE FOR ALL TO public USING (account_id = app_current_account()) WITH CHECK (account_id = app_current_account());--> statement-breakpoint
CREATE POLICY "server_access" ON "check_in_scan" AS PERMISSIVE FOR ALL TO "tourdesk_server" USING (true) WITH CHECK (true);