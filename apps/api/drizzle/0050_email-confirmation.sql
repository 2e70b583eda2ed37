-- A new sign-in address counts only once the link sent to it is followed (issue 29): the address
-- asked for waits in pending_email, its link is an action_token of purpose 'email_confirm', and
-- email_verified_at says whether the current address was proved (OpenID Connect links only those).
-- Addresses proved so far: an activation or an accepted invitation (activated_at).
ALTER TABLE "action_token" DROP CONSTRAINT "action_token_purpose_check";--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "email_verified_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "pending_email" text;--> statement-breakpoint
ALTER TABLE "action_token" ADD CONSTRAINT "action_token_purpose_check" CHECK ("action_token"."purpose" in ('activation', 'password_reset', 'invitation', 'email_reset', 'email_confirm', 'handoff'));--> statement-breakpoint
UPDATE "users" SET "email_verified_at" = "activated_at" WHERE "activated_at" IS NOT NULL;
