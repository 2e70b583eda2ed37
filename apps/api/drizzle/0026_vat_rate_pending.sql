ALTER TABLE "booking" ADD COLUMN "tax_rate_pending" boolean DEFAULT false NOT NULL;--> statement-breakpoint
-- Lines sold at 0 % while neither their experience nor their organisation had a rate, on orders
-- not yet invoiced: their rate is applied when the order is invoiced.
UPDATE "booking" b SET "tax_rate_pending" = true
FROM "experience" x
WHERE x.id = b.experience_id AND x.vat_rate_bp IS NULL AND b.tax_rate_bp = 0
  AND NOT EXISTS (SELECT 1 FROM "invoice" i WHERE i.order_id = b.order_id);
