-- Pricing a line, in one place: the checks that need no lock (offer on sale, slot open, before
-- its cutoff, categories of this organisation with a price on the slot's date, extras offered
-- with the experience, participants within the limits) and the line's seats and total.
-- Used by tourdesk_hold (cart lines) and by order lines (create, change of quantities).
CREATE OR REPLACE FUNCTION tourdesk_price(p_account uuid, p_slot uuid, p_quantities jsonb, p_extras jsonb,
  OUT seats int, OUT total int, OUT participants int, OUT experience_id uuid, OUT currency text)
  LANGUAGE plpgsql AS $$
DECLARE
  v_slot slot;
  v_exp experience;
  v_acc base_account;
  v_cat pricing_category;
  v_key text;
  v_n int;
  v_price int;
  v_total bigint := 0;
BEGIN
  seats := 0;
  participants := 0;
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
    IF v_cat.occupies_seat THEN seats := seats + v_n; END IF;
    participants := participants + v_n;
    v_total := v_total + v_n::bigint * v_price;
  END LOOP;
  IF participants < v_exp.min_participants THEN
    RAISE EXCEPTION 'Book at least % participants.', v_exp.min_participants USING ERRCODE = 'TD400', HINT = 'quantities';
  END IF;
  IF v_exp.max_participants IS NOT NULL AND participants > v_exp.max_participants THEN
    RAISE EXCEPTION 'Book at most % participants.', v_exp.max_participants USING ERRCODE = 'TD400', HINT = 'quantities';
  END IF;
  FOR v_key, v_n IN SELECT key, value::int FROM jsonb_each_text(coalesce(p_extras, '{}'::jsonb)) LOOP
    CONTINUE WHEN v_n <= 0;
    SELECT i.price INTO v_price FROM inventory_item i WHERE i.account_id = p_account AND i.id = v_key::uuid AND i.id = ANY (v_exp.extra_item_ids);
    IF NOT FOUND THEN RAISE EXCEPTION 'This extra is not offered with this experience.' USING ERRCODE = 'TD400', HINT = 'extras'; END IF;
    v_total := v_total + v_n::bigint * v_price;
  END LOOP;
  IF v_total > 2147483647 THEN RAISE EXCEPTION 'This line is too large.' USING ERRCODE = 'TD400', HINT = 'quantities'; END IF;
  total := v_total;
  experience_id := v_exp.id;
  currency := v_acc.currency;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION tourdesk_hold(p_account uuid, p_user uuid, p_slot uuid, p_line uuid, p_quantities jsonb, p_extras jsonb, p_lock boolean DEFAULT true)
  RETURNS uuid LANGUAGE plpgsql AS $$
DECLARE
  v_cart uuid;
  v_price record;
  v_minutes int;
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
  SELECT * INTO v_price FROM tourdesk_price(p_account, p_slot, p_quantities, p_extras);
  SELECT hold_minutes INTO v_minutes FROM base_account WHERE id = p_account;

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
    VALUES (p_account, v_cart, p_slot, p_quantities, p_extras, v_price.seats, v_price.total, v_price.currency, now() + make_interval(mins => v_minutes));
  ELSE
    UPDATE cart_line SET quantities = p_quantities, extras = p_extras, seats = v_price.seats, total = v_price.total,
      expires_at = now() + make_interval(mins => v_minutes)
    WHERE id = p_line;
  END IF;
  RETURN v_cart;
END $$;
