-- A statement never moves once made (issue 28): its lines were read from the live bookings, so a
-- line cancelled after its statement changed the lines shown but not the total, and was never
-- credited. Each statement's lines are now stored with the figures they were settled at
-- (settlement_line; db/settlements-schema.ts), and a later change is credited on the next statement
-- as a reversing line. The statements already made get their lines here, from their bookings: a line
-- cancelled free since (it was taken Confirmed: a statement takes only Confirmed lines and those
-- cancelled with a fee kept) at its figures as sold, so the next statement credits it; any other at
-- what it counts for now.
CREATE TABLE "settlement_line" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"settlement_id" uuid NOT NULL,
	"supplier_account_id" uuid NOT NULL,
	"reseller_account_id" uuid NOT NULL,
	"position" integer NOT NULL,
	"kind" text DEFAULT 'sale' NOT NULL,
	"reverses_line_id" uuid,
	"booking_id" uuid,
	"order_id" uuid NOT NULL,
	"order_reference" text NOT NULL,
	"reseller_reference" text,
	"experience_id" uuid NOT NULL,
	"slot_id" uuid NOT NULL,
	"store_id" uuid,
	"items" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"sold_at" timestamp with time zone NOT NULL,
	"status" text NOT NULL,
	"seats" integer NOT NULL,
	"currency" text NOT NULL,
	"gross" integer NOT NULL,
	"commission" integer NOT NULL,
	"supplier_net" integer NOT NULL,
	"cancellation_fee" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "settlement_line_kind_check" CHECK ("settlement_line"."kind" in ('sale', 'reversal')),
	CONSTRAINT "settlement_line_reversal_check" CHECK (("settlement_line"."kind" = 'reversal') = ("settlement_line"."reverses_line_id" is not null)),
	CONSTRAINT "settlement_line_net_check" CHECK ("settlement_line"."supplier_net" = "settlement_line"."gross" - "settlement_line"."commission")
);
--> statement-breakpoint
ALTER TABLE "settlement_line" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "settlement_line" ADD CONSTRAINT "settlement_line_settlement_id_settlement_id_fk" FOREIGN KEY ("settlement_id") REFERENCES "public"."settlement"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "settlement_line" ADD CONSTRAINT "settlement_line_supplier_account_id_base_account_id_fk" FOREIGN KEY ("supplier_account_id") REFERENCES "public"."base_account"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "settlement_line" ADD CONSTRAINT "settlement_line_reseller_account_id_base_account_id_fk" FOREIGN KEY ("reseller_account_id") REFERENCES "public"."base_account"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "settlement_line" ADD CONSTRAINT "settlement_line_reverses_line_id_settlement_line_id_fk" FOREIGN KEY ("reverses_line_id") REFERENCES "public"."settlement_line"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "settlement_line" ADD CONSTRAINT "settlement_line_booking_id_booking_id_fk" FOREIGN KEY ("booking_id") REFERENCES "public"."booking"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "settlement_line_settlement_idx" ON "settlement_line" USING btree ("settlement_id","position");--> statement-breakpoint
CREATE INDEX "settlement_line_booking_idx" ON "settlement_line" USING btree ("booking_id");--> statement-breakpoint
CREATE INDEX "settlement_line_reverses_idx" ON "settlement_line" USING btree ("reverses_line_id");--> statement-breakpoint
CREATE POLICY "partner_isolation" ON "settlement_line" AS PERMISSIVE FOR ALL TO public USING ("settlement_line"."supplier_account_id" = app_current_account() or "settlement_line"."reseller_account_id" = app_current_account()) WITH CHECK ("settlement_line"."supplier_account_id" = app_current_account() or "settlement_line"."reseller_account_id" = app_current_account());--> statement-breakpoint
CREATE POLICY "server_access" ON "settlement_line" AS PERMISSIVE FOR ALL TO "tourdesk_server" USING (true) WITH CHECK (true);;--> statement-breakpoint
INSERT INTO "settlement_line" ("settlement_id", "supplier_account_id", "reseller_account_id", "position", "kind", "booking_id", "order_id",
  "order_reference", "reseller_reference", "experience_id", "slot_id", "store_id", "items", "sold_at", "status", "seats", "currency",
  "gross", "commission", "supplier_net", "cancellation_fee", "created_at")
SELECT s.id, s.supplier_account_id, s.reseller_account_id,
  row_number() OVER (PARTITION BY s.id ORDER BY b.created_at, b.id)::int, 'sale', b.id, b.order_id,
  o.reference, o.reseller_reference, b.experience_id, b.slot_id, o.store_id, b.items, b.created_at,
  x.status, b.seats, b.currency, x.gross, x.commission, x.gross - x.commission, b.cancellation_fee, s.created_at
FROM "booking" b
JOIN "settlement" s ON s.id = b.settlement_id
JOIN "orders" o ON o.id = b.order_id
CROSS JOIN LATERAL (
  SELECT CASE WHEN b.status = 'Canceled' AND b.cancellation_fee = 0 THEN 'Confirmed' ELSE b.status END AS status,
    CASE WHEN b.status = 'Canceled' AND b.cancellation_fee > 0 THEN b.cancellation_fee ELSE b.total END AS gross,
    CASE WHEN b.status = 'Canceled' AND b.cancellation_fee > 0 THEN 0 ELSE b.commission END AS commission
) x;