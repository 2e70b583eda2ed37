-- Current definition, applied at every start after the versioned migrations (see
-- src/db/functions.ts): edit it here; a change of a function's arguments or result type needs a
-- versioned migration that drops the old one first.

-- A line's price and every rule a hold checks without a lock: the offer on sale, the slot open and
-- before its cutoff, each category known and priced on the slot's date, the participants within the
-- offer's limits, the extras offered with it. Raises TD400/TD404 with the field in the hint.
CREATE OR REPLACE FUNCTION tourdesk_price(p_account uuid, p_slot uuid, p_quantities jsonb, p_extras jsonb,
  OUT seats int, OUT total int, OUT participants int, OUT experience_id uuid, OUT currency text, OUT hold_minutes int, OUT items jsonb)
  LANGUAGE plpgsql AS $$
DECLARE
  v record;
  v_line record;
  v_total bigint := 0;
BEGIN
  seats := 0;
  participants := 0;
  items := '[]';
  SELECT s.local_date, s.closed, s.starts_at, e.id AS exp_id, e.status, e.booking_cutoff_minutes, e.min_participants, e.max_participants,
         e.extra_item_ids, a.default_cutoff_minutes, a.currency, a.hold_minutes
    INTO v
  FROM slot s JOIN experience e ON e.id = s.experience_id JOIN base_account a ON a.id = s.account_id
  WHERE s.account_id = p_account AND s.id = p_slot;
  IF NOT FOUND THEN RAISE EXCEPTION 'No such time slot.' USING ERRCODE = 'TD404', HINT = 'slot'; END IF;
  -- Open for sale (tourdesk_slot_open, the one definition); when not, say why.
  IF NOT tourdesk_slot_open(v.closed, v.starts_at, tourdesk_open_after(v.status, v.booking_cutoff_minutes, v.default_cutoff_minutes)) THEN
    IF v.status <> 'Active' THEN RAISE EXCEPTION 'This offer is not on sale.' USING ERRCODE = 'TD400', HINT = 'slot'; END IF;
    IF v.closed THEN RAISE EXCEPTION 'This time slot is closed.' USING ERRCODE = 'TD400', HINT = 'slot'; END IF;
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
    -- What the line sells, item by item, at the price of the day: the cart shows it, checkout keeps it.
    items := items || jsonb_build_object('kind', 'category', 'id', v_line.id, 'label', v_line.label, 'quantity', v_line.n, 'unit_price', v_line.price);
  END LOOP;
  IF participants < v.min_participants THEN
    RAISE EXCEPTION 'Book at least % participants.', v.min_participants USING ERRCODE = 'TD400', HINT = 'quantities';
  END IF;
  IF v.max_participants IS NOT NULL AND participants > v.max_participants THEN
    RAISE EXCEPTION 'Book at most % participants.', v.max_participants USING ERRCODE = 'TD400', HINT = 'quantities';
  END IF;
  IF p_extras IS NOT NULL AND p_extras <> '{}'::jsonb THEN
    FOR v_line IN
      SELECT q.value::int AS n, i.id, i.name, i.price FROM jsonb_each_text(p_extras) q
      LEFT JOIN inventory_item i ON i.account_id = p_account AND i.id = q.key::uuid AND i.id = ANY (v.extra_item_ids)
      WHERE q.value::int > 0
    LOOP
      IF v_line.price IS NULL THEN RAISE EXCEPTION 'This extra is not offered with this experience.' USING ERRCODE = 'TD400', HINT = 'extras'; END IF;
      v_total := v_total + v_line.n::bigint * v_line.price;
      items := items || jsonb_build_object('kind', 'extra', 'id', v_line.id, 'label', v_line.name, 'quantity', v_line.n, 'unit_price', v_line.price);
    END LOOP;
  END IF;
  IF v_total > 2147483647 THEN RAISE EXCEPTION 'This line is too large.' USING ERRCODE = 'TD400', HINT = 'quantities'; END IF;
  total := v_total;
  experience_id := v.exp_id;
  currency := v.currency;
  hold_minutes := v.hold_minutes;
END $$;

-- The "from" price an offer is advertised with, everywhere (the catalogue, the web store): the
-- lowest price of an Adult category; else the lowest non-zero price of a category that takes a
-- seat and is not a child's or an infant's; else the lowest non-zero price. Never a free infant
-- price. Rates that ended before today (in the organisation's zone) do not count.
CREATE OR REPLACE FUNCTION tourdesk_from_price(p_account uuid, p_experience uuid) RETURNS int
  LANGUAGE sql STABLE AS $$
  WITH rates AS (
    SELECT r.retail_price, c.type, c.occupies_seat
    FROM pricing_rate r JOIN pricing_category c ON c.id = r.pricing_category_id
    WHERE r.account_id = p_account AND r.experience_id = p_experience AND (r.valid_to IS NULL OR r.valid_to >= tourdesk_today(p_account))
  )
  SELECT coalesce(
    (SELECT min(retail_price) FROM rates WHERE type = 'Adult'),
    (SELECT min(retail_price) FROM rates WHERE occupies_seat AND type NOT IN ('Child', 'Infant') AND retail_price > 0),
    (SELECT min(retail_price) FROM rates WHERE retail_price > 0))
$$;
