ALTER TABLE "cart" ADD COLUMN "client_hash" text;--> statement-breakpoint
CREATE INDEX "cart_client_idx" ON "cart" USING btree ("account_id","client_hash") WHERE "cart"."client_hash" is not null;