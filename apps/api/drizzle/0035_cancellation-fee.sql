ALTER TABLE "booking" ADD COLUMN "cancellation_fee" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "cancellation_fee" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "booking" ADD CONSTRAINT "booking_cancellation_fee_check" CHECK ("booking"."cancellation_fee" >= 0 and "booking"."cancellation_fee" <= "booking"."total");--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_cancellation_fee_check" CHECK ("orders"."cancellation_fee" >= 0 and "orders"."cancellation_fee" <= "orders"."total");