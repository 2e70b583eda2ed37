-- An OCTO booking's UUID is unique per supplier (issue 29): the key was the UUID alone, so a
-- partner's key could learn whether a UUID was in use at another supplier.
ALTER TABLE "octo_booking" DROP CONSTRAINT "octo_booking_pkey";--> statement-breakpoint
ALTER TABLE "octo_booking" ADD CONSTRAINT "octo_booking_pkey" PRIMARY KEY("account_id","uuid");
