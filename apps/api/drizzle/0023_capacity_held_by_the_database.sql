ALTER TABLE "slot" ADD COLUMN "capacity_by_hand" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "slot" ADD COLUMN "closed_by_hand" boolean DEFAULT false NOT NULL;--> statement-breakpoint
-- A deleted slot's lines now go by the foreign key's cascade, not by a trigger; lines whose slot is
-- gone (none should be) are deleted first so the keys can be made.
DROP TRIGGER IF EXISTS slot_deleted ON slot;--> statement-breakpoint
DROP FUNCTION IF EXISTS tourdesk_slot_deleted();--> statement-breakpoint
DELETE FROM "cart_line" l WHERE NOT EXISTS (SELECT 1 FROM "slot" s WHERE s.id = l."slot_id");--> statement-breakpoint
ALTER TABLE "cart_line" ADD CONSTRAINT "cart_line_slot_fk" FOREIGN KEY ("slot_id") REFERENCES "public"."slot"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cart_line" ADD CONSTRAINT "cart_line_account_fk" FOREIGN KEY ("account_id") REFERENCES "public"."base_account"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- The slot's seats as the check needs them (held and booked never exceeded capacity but by a bug).
UPDATE "slot" SET "capacity" = "booked" + "held" WHERE "booked" + "held" > "capacity";--> statement-breakpoint
ALTER TABLE "slot" ADD CONSTRAINT "slot_seats_check" CHECK ("slot"."booked" + "slot"."held" <= "slot"."capacity");