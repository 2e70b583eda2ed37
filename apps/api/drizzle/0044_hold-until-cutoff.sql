-- A hold never outlives its slot's cut-off (issue 28): OCTO's extend added up to 60 minutes a call
-- with no overall cap and a web payment stretched its hold to the Stripe session's expiry (up to
-- 24 hours), so a hold could still be live when its departure started. Every write of a cart line
-- now has its expiry cut at the moment its slot stops being on sale: the slot's start minus the
-- booking cut-off (the offer's, else the organisation's) — whoever writes it. The function's
-- current definition lives in src/db/functions/04-carts.sql; this makes the trigger, and cuts the
-- holds already made.
CREATE OR REPLACE FUNCTION tourdesk_hold_until_cutoff() RETURNS trigger
  LANGUAGE plpgsql AS $$
DECLARE
  v_until timestamptz;
BEGIN
  SELECT s.starts_at - make_interval(mins => coalesce(nullif(e.booking_cutoff_minutes, 0), a.default_cutoff_minutes))
  INTO v_until
  FROM slot s
  JOIN experience e ON e.id = s.experience_id
  JOIN base_account a ON a.id = s.account_id
  WHERE s.id = NEW.slot_id;
  IF v_until IS NOT NULL AND NEW.expires_at > v_until THEN
    NEW.expires_at := v_until;
  END IF;
  RETURN NEW;
END $$;
--> statement-breakpoint
CREATE TRIGGER cart_line_until_cutoff BEFORE INSERT OR UPDATE OF expires_at, slot_id ON cart_line
  FOR EACH ROW EXECUTE FUNCTION tourdesk_hold_until_cutoff();
--> statement-breakpoint
UPDATE cart_line l SET expires_at = l.expires_at;
