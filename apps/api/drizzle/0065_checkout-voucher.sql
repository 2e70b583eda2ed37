-- Issue 32: an online payment carries the gift voucher its order spends when written (the card pays the rest, or its deposit).
ALTER TABLE "online_checkout" ADD COLUMN "voucher_code" text;--> statement-breakpoint
ALTER TABLE "online_checkout" ADD COLUMN "voucher_amount" integer;