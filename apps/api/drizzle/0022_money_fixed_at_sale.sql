-- tourdesk_price and tourdesk_hold_many answer with the items of a line now: their result types
-- change, so they are dropped here and made again from src/db/functions after the migrations.
DROP FUNCTION IF EXISTS tourdesk_price(uuid, uuid, jsonb, jsonb);--> statement-breakpoint
DROP FUNCTION IF EXISTS tourdesk_hold_many(uuid, uuid, jsonb, boolean);--> statement-breakpoint
ALTER TABLE "orders" DROP CONSTRAINT "orders_payment_status_check";--> statement-breakpoint
ALTER TABLE "orders" DROP CONSTRAINT "orders_money_check";--> statement-breakpoint
ALTER TABLE "booking" ADD COLUMN "tax_rate_bp" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "booking" ADD COLUMN "net" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "booking" ADD COLUMN "tax" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "booking" ADD COLUMN "items" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "cart_line" ADD COLUMN "items" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "sold_total" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "order_payment" ADD COLUMN "refund_of" uuid;--> statement-breakpoint
ALTER TABLE "order_payment" ADD COLUMN "reason" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "order_payment" ADD CONSTRAINT "order_payment_refund_of_order_payment_id_fk" FOREIGN KEY ("refund_of") REFERENCES "public"."order_payment"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "order_payment_refund_idx" ON "order_payment" USING btree ("refund_of");--> statement-breakpoint
-- Lines sold before: their VAT at the rate the order showed (the experience's, else the
-- organisation's), and their items at today's prices when those explain the stored total exactly;
-- otherwise one item for the whole line at its total.
UPDATE "booking" b SET "tax_rate_bp" = r.rate,
  "tax" = (2 * b."total"::bigint * r.rate + (10000 + r.rate)) / (2 * (10000 + r.rate)),
  "net" = b."total" - (2 * b."total"::bigint * r.rate + (10000 + r.rate)) / (2 * (10000 + r.rate))
FROM (SELECT b2.id, coalesce(e."vat_rate_bp", a."vat_rate_bp") AS rate FROM "booking" b2
      JOIN "experience" e ON e.id = b2."experience_id" JOIN "base_account" a ON a.id = b2."account_id") r
WHERE r.id = b.id;--> statement-breakpoint
UPDATE "booking" b SET "items" = x.items
FROM (
  SELECT b2.id,
    CASE WHEN coalesce(sum(i.quantity * i.unit_price), -1) = b2."total" THEN jsonb_agg(jsonb_build_object('kind', i.kind, 'id', i.ref, 'label', i.label, 'quantity', i.quantity, 'unit_price', i.unit_price,
           'total', i.quantity * i.unit_price, 'tax_rate_bp', b2."tax_rate_bp",
           'tax', (2 * (i.quantity * i.unit_price)::bigint * b2."tax_rate_bp" + (10000 + b2."tax_rate_bp")) / (2 * (10000 + b2."tax_rate_bp")),
           'net', i.quantity * i.unit_price - (2 * (i.quantity * i.unit_price)::bigint * b2."tax_rate_bp" + (10000 + b2."tax_rate_bp")) / (2 * (10000 + b2."tax_rate_bp"))))
    ELSE NULL END AS items
  FROM "booking" b2
  LEFT JOIN LATERAL (
    SELECT 'category' AS kind, c.id::text AS ref, c.label, q.value::int AS quantity,
      (SELECT r."retail_price" FROM "pricing_rate" r JOIN "slot" s ON s.id = b2."slot_id"
        WHERE r."account_id" = b2."account_id" AND r."experience_id" = b2."experience_id" AND r."pricing_category_id" = c.id
          AND (r."valid_from" IS NULL OR r."valid_from" <= s."local_date") AND (r."valid_to" IS NULL OR r."valid_to" >= s."local_date")
          AND (cardinality(r."weekdays") = 0 OR extract(isodow FROM s."local_date")::int = ANY (r."weekdays")) LIMIT 1) AS unit_price
    FROM jsonb_each_text(b2."quantities") q JOIN "pricing_category" c ON c.id = q.key::uuid WHERE q.value::int > 0
    UNION ALL
    SELECT 'extra', it.id::text, it.name, q.value::int, it.price
    FROM jsonb_each_text(b2."extras") q JOIN "inventory_item" it ON it.id = q.key::uuid WHERE q.value::int > 0
  ) i ON true
  GROUP BY b2.id
) x WHERE x.id = b.id AND x.items IS NOT NULL;--> statement-breakpoint
UPDATE "booking" b SET "items" = jsonb_build_array(jsonb_build_object('kind', 'category', 'id', b."experience_id", 'label', e."title", 'quantity', 1,
  'unit_price', b."total", 'total', b."total", 'tax_rate_bp', b."tax_rate_bp", 'tax', b."tax", 'net', b."net"))
FROM "experience" e WHERE e.id = b."experience_id" AND b."items" = '[]'::jsonb;--> statement-breakpoint
UPDATE "orders" o SET "sold_total" = coalesce((SELECT sum(b."total") FROM "booking" b WHERE b."order_id" = o.id), 0),
  "payment_status" = CASE
    WHEN o."paid" > o."total" THEN 'Refund due'
    WHEN o."paid" = o."total" AND o."total" > 0 THEN 'Fully paid'
    WHEN o."paid" <= 0 AND o."refunded" > 0 AND o."total" = 0 THEN 'Refunded'
    WHEN o."paid" <= 0 THEN 'Not paid'
    ELSE 'Partially paid' END;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_payment_status_check" CHECK ("orders"."payment_status" in ('Not paid', 'Partially paid', 'Fully paid', 'Refund due', 'Refunded'));--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_money_check" CHECK ("orders"."total" >= 0 and "orders"."sold_total" >= "orders"."total" and "orders"."tax_total" >= 0 and "orders"."refunded" >= 0 and "orders"."paid" >= 0);