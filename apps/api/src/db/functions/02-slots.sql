-- Current definition, applied at every start after the versioned migrations (see
-- src/db/functions.ts): edit it here; a change of a function's arguments or result type needs a
-- versioned migration that drops the old one first.

-- "Open for sale" and "seats remaining": the one definition of each, used by the slot view, the
-- month calendar, holds (tourdesk_price), checkout (through slot_api.open) and the capacity pages.
-- A slot is open for sale when it is not closed, its offer is on sale (Active) and it starts after
-- now + the booking cutoff (the offer's, else the organisation's): tourdesk_open_after() is that
-- moment for an offer (infinity when it is not on sale), tourdesk_slot_open() the test.
CREATE OR REPLACE FUNCTION tourdesk_open_after(p_offer_status text, p_offer_cutoff int, p_account_cutoff int) RETURNS timestamptz
  LANGUAGE sql STABLE PARALLEL SAFE AS $$
  SELECT CASE WHEN p_offer_status = 'Active' THEN now() + make_interval(mins => coalesce(nullif(p_offer_cutoff, 0), p_account_cutoff))
              ELSE 'infinity'::timestamptz END
$$;

CREATE OR REPLACE FUNCTION tourdesk_slot_open(p_closed boolean, p_starts_at timestamptz, p_open_after timestamptz) RETURNS boolean
  LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT NOT p_closed AND p_starts_at > p_open_after
$$;

-- Seats remaining: capacity − booked − held, where held still counts the lines whose hold ran out
-- until a sweep deletes them (p_expired: their seats, which are free for anyone who needs them).
-- The capacity stops at what the departure's guides can take (p_guide_seats, slot.guide_seats:
-- null when its offer needs no guides; least() ignores a null), issue 34.
-- A departure's seats left are least(this, tourdesk_pool_seats(slot)) when its offer uses resource
-- pools (02-pools.sql, issue 34; tourdesk_pooled() tells): slot_api.remaining and
-- tourdesk_availability say so, and every hold and sale checks each pool's units exactly, with the
-- pool locked after the slot.
CREATE OR REPLACE FUNCTION tourdesk_seats_left(p_capacity int, p_guide_seats int, p_booked int, p_held int, p_expired int) RETURNS int
  LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT greatest(0, least(p_capacity, p_guide_seats) - p_booked - p_held + p_expired)
$$;

-- The month calendar, worked out per offer instead of per slot (measured with pgbench on a month
-- of 186 slots, 8 clients: 1,880 calls/s before, 3,000 after; with a hold in every slot, 630
-- before and 1,750 after).
--
-- 1. A slot's expired, unswept lines are summed by one aggregate per slot. 0017 wrote it as a
--    scalar subquery in a CASE, which the planner copied into every column that used it (held,
--    remaining, bookable, status): a slot that held something was scanned five times.
-- 2. The status rule is one function, used by the view and by tourdesk_availability (inlined
--    by the planner: it costs what the CASE did).
-- 3. tourdesk_availability reads the offer and the organisation once (whether the offer is on
--    sale, its cutoff, the time zone) instead of joining them to every slot, and hands over each
--    slot's fixed part and state only: the time zone comes once, with the rates, in the first
--    row, and the API reads the local date from the fixed part.
CREATE OR REPLACE FUNCTION tourdesk_slot_status(p_open boolean, p_remaining int, p_capacity int) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE WHEN NOT p_open THEN 'closed'
              WHEN p_remaining <= 0 THEN 'sold_out'
              WHEN p_remaining <= greatest(1, p_capacity / 5) THEN 'limited'
              ELSE 'available' END
$$;

-- The "sold out" message with the seats left (shared by every hold path).
CREATE OR REPLACE FUNCTION tourdesk_sold_out(p_remaining int) RETURNS text
  LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE WHEN p_remaining <= 0 THEN 'Sold out: no seats are left in this time slot.'
              ELSE format('Sold out: only %s seat%s left in this time slot.', p_remaining, CASE WHEN p_remaining = 1 THEN '' ELSE 's' END) END
$$;

-- The month calendar cost the database more to build each slot's JSON text than to find the
-- slots: every `text || integer` looks up the integer's output function again, row after row
-- (measured: 2.3 ms for a month of 186 slots, 0.9 ms without the text). Now the slot's fixed part
-- (id, offer, times, local date and time) is written once, when the slot is, by this trigger, and
-- the view hands over that text with the slot's state as plain columns; the API (slotTexts() in
-- slots.ts) joins them into the Slot schema's JSON, where that costs next to nothing. Every value
-- is an id, an ISO time, a date or "HH:MM": nothing to escape.
CREATE OR REPLACE FUNCTION tourdesk_slot_head() RETURNS trigger
  LANGUAGE plpgsql AS $$
