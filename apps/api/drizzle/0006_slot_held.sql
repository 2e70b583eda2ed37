ALTER TABLE "slot" DROP CONSTRAINT "slot_capacity_check";--> statement-breakpoint
ALTER TABLE "slot" ADD COLUMN "held" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "slot" ADD CONSTRAINT "slot_capacity_check" CHECK ("slot"."capacity" >= 0 and "slot"."booked" >= 0 and "slot"."held" >= 0);--> statement-breakpoint
-- The capacity engine, in the database: every write that changes a slot's seats is one statement
-- on the slot's row, under its lock, like a single-row conditional decrement.
--
-- slot.held = the seats of every cart line of the slot (expired ones too, until swept), kept by
-- this trigger on every insert, change and delete of a line, cascades included.
CREATE OR REPLACE FUNCTION tourdesk_cart_line_held() RETURNS trigger
  LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' AND NEW.slot_id = OLD.slot_id THEN
    IF NEW.seats <> OLD.seats THEN
      UPDATE slot SET held = held + NEW.seats - OLD.seats WHERE id = NEW.slot_id;
    END IF;
    RETURN NULL;
  END IF;
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    UPDATE slot SET held = held - OLD.seats WHERE id = OLD.slot_id;
  END IF;
  IF TG_OP IN ('UPDATE', 'INSERT') THEN
    UPDATE slot SET held = held + NEW.seats WHERE id = NEW.slot_id;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER cart_line_held AFTER INSERT OR DELETE OR UPDATE OF seats, slot_id ON cart_line
  FOR EACH ROW EXECUTE FUNCTION tourdesk_cart_line_held();
