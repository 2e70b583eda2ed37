-- Lock order: every writer locks a slot's row before its cart lines. A hold that sweeps a
-- slot's expired lines now locks the slot first (a sweep that locked lines first could deadlock
-- with a checkout, which locks the slot and then deletes its lines).
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
    -- Expired lines still count in slot.held until swept: sweep this slot's, then try again —
    -- the slot's row locked first, then its lines, the order every writer takes them in.
    PERFORM 1 FROM slot WHERE id = p_slot FOR UPDATE;
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
--> statement-breakpoint
-- The day of a slot as YYYY-MM-DD whatever the session's DateStyle.
CREATE OR REPLACE VIEW slot_api WITH (security_invoker = true) AS
SELECT b.*,
  '{"id":"' || b.id || '","experience":"' || b.experience_id
  || '","starts_at":"' || to_char(b.starts_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
  || '","ends_at":"' || to_char(b.ends_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
  || '","local_date":"' || b.day || '","local_time":"' || b.local_time || '","time_zone":"' || b.time_zone
  || '","capacity":' || b.capacity || ',"booked":' || b.booked || ',"held":' || b.held || ',"remaining":' || b.remaining
  || ',"closed":' || b.closed || ',"bookable":' || (b.open AND b.remaining > 0)
  || ',"status":"' || CASE WHEN NOT b.open THEN 'closed'
                           WHEN b.remaining <= 0 THEN 'sold_out'
                           WHEN b.remaining <= greatest(1, floor(b.capacity * 0.2)) THEN 'limited'
                           ELSE 'available' END || '"' AS head
FROM (
  SELECT s.id, s.account_id, s.experience_id, e.title AS experience_title, s.starts_at, s.ends_at,
    s.local_date, to_char(s.local_date, 'YYYY-MM-DD') AS day, s.local_time, a.time_zone,
    s.capacity, s.booked, s.held - coalesce(x.seats, 0) AS held, s.closed,
    greatest(0, s.capacity - s.booked - s.held + coalesce(x.seats, 0)) AS remaining,
    NOT s.closed AND e.status = 'Active'
      AND s.starts_at - make_interval(mins => coalesce(nullif(e.booking_cutoff_minutes, 0), a.default_cutoff_minutes)) > now() AS open
  FROM slot s
  JOIN experience e ON e.id = s.experience_id
  JOIN base_account a ON a.id = s.account_id
  LEFT JOIN (SELECT l.slot_id, sum(l.seats)::int AS seats FROM cart_line l WHERE l.expires_at <= now() GROUP BY l.slot_id) x ON x.slot_id = s.id
) b;