BEGIN
  NEW.api_head := '{"id":"' || NEW.id::text || '","experience":"' || NEW.experience_id::text
    || '","starts_at":"' || to_char(NEW.starts_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
    || '","ends_at":"' || to_char(NEW.ends_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
    || '","local_date":"' || to_char(NEW.local_date, 'YYYY-MM-DD') || '","local_time":"' || NEW.local_time || '"';
  RETURN NEW;
END $$;

-- The one definition of a slot's state, as in 0017: seats left subtract the lines that expired
-- but are not swept yet (looked for only in slots that hold something); bookable needs an open
-- slot of an offer on sale before its cutoff and a seat. (No `day` column any more: the API
-- reads the local date from the fixed part.)
CREATE OR REPLACE VIEW slot_api WITH (security_invoker = true) AS
SELECT b.*,
  (b.open AND b.remaining > 0) AS bookable,
  tourdesk_slot_status(b.open, b.remaining, b.capacity) AS status
FROM (
  SELECT s.id, s.account_id, s.experience_id, e.title AS experience_title, s.starts_at, s.ends_at,
    s.local_date, s.local_time, a.time_zone, s.api_head,
    s.capacity, s.booked, s.held - x.seats AS held, s.closed,
    least(tourdesk_seats_left(s.capacity, s.guide_seats, s.booked, s.held, x.seats),
          CASE WHEN tourdesk_pooled(s.account_id, s.experience_id) THEN tourdesk_pool_seats(s.id) END) AS remaining,
    tourdesk_slot_open(s.closed, s.starts_at, tourdesk_open_after(e.status, e.booking_cutoff_minutes, a.default_cutoff_minutes)) AS open
  FROM slot s
  JOIN experience e ON e.id = s.experience_id
  JOIN base_account a ON a.id = s.account_id
  CROSS JOIN LATERAL (SELECT coalesce(sum(l.seats)::int, 0) AS seats FROM cart_line l
                      WHERE s.held > 0 AND l.slot_id = s.id AND l.expires_at <= now()) x
) b;

-- The month calendar's hot path: first row, in `rates`, {"time_zone": …, "rates": [the offer's
-- price rates]}; then the offer's slots between two local dates, as the fixed part and the state
-- (the same state as slot_api: a slot is open when it is not closed, the offer is on sale and the
-- slot starts after now + the cutoff).
CREATE OR REPLACE FUNCTION tourdesk_availability(p_account uuid, p_experience uuid, p_from date, p_to date)
  RETURNS TABLE (api_head text, capacity int, booked int, held int, remaining int, closed boolean, bookable boolean, status text, rates text)
  LANGUAGE plpgsql AS $$
#variable_conflict use_column
DECLARE
  v_open_after timestamptz;
  v_zone text;
  v_pooled boolean;
BEGIN
  PERFORM tourdesk_enter(p_account);
  v_pooled := tourdesk_pooled(p_account, p_experience);
  SELECT tourdesk_open_after(e.status, e.booking_cutoff_minutes, a.default_cutoff_minutes), a.time_zone
    INTO v_open_after, v_zone
  FROM experience e JOIN base_account a ON a.id = e.account_id
  WHERE e.account_id = p_account AND e.id = p_experience;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'No experience with this id.' USING ERRCODE = 'TD404';
  END IF;
  RETURN QUERY
    SELECT NULL::text, NULL::int, NULL::int, NULL::int, NULL::int, NULL::boolean, NULL::boolean, NULL::text,
      json_build_object('time_zone', v_zone, 'rates', coalesce(json_agg(json_build_object('pricing_category', pr.pricing_category_id,
        'retail_price', pr.retail_price, 'net_price', pr.net_price, 'currency', pr.currency, 'valid_from', pr.valid_from, 'valid_to', pr.valid_to,
        'weekdays', pr.weekdays) ORDER BY pr.pricing_category_id), '[]'))::text
    FROM pricing_rate pr WHERE pr.account_id = p_account AND pr.experience_id = p_experience;
  RETURN QUERY
    SELECT b.api_head, b.capacity, b.booked, b.held, b.remaining, b.closed, b.open AND b.remaining > 0,
      tourdesk_slot_status(b.open, b.remaining, b.capacity), NULL::text
    FROM (
      SELECT s.id, s.starts_at, s.api_head, s.capacity, s.booked, s.held - x.seats AS held, s.closed,
        least(tourdesk_seats_left(s.capacity, s.guide_seats, s.booked, s.held, x.seats),
              CASE WHEN v_pooled THEN tourdesk_pool_seats(s.id) END) AS remaining,
        tourdesk_slot_open(s.closed, s.starts_at, v_open_after) AS open
      FROM slot s
      CROSS JOIN LATERAL (SELECT coalesce(sum(l.seats)::int, 0) AS seats FROM cart_line l
                          WHERE s.held > 0 AND l.slot_id = s.id AND l.expires_at <= now()) x
      WHERE s.account_id = p_account AND s.experience_id = p_experience AND s.local_date BETWEEN p_from AND p_to
    ) b
    ORDER BY b.starts_at, b.id;
END $$;