--> statement-breakpoint
UPDATE slot SET held = coalesce((SELECT sum(l.seats) FROM cart_line l WHERE l.slot_id = slot.id), 0);
--> statement-breakpoint
-- Slots as the API shows them (the Slot schema of packages/contracts), the one definition of a
-- slot's state: seats left subtract the lines that expired but are not swept yet; "bookable"
-- needs an active offer, an open slot before its cutoff and a seat; "limited" is at most a fifth
-- of the capacity left; the price of each pricing category on the slot's local date (ISO weekday
-- 1 = Monday). security_invoker: row-level security applies as the caller.
CREATE VIEW slot_api WITH (security_invoker = true) AS
SELECT s.id, s.account_id, s.experience_id, s.local_date, s.starts_at, e.title AS experience_title,
  (SELECT row_to_json(j) FROM (SELECT
    s.id,
    s.experience_id AS experience,
    to_char(s.starts_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS starts_at,
    to_char(s.ends_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS ends_at,
    s.local_date,
    s.local_time,
    a.time_zone,
    s.capacity,
    s.booked,
    v.held,
    v.remaining,
    s.closed,
    v.open AND v.remaining > 0 AS bookable,
    CASE WHEN NOT v.open THEN 'closed'
         WHEN v.remaining <= 0 THEN 'sold_out'
         WHEN v.remaining <= greatest(1, floor(s.capacity * 0.2)) THEN 'limited'
         ELSE 'available' END AS status,
    coalesce(p.prices, '[]'::json) AS prices) j) AS json
FROM slot s
JOIN experience e ON e.id = s.experience_id
JOIN base_account a ON a.id = s.account_id
LEFT JOIN LATERAL (SELECT sum(l.seats)::int AS seats FROM cart_line l WHERE l.slot_id = s.id AND l.expires_at <= now()) x ON true
CROSS JOIN LATERAL (
  SELECT s.held - coalesce(x.seats, 0) AS held,
         greatest(0, s.capacity - s.booked - s.held + coalesce(x.seats, 0)) AS remaining,
         NOT s.closed AND e.status = 'Active'
           AND s.starts_at - make_interval(mins => coalesce(nullif(e.booking_cutoff_minutes, 0), a.default_cutoff_minutes)) > now() AS open) v
LEFT JOIN LATERAL (
  SELECT json_agg(json_build_object('pricing_category', r.pricing_category_id, 'retail_price', r.retail_price, 'currency', r.currency) ORDER BY r.pricing_category_id) AS prices
  FROM pricing_rate r
  WHERE r.account_id = s.account_id AND r.experience_id = s.experience_id
    AND (r.valid_from IS NULL OR r.valid_from <= s.local_date) AND (r.valid_to IS NULL OR r.valid_to >= s.local_date)
    AND (cardinality(r.weekdays) = 0 OR extract(isodow FROM s.local_date)::int = ANY (r.weekdays))) p ON true;
--> statement-breakpoint
-- A cart as the API shows it (the Cart schema): its unexpired lines, total and first expiry.
CREATE OR REPLACE FUNCTION tourdesk_cart(p_account uuid, p_cart uuid) RETURNS jsonb
  LANGUAGE sql STABLE AS $$
  SELECT jsonb_build_object(
    'id', p_cart,
    'lines', coalesce(jsonb_agg(jsonb_build_object(
        'id', l.id, 'slot', l.slot_id, 'experience', s.experience_id, 'experience_title', e.title,
        'starts_at', to_char(s.starts_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
        'quantities', l.quantities, 'extras', l.extras, 'seats', l.seats, 'total', l.total, 'currency', l.currency,
        'expires_at', to_char(l.expires_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')) ORDER BY l.created_at, l.id) FILTER (WHERE l.id IS NOT NULL), '[]'::jsonb),
    'total', coalesce(sum(l.total), 0),
    'currency', (SELECT currency FROM base_account WHERE id = p_account),
    'expires_at', to_char(min(l.expires_at) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))
  FROM cart_line l
  JOIN slot s ON s.id = l.slot_id
  JOIN experience e ON e.id = s.experience_id
  WHERE l.account_id = p_account AND l.cart_id = p_cart AND l.expires_at > now()
$$;
--> statement-breakpoint
-- Starts a tenant scope inside one statement (for the hot paths called outside a transaction):
-- the organisation, the tourdesk_app role (row-level security) and a lock timeout, until the
-- statement's own transaction ends.
CREATE OR REPLACE FUNCTION tourdesk_enter(p_account uuid) RETURNS void
  LANGUAGE plpgsql AS $$
BEGIN
  PERFORM set_config('app.account_id', p_account::text, true), set_config('role', 'tourdesk_app', true), set_config('lock_timeout', '5s', true);
END $$;
--> statement-breakpoint
-- The month calendar's hot path: an experience's slots between two local dates, as JSON text.
CREATE OR REPLACE FUNCTION tourdesk_availability(p_account uuid, p_experience uuid, p_from date, p_to date) RETURNS text
  LANGUAGE plpgsql AS $$
DECLARE
  v_out text;
BEGIN
  PERFORM tourdesk_enter(p_account);
  SELECT coalesce(json_agg(v.json ORDER BY v.starts_at), '[]')::text INTO v_out
  FROM slot_api v
  WHERE v.account_id = p_account AND v.experience_id = p_experience AND v.local_date BETWEEN p_from AND p_to;
  IF v_out = '[]' AND NOT EXISTS (SELECT 1 FROM experience WHERE account_id = p_account AND id = p_experience) THEN
    RAISE EXCEPTION 'No experience with this id.' USING ERRCODE = 'TD404';
  END IF;
  RETURN v_out;
END $$;
--> statement-breakpoint
-- Holds seats for a new cart line (p_line null) or changes a held line, in one statement that
-- commits on its own. Everything that needs no lock is checked first (offer on sale, slot open,
-- cutoff, categories and their prices, extras, participants); then the slot's row is locked by a
-- SELECT ... FOR UPDATE whose condition PostgreSQL re-checks on the newest row version after the
-- wait, and the line is written while the lock is held (the trigger adds its seats to slot.held).
-- A hold that does not fit sweeps the slot's expired lines and tries once more. Returns the cart's
-- id; the cart is read afterwards (tourdesk_cart_scoped), when the lock is released.
-- p_lock = false is the test-only switch that shows the race without the lock.
-- Errors: TD400 invalid, TD404 not found, TD409 sold out; the hint names the field.
CREATE OR REPLACE FUNCTION tourdesk_hold(p_account uuid, p_user uuid, p_slot uuid, p_line uuid, p_quantities jsonb, p_extras jsonb, p_lock boolean DEFAULT true)
  RETURNS uuid LANGUAGE plpgsql AS $$
DECLARE
  v_cart uuid;
  v_slot slot;
  v_exp experience;
  v_acc base_account;
  v_cat pricing_category;
  v_key text;
  v_n int;
  v_price int;
  v_seats int := 0;
  v_total bigint := 0;
  v_participants int := 0;
  v_own int := 0;
  v_remaining int;
  v_attempt int;
BEGIN
  PERFORM tourdesk_enter(p_account);
  INSERT INTO cart (account_id, user_id) VALUES (p_account, p_user) ON CONFLICT DO NOTHING;
  SELECT id INTO v_cart FROM cart WHERE account_id = p_account AND user_id = p_user;
  IF p_line IS NOT NULL THEN
    SELECT slot_id, seats INTO p_slot, v_own FROM cart_line WHERE account_id = p_account AND cart_id = v_cart AND id = p_line;
    IF NOT FOUND THEN RAISE EXCEPTION 'No such line in your cart.' USING ERRCODE = 'TD404'; END IF;
  END IF;
  SELECT * INTO v_slot FROM slot WHERE account_id = p_account AND id = p_slot;
  IF NOT FOUND THEN RAISE EXCEPTION 'No such time slot.' USING ERRCODE = 'TD404', HINT = 'slot'; END IF;
  SELECT * INTO v_exp FROM experience WHERE id = v_slot.experience_id;
  SELECT * INTO v_acc FROM base_account WHERE id = p_account;
  IF v_exp.status <> 'Active' THEN RAISE EXCEPTION 'This offer is not on sale.' USING ERRCODE = 'TD400', HINT = 'slot'; END IF;
  IF v_slot.closed THEN RAISE EXCEPTION 'This time slot is closed.' USING ERRCODE = 'TD400', HINT = 'slot'; END IF;
  IF v_slot.starts_at - make_interval(mins => coalesce(nullif(v_exp.booking_cutoff_minutes, 0), v_acc.default_cutoff_minutes)) <= now() THEN
    RAISE EXCEPTION 'Bookings for this time slot have closed.' USING ERRCODE = 'TD400', HINT = 'slot';
  END IF;

  FOR v_key, v_n IN SELECT key, value::int FROM jsonb_each_text(p_quantities) LOOP
    CONTINUE WHEN v_n <= 0;
    SELECT * INTO v_cat FROM pricing_category WHERE account_id = p_account AND id = v_key::uuid;
    IF NOT FOUND THEN RAISE EXCEPTION 'Unknown pricing category.' USING ERRCODE = 'TD400', HINT = 'quantities'; END IF;
    SELECT r.retail_price INTO v_price FROM pricing_rate r
    WHERE r.account_id = p_account AND r.experience_id = v_exp.id AND r.pricing_category_id = v_cat.id
      AND (r.valid_from IS NULL OR r.valid_from <= v_slot.local_date) AND (r.valid_to IS NULL OR r.valid_to >= v_slot.local_date)
      AND (cardinality(r.weekdays) = 0 OR extract(isodow FROM v_slot.local_date)::int = ANY (r.weekdays))
    LIMIT 1;
    IF NOT FOUND THEN
      RAISE EXCEPTION '% cannot be booked on this date: it has no price.', v_cat.label USING ERRCODE = 'TD400', HINT = 'quantities';
    END IF;
    IF v_cat.occupies_seat THEN v_seats := v_seats + v_n; END IF;
    v_participants := v_participants + v_n;
    v_total := v_total + v_n::bigint * v_price;
  END LOOP;
  IF v_participants < v_exp.min_participants THEN
    RAISE EXCEPTION 'Book at least % participants.', v_exp.min_participants USING ERRCODE = 'TD400', HINT = 'quantities';
  END IF;
  IF v_exp.max_participants IS NOT NULL AND v_participants > v_exp.max_participants THEN
    RAISE EXCEPTION 'Book at most % participants.', v_exp.max_participants USING ERRCODE = 'TD400', HINT = 'quantities';
  END IF;

  -- Extras: only those offered with the experience, at the inventory item's price.
  FOR v_key, v_n IN SELECT key, value::int FROM jsonb_each_text(p_extras) LOOP
    CONTINUE WHEN v_n <= 0;
    SELECT i.price INTO v_price FROM inventory_item i WHERE i.account_id = p_account AND i.id = v_key::uuid AND i.id = ANY (v_exp.extra_item_ids);
    IF NOT FOUND THEN RAISE EXCEPTION 'This extra is not offered with this experience.' USING ERRCODE = 'TD400', HINT = 'extras'; END IF;
    v_total := v_total + v_n::bigint * v_price;
  END LOOP;
  IF v_total > 2147483647 THEN RAISE EXCEPTION 'This line is too large.' USING ERRCODE = 'TD400', HINT = 'quantities'; END IF;

  FOR v_attempt IN 1..2 LOOP
    IF p_lock THEN
      SELECT capacity - booked - held + v_own INTO v_remaining FROM slot
      WHERE id = p_slot AND NOT closed AND capacity - booked - held + v_own >= v_seats FOR UPDATE;
    ELSE
      SELECT capacity - booked - held + v_own INTO v_remaining FROM slot
      WHERE id = p_slot AND NOT closed AND capacity - booked - held + v_own >= v_seats;
    END IF;
    EXIT WHEN FOUND;
    -- Expired lines still count in slot.held until swept: sweep this slot's, then try again.
    DELETE FROM cart_line WHERE slot_id = p_slot AND expires_at <= now() AND id IS DISTINCT FROM p_line;
    EXIT WHEN NOT FOUND;
  END LOOP;
  IF v_remaining IS NULL THEN
    SELECT greatest(0, capacity - booked - held + v_own) INTO v_remaining FROM slot WHERE id = p_slot;
    IF v_remaining <= 0 THEN
      RAISE EXCEPTION 'Sold out: no seats are left in this time slot.' USING ERRCODE = 'TD409', HINT = 'quantities';
    END IF;
    RAISE EXCEPTION 'Sold out: only % seat% left in this time slot.', v_remaining, CASE WHEN v_remaining = 1 THEN '' ELSE 's' END
      USING ERRCODE = 'TD409', HINT = 'quantities';
  END IF;

  IF p_line IS NULL THEN
    INSERT INTO cart_line (account_id, cart_id, slot_id, quantities, extras, seats, total, currency, expires_at)
    VALUES (p_account, v_cart, p_slot, p_quantities, p_extras, v_seats, v_total, v_acc.currency, now() + make_interval(mins => v_acc.hold_minutes));
  ELSE
    UPDATE cart_line SET quantities = p_quantities, extras = p_extras, seats = v_seats, total = v_total,
      expires_at = now() + make_interval(mins => v_acc.hold_minutes)
    WHERE id = p_line;
  END IF;
  RETURN v_cart;
END $$;
--> statement-breakpoint
-- The cart, read in its own statement (after a hold commits, outside the slot's lock).
CREATE OR REPLACE FUNCTION tourdesk_cart_scoped(p_account uuid, p_cart uuid) RETURNS jsonb
  LANGUAGE plpgsql AS $$
BEGIN
  PERFORM tourdesk_enter(p_account);
  RETURN tourdesk_cart(p_account, p_cart);
END $$;
