-- The hold path in fewer statements (the same rules as 0009): the slot, its experience and the
-- organisation in one query; each requested category with its price in one query; the cart found
-- before it is created. tourdesk_price also returns the organisation's hold time.
DROP FUNCTION tourdesk_price(uuid, uuid, jsonb, jsonb);
--> statement-breakpoint
CREATE FUNCTION tourdesk_price(p_account uuid, p_slot uuid, p_quantities jsonb, p_extras jsonb,
  OUT seats int, OUT total int, OUT participants int, OUT experience_id uuid, OUT currency text, OUT hold_minutes int)
  LANGUAGE plpgsql AS $$
DECLARE
  v record;
  v_line record;
  v_total bigint := 0;
BEGIN
  seats := 0;
  participants := 0;
  SELECT s.local_date, s.closed, s.starts_at, e.id AS exp_id, e.status, e.booking_cutoff_minutes, e.min_participants, e.max_participants,
         e.extra_item_ids, a.default_cutoff_minutes, a.currency, a.hold_minutes
    INTO v
  FROM slot s JOIN experience e ON e.id = s.experience_id JOIN base_account a ON a.id = s.account_id
  WHERE s.account_id = p_account AND s.id = p_slot;
  IF NOT FOUND THEN RAISE EXCEPTION 'No such time slot.' USING ERRCODE = 'TD404', HINT = 'slot'; END IF;
  IF v.status <> 'Active' THEN RAISE EXCEPTION 'This offer is not on sale.' USING ERRCODE = 'TD400', HINT = 'slot'; END IF;
  IF v.closed THEN RAISE EXCEPTION 'This time slot is closed.' USING ERRCODE = 'TD400', HINT = 'slot'; END IF;
  IF v.starts_at - make_interval(mins => coalesce(nullif(v.booking_cutoff_minutes, 0), v.default_cutoff_minutes)) <= now() THEN
    RAISE EXCEPTION 'Bookings for this time slot have closed.' USING ERRCODE = 'TD400', HINT = 'slot';
  END IF;
  FOR v_line IN
    SELECT q.value::int AS n, c.id, c.label, c.occupies_seat,
           (SELECT r.retail_price FROM pricing_rate r
             WHERE r.account_id = p_account AND r.experience_id = v.exp_id AND r.pricing_category_id = c.id
               AND (r.valid_from IS NULL OR r.valid_from <= v.local_date) AND (r.valid_to IS NULL OR r.valid_to >= v.local_date)
               AND (cardinality(r.weekdays) = 0 OR extract(isodow FROM v.local_date)::int = ANY (r.weekdays))
             LIMIT 1) AS price
    FROM jsonb_each_text(p_quantities) q
    LEFT JOIN pricing_category c ON c.account_id = p_account AND c.id = q.key::uuid
    WHERE q.value::int > 0
  LOOP
    IF v_line.id IS NULL THEN RAISE EXCEPTION 'Unknown pricing category.' USING ERRCODE = 'TD400', HINT = 'quantities'; END IF;
    IF v_line.price IS NULL THEN
      RAISE EXCEPTION '% cannot be booked on this date: it has no price.', v_line.label USING ERRCODE = 'TD400', HINT = 'quantities';
    END IF;
    IF v_line.occupies_seat THEN seats := seats + v_line.n; END IF;
    participants := participants + v_line.n;
    v_total := v_total + v_line.n::bigint * v_line.price;
  END LOOP;
  IF participants < v.min_participants THEN
    RAISE EXCEPTION 'Book at least % participants.', v.min_participants USING ERRCODE = 'TD400', HINT = 'quantities';
  END IF;
  IF v.max_participants IS NOT NULL AND participants > v.max_participants THEN
    RAISE EXCEPTION 'Book at most % participants.', v.max_participants USING ERRCODE = 'TD400', HINT = 'quantities';
  END IF;
  IF p_extras IS NOT NULL AND p_extras <> '{}'::jsonb THEN
    FOR v_line IN
      SELECT q.value::int AS n, i.price FROM jsonb_each_text(p_extras) q
      LEFT JOIN inventory_item i ON i.account_id = p_account AND i.id = q.key::uuid AND i.id = ANY (v.extra_item_ids)
      WHERE q.value::int > 0
    LOOP
      IF v_line.price IS NULL THEN RAISE EXCEPTION 'This extra is not offered with this experience.' USING ERRCODE = 'TD400', HINT = 'extras'; END IF;
      v_total := v_total + v_line.n::bigint * v_line.price;
    END LOOP;
  END IF;
  IF v_total > 2147483647 THEN RAISE EXCEPTION 'This line is too large.' USING ERRCODE = 'TD400', HINT = 'quantities'; END IF;
  total := v_total;
  experience_id := v.exp_id;
  currency := v.currency;
  hold_minutes := v.hold_minutes;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION tourdesk_hold(p_account uuid, p_user uuid, p_slot uuid, p_line uuid, p_quantities jsonb, p_extras jsonb, p_lock boolean DEFAULT true)
  RETURNS uuid LANGUAGE plpgsql AS $$
DECLARE
  v_cart uuid;
  v_price record;
  v_own int := 0;
  v_remaining int;
  v_attempt int;
BEGIN
  PERFORM set_config('app.account_id', p_account::text, true), set_config('role', 'tourdesk_app', true), set_config('lock_timeout', '5s', true);
  SELECT id INTO v_cart FROM cart WHERE account_id = p_account AND user_id = p_user;
  IF NOT FOUND THEN
    INSERT INTO cart (account_id, user_id) VALUES (p_account, p_user) ON CONFLICT DO NOTHING;
    SELECT id INTO v_cart FROM cart WHERE account_id = p_account AND user_id = p_user;
  END IF;
  IF p_line IS NOT NULL THEN
    SELECT slot_id, seats INTO p_slot, v_own FROM cart_line WHERE account_id = p_account AND cart_id = v_cart AND id = p_line;
    IF NOT FOUND THEN RAISE EXCEPTION 'No such line in your cart.' USING ERRCODE = 'TD404'; END IF;
  END IF;
  SELECT * INTO v_price FROM tourdesk_price(p_account, p_slot, p_quantities, p_extras);

  FOR v_attempt IN 1..2 LOOP
    IF p_lock THEN
      SELECT capacity - booked - held + v_own INTO v_remaining FROM slot
      WHERE id = p_slot AND NOT closed AND capacity - booked - held + v_own >= v_price.seats FOR UPDATE;
    ELSE
      SELECT capacity - booked - held + v_own INTO v_remaining FROM slot
      WHERE id = p_slot AND NOT closed AND capacity - booked - held + v_own >= v_price.seats;
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
    VALUES (p_account, v_cart, p_slot, p_quantities, p_extras, v_price.seats, v_price.total, v_price.currency, now() + make_interval(mins => v_price.hold_minutes));
  ELSE
    UPDATE cart_line SET quantities = p_quantities, extras = p_extras, seats = v_price.seats, total = v_price.total,
      expires_at = now() + make_interval(mins => v_price.hold_minutes)
    WHERE id = p_line;
  END IF;
  RETURN v_cart;
END $$;
