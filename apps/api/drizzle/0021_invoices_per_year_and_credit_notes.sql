CREATE TABLE "invoice_sequence" (
	"account_id" uuid NOT NULL,
	"series" text NOT NULL,
	"year" integer NOT NULL,
	"next_number" integer NOT NULL,
	CONSTRAINT "invoice_sequence_pkey" PRIMARY KEY("account_id","series","year")
);
--> statement-breakpoint
ALTER TABLE "invoice_sequence" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
DROP INDEX "invoice_order_key";--> statement-breakpoint
DROP INDEX "invoice_number_key";--> statement-breakpoint
ALTER TABLE "customer" ADD COLUMN "company" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "customer" ADD COLUMN "address" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "customer" ADD COLUMN "vat_number" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "invoice" ADD COLUMN "kind" text DEFAULT 'invoice' NOT NULL;--> statement-breakpoint
ALTER TABLE "invoice" ADD COLUMN "series" text DEFAULT 'INV' NOT NULL;--> statement-breakpoint
ALTER TABLE "invoice" ADD COLUMN "year" integer;--> statement-breakpoint
ALTER TABLE "invoice" ADD COLUMN "credits_invoice_id" uuid;--> statement-breakpoint
ALTER TABLE "invoice" ADD COLUMN "issued_on" date;--> statement-breakpoint
-- Invoices issued before: their local date and year in the organisation's zone; their numbers (one
-- sequence for all years until now) stay as they were printed, and each year's sequence goes on
-- after the largest number issued in that year.
UPDATE "invoice" i SET "issued_on" = (i."issued_at" AT TIME ZONE a."time_zone")::date,
  "year" = extract(year FROM i."issued_at" AT TIME ZONE a."time_zone")::int
FROM "base_account" a WHERE a."id" = i."account_id";--> statement-breakpoint
ALTER TABLE "invoice" ALTER COLUMN "year" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "invoice" ALTER COLUMN "issued_on" SET NOT NULL;--> statement-breakpoint
INSERT INTO "invoice_sequence" ("account_id", "series", "year", "next_number")
SELECT "account_id", 'INV', "year", max("number") + 1 FROM "invoice" GROUP BY "account_id", "year";--> statement-breakpoint
ALTER TABLE "invoice_sequence" ADD CONSTRAINT "invoice_sequence_account_id_base_account_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."base_account"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoice" ADD CONSTRAINT "invoice_credits_invoice_id_invoice_id_fk" FOREIGN KEY ("credits_invoice_id") REFERENCES "public"."invoice"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "invoice_order_idx" ON "invoice" USING btree ("account_id","order_id","issued_at");--> statement-breakpoint
CREATE UNIQUE INDEX "invoice_credited_key" ON "invoice" USING btree ("credits_invoice_id");--> statement-breakpoint
CREATE UNIQUE INDEX "invoice_number_key" ON "invoice" USING btree ("account_id","series","year","number");--> statement-breakpoint
ALTER TABLE "base_account" DROP COLUMN "next_invoice_number";--> statement-breakpoint
ALTER TABLE "invoice" ADD CONSTRAINT "invoice_kind_check" CHECK (("invoice"."kind" = 'invoice' and "invoice"."series" = 'INV' and "invoice"."credits_invoice_id" is null) or ("invoice"."kind" = 'credit_note' and "invoice"."series" = 'CN' and "invoice"."credits_invoice_id" is not null));--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "invoice_sequence" AS PERMISSIVE FOR ALL TO public USING (account_id = app_current_account()) WITH CHECK (account_id = app_current_account());