-- Current definition, applied at every start after the versioned migrations (see
-- src/db/functions.ts): edit it here; a change of a function's arguments or result type needs a
-- versioned migration that drops the old one first.

-- slot.held is kept by this trigger as before (0006), with two changes (and a line that takes from
-- resource pools is checked against them after the slot, 02-pools.sql). A line inserted by itself
-- joins the slot only if its seats fit — tourdesk_seats_left() ≥ seats (02-slots.sql: capacity, or
-- what its guides can take if less, − booked − held) in the UPDATE's own
-- condition, which PostgreSQL re-checks on the newest row version after waiting for the row's
-- lock — so no insert, whoever writes it, can oversell. And tourdesk_hold_many, which writes many
-- lines and then the slot's row once for all of them, says so with `tourdesk.held_by_caller = on`
-- and the trigger leaves the inserts and deletes of its lines to it.
CREATE OR REPLACE FUNCTION tourdesk_cart_line_held() RETURNS trigger
  LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('INSERT', 'DELETE') AND current_setting('tourdesk.held_by_caller', true) = 'on' THEN
    RETURN NULL;
  END IF;
  IF TG_OP = 'INSERT' THEN
    UPDATE slot SET held = held + NEW.seats
    WHERE id = NEW.slot_id AND account_id = NEW.account_id AND NOT closed AND tourdesk_seats_left(capacity, guide_seats, booked, held, 0) >= NEW.seats;
    IF NOT FOUND THEN
      IF NOT EXISTS (SELECT 1 FROM slot WHERE id = NEW.slot_id AND account_id = NEW.account_id) THEN
        RAISE EXCEPTION 'No such time slot.' USING ERRCODE = 'TD404', HINT = 'slot';
      END IF;
      RAISE EXCEPTION 'Sold out: the seats of this line do not fit in its time slot.' USING ERRCODE = 'TD409', HINT = 'quantities';
    END IF;
    -- What it takes from pools (02-pools.sql), each pool locked after the slot, in id order.
    IF NEW.pools IS NOT NULL THEN
      PERFORM tourdesk_pool_check(k::uuid, NEW.slot_id) FROM jsonb_object_keys(NEW.pools) k ORDER BY k::uuid;
    END IF;
    RETURN NULL;
  END IF;
  IF TG_OP = 'UPDATE' AND NEW.slot_id = OLD.slot_id THEN
    IF NEW.seats <> OLD.seats THEN
      UPDATE slot SET held = held + NEW.seats - OLD.seats WHERE id = NEW.slot_id;
    END IF;
    RETURN NULL;
  END IF;
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    UPDATE slot SET held = held - OLD.seats WHERE id = OLD.slot_id;
  END IF;
  IF TG_OP = 'UPDATE' THEN
    UPDATE slot SET held = held + NEW.seats WHERE id = NEW.slot_id;
  END IF;
  RETURN NULL;
END $$;

-- A cart line as the API shows it: unexpired lines with their slot's start and offer.
CREATE OR REPLACE VIEW cart_line_api WITH (security_invoker = true) AS
SELECT l.id, l.account_id, l.cart_id, l.slot_id, s.experience_id, e.title AS experience_title,
  (extract(epoch FROM s.starts_at) * 1000)::float8 AS starts_ms,
  l.quantities, l.extras, l.seats, l.total, l.currency,
  (extract(epoch FROM l.expires_at) * 1000)::float8 AS expires_ms,
  l.created_at, l.items
FROM cart_line l
JOIN slot s ON s.id = l.slot_id
JOIN experience e ON e.id = s.experience_id
WHERE l.expires_at > now();

-- The unexpired lines of one cart, inside the tenant scope.
CREATE OR REPLACE FUNCTION tourdesk_cart_lines(p_account uuid, p_cart uuid)
  RETURNS SETOF cart_line_api LANGUAGE plpgsql AS $$
BEGIN
  PERFORM tourdesk_enter(p_account);
  RETURN QUERY SELECT * FROM cart_line_api v WHERE v.account_id = p_account AND v.cart_id = p_cart ORDER BY v.created_at, v.id;
END $$;

-- tourdesk_hold changes held lines only (new lines: tourdesk_hold_many below). One lock order, as
-- everywhere: the slot first, then the line. The line's seats are read again FOR UPDATE after the
-- slot's lock (they count as free for it): read before the lock, two changes of one line at once
-- each counted the seats the line had before either, and the second could hold seats the first had
-- already taken (issue 28). The slot's expired lines are swept when the change does not fit.
CREATE OR REPLACE FUNCTION tourdesk_hold(p_account uuid, p_user uuid, p_line uuid, p_quantities jsonb, p_extras jsonb)
  RETURNS uuid LANGUAGE plpgsql AS $$
DECLARE
  v_cart uuid;
  v_slot uuid;
  v_price record;
  v_own int;
  v_remaining int;
  v_units jsonb;
  v_short text;
BEGIN
  PERFORM tourdesk_enter(p_account);
  SELECT l.cart_id, l.slot_id INTO v_cart, v_slot
  FROM cart_line l JOIN cart c ON c.id = l.cart_id
  WHERE l.account_id = p_account AND l.id = p_line AND c.user_id = p_user;
  IF NOT FOUND THEN RAISE EXCEPTION 'No such line in your cart.' USING ERRCODE = 'TD404'; END IF;
  SELECT * INTO v_price FROM tourdesk_price(p_account, v_slot, p_quantities, p_extras);
  PERFORM 1 FROM slot WHERE id = v_slot FOR NO KEY UPDATE;
  -- What it would take from pools: each pool locked after the slot (id order), the line's own
  -- units counted as free.
  SELECT tourdesk_pool_units(p_account, s.experience_id, p_quantities, p_extras) INTO v_units FROM slot s WHERE s.id = v_slot;
  IF v_units IS NOT NULL THEN
    PERFORM tourdesk_lock_pools(p_account, ARRAY[v_slot]);
    SELECT i.name INTO v_short FROM jsonb_each_text(v_units) x JOIN inventory_item i ON i.id = x.key::uuid
    WHERE x.value::int > tourdesk_pool_free(i.id, v_slot, ARRAY[p_line]) ORDER BY i.id LIMIT 1;
    IF v_short IS NOT NULL THEN
      RAISE EXCEPTION 'Sold out: not enough % left for this time slot.', v_short USING ERRCODE = 'TD409', HINT = 'quantities';
    END IF;
  END IF;
  SELECT seats INTO v_own FROM cart_line WHERE id = p_line FOR UPDATE;
  IF NOT FOUND THEN RAISE EXCEPTION 'No such line in your cart.' USING ERRCODE = 'TD404'; END IF;
  SELECT tourdesk_seats_left(capacity, guide_seats, booked, held - v_own, 0) INTO v_remaining FROM slot WHERE id = v_slot AND NOT closed;
  IF v_remaining IS NOT NULL AND v_remaining < v_price.seats THEN
    DELETE FROM cart_line WHERE slot_id = v_slot AND expires_at <= now() AND id <> p_line;
    IF FOUND THEN
      SELECT tourdesk_seats_left(capacity, guide_seats, booked, held - v_own, 0) INTO v_remaining FROM slot WHERE id = v_slot;
    END IF;
  END IF;
  IF v_remaining IS NULL OR v_remaining < v_price.seats THEN
    RAISE EXCEPTION '%', tourdesk_sold_out(greatest(0, coalesce(v_remaining, 0))) USING ERRCODE = 'TD409', HINT = 'quantities';
  END IF;
  UPDATE cart_line SET quantities = p_quantities, extras = p_extras, seats = v_price.seats, total = v_price.total,
    expires_at = now() + make_interval(mins => v_price.hold_minutes)
  WHERE id = p_line;
  RETURN v_cart;
END $$;

-- tourdesk_hold_many, set-based, answering with the new lines (the rules are those of 0016).
--
-- 1. A hold answers with the line it made, not the whole cart: reading every cart of a batch
--    back (the view cart_line_api, every line of every cart) cost the database more than the
--    holds themselves, and the API as much again to send, growing with each cart.
-- 2. The callers' carts are found, and the missing ones made, in a few statements for the
--    whole batch, and the lines are inserted in one. 0016 did it item by item inside an exception
--    block: a subtransaction per item, with its own transaction id when it made a cart — past
--    64 of them in one transaction, every snapshot on the server must look them up.
-- 3. An item's price and rules (tourdesk_price) depend only on the slot, its quantities and its
--    extras: they are worked out once per distinct (quantities, extras) of the batch, and an
--    input that breaks a rule gets the same error for every item that sent it.
-- 4. Every statement in it, and the foreign-key checks of its inserts, is planned for the tables
--    as they are now (plan_cache_mode = force_custom_plan). A pooled connection otherwise keeps
--    the plan it made when a table was small until the next ANALYZE: a sequential scan of
--    cart_line per new line, planned when cart_line was empty, made every hold slower than the
--    last as the table grew (pgbench and the server's auto_explain showed it; planning each
--    statement costs about 0.05 ms per hold).
-- As before: every rule that needs no lock is checked and every line written before the slot's
-- row, which is then written once for the whole batch — held + the seats of every line, on the
-- condition that they all fit; only that UPDATE waits for and takes the slot's lock, until the
-- commit. When they do not all fit: the slot is locked, its expired lines swept, and the items
-- granted in order while seats remain; a refused item's line is deleted and it gets "sold out"
-- with the seats that were left for it. An offer that uses resource pools (02-pools.sql) always
-- goes that way: after the slot, its pools are locked in id order and each item must fit in what
-- every pool it takes from has free over the slot's window too. (test/oversell.int.test.ts installs a copy of this
-- function without the condition and the lock, in its own database, to show the race they prevent.)
--
-- Returns, per item (0-based), one row: an error (error_code = SQLSTATE, message, field) or its
-- new line, with the slot's start and the experience's title.
CREATE OR REPLACE FUNCTION tourdesk_hold_many(p_account uuid, p_slot uuid, p_items jsonb)
  RETURNS TABLE (item int, error_code text, error_message text, error_hint text,
    id uuid, cart_id uuid, slot_id uuid, experience_id uuid, experience_title text, starts_ms float8,
    quantities jsonb, extras jsonb, seats int, total int, currency text, expires_ms float8, items jsonb)
  LANGUAGE plpgsql SET plan_cache_mode = force_custom_plan AS $$
#variable_conflict use_column
DECLARE
  v_item jsonb;
  v_q jsonb;
  v_e jsonb;
  v_key text;
  v_price record;
  v_p jsonb;
  v_prices jsonb := '{}';
  v_currency text;
  v_hold int;
  v_i int;
  v_k int;
  v_code text;
  v_message text;
  v_hint text;
  v_free int;
  v_closed boolean;
  v_sum int := 0;
  v_at timestamptz;
  v_granted int := 0;
  -- errors, per item
  v_err_item int[] := '{}';
  v_err_code text[] := '{}';
  v_err_message text[] := '{}';
  v_err_hint text[] := '{}';
  -- the items that get a line, in item order
  v_new_item int[] := '{}';
  v_new_user uuid[] := '{}';
  v_new_given uuid[] := '{}';
  v_new_cart uuid[];
  v_new_q jsonb[] := '{}';
  v_new_e jsonb[] := '{}';
  v_new_seats int[] := '{}';
  v_new_total int[] := '{}';
  v_new_items jsonb[] := '{}';
  v_new_id uuid[] := '{}';
  v_new_expires timestamptz[];
  v_refused uuid[] := '{}';
  -- resource pools (02-pools.sql): whether the offer uses any, what each new line takes, what each pool has free
  v_experience uuid;
  v_pooled boolean;
  v_fit boolean := false;
  v_new_pools jsonb[] := '{}';
  v_pool_free jsonb;
  v_short text;
BEGIN
  PERFORM tourdesk_enter(p_account);
  SELECT s.experience_id, tourdesk_pooled(p_account, s.experience_id) INTO v_experience, v_pooled
  FROM slot s WHERE s.account_id = p_account AND s.id = p_slot;
  v_pooled := coalesce(v_pooled, false);
  -- Prices and rules, once per distinct input.
  FOR v_i IN 0 .. jsonb_array_length(p_items) - 1 LOOP
    v_item := p_items -> v_i;
    v_q := coalesce(v_item -> 'quantities', '{}');
    v_e := coalesce(v_item -> 'extras', '{}');
    v_key := jsonb_build_array(v_q, v_e)::text;
    v_p := v_prices -> v_key;
    IF v_p IS NULL THEN
      BEGIN
        SELECT * INTO v_price FROM tourdesk_price(p_account, p_slot, v_q, v_e);
        v_p := jsonb_build_object('seats', v_price.seats, 'total', v_price.total, 'items', v_price.items,
          'pools', CASE WHEN v_pooled THEN tourdesk_pool_units(p_account, v_experience, v_q, v_e) END);
        v_currency := v_price.currency;
        v_hold := v_price.hold_minutes;
      EXCEPTION WHEN SQLSTATE 'TD400' OR SQLSTATE 'TD404' THEN
        GET STACKED DIAGNOSTICS v_code = RETURNED_SQLSTATE, v_message = MESSAGE_TEXT, v_hint = PG_EXCEPTION_HINT;
        v_p := jsonb_build_object('code', v_code, 'message', v_message, 'hint', nullif(v_hint, ''));
      END;
      v_prices := v_prices || jsonb_build_object(v_key, v_p);
    END IF;
    IF v_p ? 'code' THEN
      v_err_item := v_err_item || v_i;
      v_err_code := v_err_code || (v_p ->> 'code');
      v_err_message := v_err_message || (v_p ->> 'message');
      v_err_hint := v_err_hint || (v_p ->> 'hint');
    ELSE
      v_new_item := v_new_item || v_i;
      v_new_user := v_new_user || (v_item ->> 'user')::uuid;
      v_new_given := v_new_given || (v_item ->> 'cart')::uuid;
      v_new_q := v_new_q || v_q;
      v_new_e := v_new_e || v_e;
      v_new_seats := v_new_seats || (v_p ->> 'seats')::int;
      v_new_total := v_new_total || (v_p ->> 'total')::int;
      v_new_items := v_new_items || (v_p -> 'items');
      v_new_pools := v_new_pools || nullif(v_p -> 'pools', 'null'::jsonb);
      v_sum := v_sum + (v_p ->> 'seats')::int;
    END IF;
  END LOOP;

  IF cardinality(v_new_item) > 0 THEN
    -- The callers' carts, made on first use. Each is looked up by its own index probe (a
    -- LATERAL with LIMIT is never turned into a hash join, which scanned every cart of the
    -- organisation whenever the statistics still counted only a few).
    -- An item names its cart (a web store's guest cart, made and checked by the API) or its user.
    SELECT array_agg(coalesce(n.given, c.id) ORDER BY n.k) INTO v_new_cart
    FROM unnest(v_new_user, v_new_given) WITH ORDINALITY AS n(usr, given, k)
    LEFT JOIN LATERAL (SELECT c.id FROM cart c WHERE n.given IS NULL AND c.account_id = p_account AND c.user_id = n.usr LIMIT 1) c ON true;
    IF array_position(v_new_cart, NULL) IS NOT NULL THEN
      INSERT INTO cart (account_id, user_id)
      SELECT DISTINCT p_account, n.usr FROM unnest(v_new_user, v_new_cart) AS n(usr, cart) WHERE n.cart IS NULL
      ON CONFLICT DO NOTHING;
      SELECT array_agg(coalesce(n.given, c.id) ORDER BY n.k) INTO v_new_cart
      FROM unnest(v_new_user, v_new_given) WITH ORDINALITY AS n(usr, given, k)
      LEFT JOIN LATERAL (SELECT c.id FROM cart c WHERE n.given IS NULL AND c.account_id = p_account AND c.user_id = n.usr LIMIT 1) c ON true;
    END IF;
    -- The lines, without touching the slot (tourdesk.held_by_caller): created_at from the clock,
    -- one microsecond apart in item order, so the lines of one batch keep their order in every
    -- cart, and each new line's id is matched to its item by it.
    PERFORM set_config('tourdesk.held_by_caller', 'on', true);
    v_at := clock_timestamp();
    WITH made AS (
      INSERT INTO cart_line (account_id, cart_id, slot_id, quantities, extras, seats, total, currency, expires_at, created_at, items)
      SELECT p_account, n.cart, p_slot, n.q, n.e, n.seats, n.total, v_currency, now() + make_interval(mins => v_hold),
             v_at + n.k * interval '1 microsecond', n.items
      FROM unnest(v_new_cart, v_new_q, v_new_e, v_new_seats, v_new_total, v_new_items) WITH ORDINALITY AS n(cart, q, e, seats, total, items, k)
      RETURNING cart_line.id, cart_line.expires_at, cart_line.created_at
    )
    SELECT array_agg(made.id ORDER BY made.created_at), array_agg(made.expires_at ORDER BY made.created_at) INTO v_new_id, v_new_expires FROM made;

    -- An offer that uses resource pools always takes the slow path: its items are granted one by
    -- one against the seats and every pool's free units.
    IF NOT v_pooled THEN
      UPDATE slot SET held = held + v_sum
      WHERE id = p_slot AND account_id = p_account AND NOT closed AND tourdesk_seats_left(capacity, guide_seats, booked, held, 0) >= v_sum;
      v_fit := FOUND;
    END IF;
    IF NOT v_fit THEN
      SELECT closed INTO v_closed FROM slot WHERE id = p_slot AND account_id = p_account FOR NO KEY UPDATE;
      IF v_pooled THEN
        -- The pools after the slot, in id order; what each has free over the slot's window, the new lines not counted.
        PERFORM tourdesk_lock_pools(p_account, ARRAY[p_slot]);
        SELECT jsonb_object_agg(i.id, jsonb_build_object('free', tourdesk_pool_free(i.id, p_slot, v_new_id), 'name', i.name)) INTO v_pool_free
        FROM inventory_item i WHERE i.account_id = p_account
          AND i.id IN (SELECT u.pool_id FROM pool_usage u WHERE u.account_id = p_account AND u.experience_id = v_experience);
      END IF;
      -- The expired lines of others still count in held: they go first (the trigger takes their seats out).
      PERFORM set_config('tourdesk.held_by_caller', 'off', true);
      DELETE FROM cart_line l WHERE l.slot_id = p_slot AND l.expires_at <= now() AND NOT (l.id = ANY (v_new_id));
      PERFORM set_config('tourdesk.held_by_caller', 'on', true);
      SELECT tourdesk_seats_left(capacity, guide_seats, booked, held, 0) INTO v_free FROM slot WHERE id = p_slot;
      FOR v_k IN 1 .. cardinality(v_new_id) LOOP
        v_short := NULL;
        IF v_new_pools[v_k] IS NOT NULL THEN
          SELECT v_pool_free -> x.key ->> 'name' INTO v_short FROM jsonb_each_text(v_new_pools[v_k]) x
          WHERE x.value::int > coalesce((v_pool_free -> x.key ->> 'free')::int, 0) LIMIT 1;
        END IF;
        IF v_closed IS NULL OR v_closed OR v_new_seats[v_k] > v_free OR v_short IS NOT NULL THEN
          v_refused := v_refused || v_new_id[v_k];
          v_err_item := v_err_item || v_new_item[v_k];
          v_err_code := v_err_code || CASE WHEN v_closed IS NULL THEN 'TD404' WHEN v_closed THEN 'TD400' ELSE 'TD409' END;
          v_err_message := v_err_message || CASE WHEN v_closed IS NULL THEN 'No such time slot.' WHEN v_closed THEN 'This time slot is closed.'
                                                  WHEN v_new_seats[v_k] > v_free THEN tourdesk_sold_out(greatest(v_free, 0))
                                                  ELSE format('Sold out: not enough %s left for this time slot.', v_short) END;
          v_err_hint := v_err_hint || CASE WHEN v_closed IS NULL OR v_closed THEN 'slot' ELSE 'quantities' END;
        ELSE
          v_free := v_free - v_new_seats[v_k];
          v_granted := v_granted + v_new_seats[v_k];
          IF v_new_pools[v_k] IS NOT NULL THEN
            SELECT v_pool_free || coalesce(jsonb_object_agg(x.key, jsonb_build_object('free', (v_pool_free -> x.key ->> 'free')::int - x.value::int,
                                                                        'name', v_pool_free -> x.key -> 'name')), '{}')
            INTO v_pool_free FROM jsonb_each_text(v_new_pools[v_k]) x;
          END IF;
        END IF;
      END LOOP;
      DELETE FROM cart_line l WHERE l.id = ANY (v_refused);
      UPDATE slot SET held = held + v_granted WHERE id = p_slot AND v_granted > 0;
    END IF;
    PERFORM set_config('tourdesk.held_by_caller', 'off', true);
  END IF;

  RETURN QUERY
    SELECT e.item, e.code, e.message, e.hint, NULL::uuid, NULL::uuid, NULL::uuid, NULL::uuid, NULL::text, NULL::float8,
           NULL::jsonb, NULL::jsonb, NULL::int, NULL::int, NULL::text, NULL::float8, NULL::jsonb
    FROM unnest(v_err_item, v_err_code, v_err_message, v_err_hint) AS e(item, code, message, hint)
    UNION ALL
    SELECT n.item, NULL, NULL, NULL, n.line, n.cart, p_slot, s.experience_id, x.title, (extract(epoch FROM s.starts_at) * 1000)::float8,
           n.q, n.e, n.seats, n.total, v_currency, (extract(epoch FROM n.expires) * 1000)::float8, n.items
    FROM unnest(v_new_item, v_new_id, v_new_cart, v_new_q, v_new_e, v_new_seats, v_new_total, v_new_expires, v_new_items) AS n(item, line, cart, q, e, seats, total, expires, items)
    JOIN slot s ON s.id = p_slot
    JOIN experience x ON x.id = s.experience_id
    WHERE NOT (n.line = ANY (v_refused))
    ORDER BY 1;
END $$;

-- A hold never outlives its slot's cut-off (migration 0044 makes the trigger, BEFORE INSERT OR
-- UPDATE OF expires_at, slot_id ON cart_line): whatever asks for a longer hold — OCTO's extend, a
-- web payment waiting for Stripe, a hold made just before the cut-off — its expiry is cut at the
-- moment the slot stops being on sale, its start minus the booking cut-off (the offer's, else the
-- organisation's; the same minutes tourdesk_open_after() counts). A slot that has started or passed
-- its cut-off therefore has no live hold, and checkout (which books only live holds) cannot book it.
-- It also works out what the line takes from resource pools (cart_line.pools, 02-pools.sql); since
-- migration 0067 it fires on a change of the line's quantities or extras as well.
CREATE OR REPLACE FUNCTION tourdesk_hold_until_cutoff() RETURNS trigger
  LANGUAGE plpgsql AS $$
DECLARE
  v_until timestamptz;
BEGIN
  SELECT s.starts_at - make_interval(mins => coalesce(nullif(e.booking_cutoff_minutes, 0), a.default_cutoff_minutes)),
    tourdesk_pool_units(s.account_id, s.experience_id, NEW.quantities, NEW.extras)
  INTO v_until, NEW.pools
  FROM slot s
  JOIN experience e ON e.id = s.experience_id
  JOIN base_account a ON a.id = s.account_id
  WHERE s.id = NEW.slot_id;
  IF v_until IS NOT NULL AND NEW.expires_at > v_until THEN
    NEW.expires_at := v_until;
  END IF;
  RETURN NEW;
END $$;

-- A cut-off raised later cuts the holds already made (tourdesk_hold_until_cutoff cuts each write):
-- when an offer's booking cut-off (p_experience) or the organisation's default (p_experience NULL:
-- every offer of the account) changes, the live holds on its departures to come are written again,
-- so the trigger ends each when its departure now stops being on sale, and a waiting-list offer
-- holding such seats ends with its hold. The departures are locked first, in id order (the slot,
-- then its lines, as every writer), so a checkout of the same lines waits or is waited for.
CREATE OR REPLACE FUNCTION tourdesk_cut_holds(p_account uuid, p_experience uuid) RETURNS void
  LANGUAGE plpgsql AS $$
BEGIN
  PERFORM 1 FROM slot s
  WHERE s.account_id = p_account AND (p_experience IS NULL OR s.experience_id = p_experience)
    AND s.id IN (SELECT l.slot_id FROM cart_line l WHERE l.account_id = p_account AND l.expires_at > now())
  ORDER BY s.id
  FOR NO KEY UPDATE;
  WITH cut AS (
    UPDATE cart_line l SET expires_at = l.expires_at
    FROM slot s
    WHERE l.account_id = p_account AND l.expires_at > now() AND s.id = l.slot_id
      AND (p_experience IS NULL OR s.experience_id = p_experience)
    RETURNING l.cart_id, l.expires_at
  )
  UPDATE waitlist_entry w SET offered_until = c.expires_at, updated_at = now()
  FROM cut c
  WHERE w.account_id = p_account AND w.status = 'offered' AND w.cart_id = c.cart_id AND w.offered_until > c.expires_at;
END $$;

-- A sale's seats, the only part of a sale done under the slots' locks (orders/records.ts,
-- writeOrder(): every other row of the order — customer, order and its reference, bookings, totals,
-- promo code, answers, audit, events — is written before it, without a slot's lock). Every writer
-- of a slot holds its lock until it commits, so what a sale does after locking its slots is what
-- the next sale of the slot waits for. A checkout's sale runs at its commit
-- (tourdesk_sale_at_commit() below), so nothing comes after it but the commit itself; the
-- counter's direct orders call it in their transaction, after locking and checking the slots.
-- 1. The slots (p_slots), locked in id order: the slot first, then the resource pools their offers
--    use (id order), then its lines, as every writer.
-- 2. A cart's lines (p_cart, p_lines): every slot must be open for sale now (slot_api.open, the
--    one definition); a shut one answers {shut: [...]} and nothing changes. The lines are deleted
--    (their seats leave slot.held by the trigger) and their seats added to booked, slot by slot:
--    booked + held stays the same, so a checkout never sells a seat that was not held. A line
--    gone meanwhile (swept, released, booked by another checkout) is missing from `lines`, and
--    nothing is booked: the caller refuses the sale.
--    Without a cart, p_book ({slot id: seats}) adds seats the caller checked under its own locks
--    (createOrder(): the CHECK slot_seats_check refuses an oversell whatever the caller did).
-- (p_order is no longer read: the order's reference is taken with the order, tourdesk_order_reference().)
-- Its statements are planned for the tables as they are (plan_cache_mode, as tourdesk_hold_many).
CREATE OR REPLACE FUNCTION tourdesk_sell_seats(p_account uuid, p_order uuid, p_slots uuid[], p_cart uuid, p_lines uuid[], p_book jsonb)
  RETURNS jsonb LANGUAGE plpgsql SET plan_cache_mode = force_custom_plan AS $$
DECLARE
  v_shut jsonb;
  v_lines jsonb := '[]';
BEGIN
  PERFORM 1 FROM slot WHERE account_id = p_account AND id = ANY (p_slots) ORDER BY id FOR NO KEY UPDATE;
  -- Then the pools their offers use, in id order (what the bookings take is checked at commit by
  -- the constraint trigger booking_pool_use_check, 02-pools.sql, with these locks already held).
  PERFORM tourdesk_lock_pools(p_account, p_slots);
  IF p_cart IS NOT NULL THEN
    SELECT coalesce(jsonb_agg(jsonb_build_object('slot', s.id, 'local_date', s.local_date, 'local_time', s.local_time) ORDER BY s.id), '[]')
      INTO v_shut
    FROM slot_api s WHERE s.account_id = p_account AND s.id = ANY (p_slots) AND NOT s.open;
    IF jsonb_array_length(v_shut) > 0 THEN
      RETURN jsonb_build_object('shut', v_shut);
    END IF;
    WITH gone AS (
      DELETE FROM cart_line l WHERE l.account_id = p_account AND l.cart_id = p_cart AND l.id = ANY (p_lines)
      RETURNING l.id, l.slot_id, l.seats, l.quantities, l.extras, l.total, l.currency
    )
    SELECT coalesce(jsonb_agg(to_jsonb(gone)), '[]') INTO v_lines FROM gone;
    IF jsonb_array_length(v_lines) < cardinality(p_lines) THEN
      RETURN jsonb_build_object('shut', '[]'::jsonb, 'lines', v_lines);
    END IF;
    SELECT coalesce(jsonb_object_agg(b.slot_id, b.seats), '{}') INTO p_book
    FROM (SELECT l ->> 'slot_id' AS slot_id, sum((l ->> 'seats')::int) AS seats FROM jsonb_array_elements(v_lines) l GROUP BY 1) b;
  END IF;
  UPDATE slot s SET booked = s.booked + b.value::int, updated_at = now()
  FROM jsonb_each_text(p_book) b
  WHERE s.account_id = p_account AND s.id = b.key::uuid;
  RETURN jsonb_build_object('shut', '[]'::jsonb, 'lines', v_lines);
END $$;

-- An order's reference, 2026-000123: the organisation's local year and the next number of its
-- own sequence for that year. A sequence, not a counter row: nextval() takes no lock that lasts to
-- the commit, so sales of one organisation never wait for each other's reference (the counter row
-- of invoice_sequence, series ORD, was locked from the sale to the commit: every order of the
-- organisation queued behind it). The numbers only grow; a sale refused after taking one (sold out
-- at its commit) leaves a gap — references are names, not legal numbers (invoices, credit notes
-- and statements keep their gapless counters, invoice_sequence). Each organisation's sequence for
-- a year is made at its first order of that year, starting after the ORD counter's last number
-- (orders referenced before this change); two first orders at once: the second waits for the
-- first's commit and then uses its sequence (migration 0068 made this year's for the organisations
-- there were; a sale takes its reference before it locks a slot, so that wait is never part of a
-- deadlock with a sale at the counter). Made and read as the owner (SECURITY DEFINER, names in
-- public only), for the calling tenant only (app_current_account()).
CREATE OR REPLACE FUNCTION tourdesk_order_reference() RETURNS text
  LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp AS $$
DECLARE
  v_account uuid := app_current_account();
  v_year int;
  v_name text;
  v_start bigint;
  v_n bigint;
BEGIN
  IF v_account IS NULL THEN RAISE EXCEPTION 'No organisation in scope.' USING ERRCODE = 'TD400'; END IF;
  SELECT extract(year FROM now() AT TIME ZONE a.time_zone)::int INTO v_year FROM base_account a WHERE a.id = v_account;
  v_name := 'tourdesk_ord_' || replace(v_account::text, '-', '') || '_' || v_year;
  IF to_regclass('public.' || quote_ident(v_name)) IS NULL THEN
    SELECT coalesce(max(q.next_number), 1) INTO v_start FROM invoice_sequence q
    WHERE q.account_id = v_account AND q.series = 'ORD' AND q.year = v_year;
    BEGIN
      EXECUTE format('CREATE SEQUENCE public.%I START WITH %s', v_name, v_start);
    EXCEPTION WHEN duplicate_table OR unique_violation THEN
      NULL;
    END;
  END IF;
  v_n := nextval(('public.' || quote_ident(v_name))::regclass);
  RETURN v_year || '-' || CASE WHEN v_n >= 1000000 THEN v_n::text ELSE lpad(v_n::text, 6, '0') END;
END $$;
REVOKE ALL ON FUNCTION tourdesk_order_reference() FROM PUBLIC;
GRANT EXECUTE ON FUNCTION tourdesk_order_reference() TO tourdesk_server, tourdesk_app;

-- A refusal with several items for the API's error envelope: SQLSTATE TDERR, the first item's text
-- as the message and every item ({code, detail, attr}) as JSON in the detail (lib/errors.ts,
-- fromDatabase()).
CREATE OR REPLACE FUNCTION tourdesk_refuse(p_items jsonb) RETURNS void
  LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION '%', p_items -> 0 ->> 'detail' USING ERRCODE = 'TDERR', DETAIL = p_items::text;
END $$;

-- One use of a promo code taken by a sale, the one definition (promo-codes/apply.ts,
-- takePromoUse(), and a checkout's sale at its commit): refused when the code is used up, or when
-- this customer's orders with it (the sale's own order included) pass its limit per customer. The
-- code's row stays locked to the commit: taken after the slots, as every writer locks.
CREATE OR REPLACE FUNCTION tourdesk_take_promo_use(p_account uuid, p_promo uuid, p_code text, p_email text) RETURNS void
  LANGUAGE plpgsql AS $$
DECLARE
  v_per int;
  v_address text := nullif(btrim(coalesce(p_email, '')), '');
BEGIN
  UPDATE promo_code SET uses = uses + 1
  WHERE account_id = p_account AND id = p_promo AND (max_uses IS NULL OR uses < max_uses)
  RETURNING max_uses_per_customer INTO v_per;
  IF NOT FOUND THEN
    PERFORM tourdesk_refuse(jsonb_build_array(jsonb_build_object('code', 'promo_used_up', 'detail', format('The promo code %s has been used up.', p_code), 'attr', 'promo_code')));
  END IF;
  IF v_address IS NOT NULL AND v_per IS NOT NULL
     AND (SELECT count(*) FROM orders o WHERE o.account_id = p_account AND o.promo_code_id = p_promo AND lower(o.customer_email) = lower(v_address)) > v_per THEN
    PERFORM tourdesk_refuse(jsonb_build_array(jsonb_build_object('code', 'promo_used_by_customer', 'detail', format('The promo code %s has already been used with %s.', p_code, v_address), 'attr', 'promo_code')));
  END IF;
END $$;

-- A checkout's sale, at its commit (issue 33). checkout() (orders/bookings.ts) writes the order
-- and everything else, and leaves what to sell in a setting of its transaction, tourdesk.sale =
-- {order id: {cart, slots, lines: the lines as it read them, promo}} (one name: a setting's name
-- stays in the connection's session, and a name per order made pooled connections slower with
-- every checkout they served); this trigger
-- (orders_sale_at_commit, a constraint trigger DEFERRABLE INITIALLY DEFERRED on the order's insert,
-- migration 0068) does the sale when the transaction commits: tourdesk_sell_seats() locks the slots
-- and moves the lines' seats, then the promo code's use and the waiting list's entry, after the
-- slots as every writer locks. The slots' locks are held only from here to the end of the commit:
-- no statement of the caller, no round trip to the API comes after them (they were held from the
-- sale through the order's audit, events, confirmation and answer: 20 ms at 64 checkouts at once).
-- Refused — a slot not open for sale now, a line gone (swept, released, booked in another window)
-- or changed since it was read, the promo code used up — with the items the API answers (409),
-- and the commit fails: nothing of the order is kept. A caller that must know the outcome inside
-- its transaction (an online payment refunds in it; OCTO names its own errors), or changes an
-- order after it in the same transaction (lockOrder(): a cancellation, a payment), runs it at once
-- (tourdesk_sell_pending()).
CREATE OR REPLACE FUNCTION tourdesk_sale_at_commit() RETURNS trigger
  LANGUAGE plpgsql SET plan_cache_mode = force_custom_plan AS $$
DECLARE
  v_all jsonb := coalesce(nullif(current_setting('tourdesk.sale', true), ''), '{}')::jsonb;
  v_sale jsonb := v_all -> NEW.id::text;
  v_sold jsonb;
  v_items jsonb;
BEGIN
  IF v_sale IS NULL THEN RETURN NULL; END IF;
  v_all := v_all - NEW.id::text;
  PERFORM set_config('tourdesk.sale', v_all::text, true),
          set_config('tourdesk.sale_pending', CASE WHEN v_all = '{}'::jsonb THEN 'off' ELSE 'on' END, true);
  v_sold := tourdesk_sell_seats(NEW.account_id, NEW.id,
    ARRAY(SELECT jsonb_array_elements_text(v_sale -> 'slots')::uuid),
    (v_sale ->> 'cart')::uuid,
    ARRAY(SELECT (l ->> 'id')::uuid FROM jsonb_array_elements(v_sale -> 'lines') l), '{}'::jsonb);
  IF jsonb_array_length(v_sold -> 'shut') > 0 THEN
    SELECT jsonb_agg(jsonb_build_object('code', 'hold_expired', 'attr', 'lines.' || (x.l ->> 'id'),
             'detail', format('The time slot at %s on %s is no longer open for sale: remove this line from the cart.', s ->> 'local_time', s ->> 'local_date')) ORDER BY x.n)
      INTO v_items
    FROM jsonb_array_elements(v_sale -> 'lines') WITH ORDINALITY AS x(l, n)
    JOIN jsonb_array_elements(v_sold -> 'shut') s ON s ->> 'slot' = x.l ->> 'slot_id';
    PERFORM tourdesk_refuse(v_items);
  END IF;
  SELECT jsonb_agg(jsonb_build_object('code', 'hold_expired', 'attr', 'lines.' || (x.l ->> 'id'),
           'detail', 'This line is no longer held: its hold ran out and the seats were released, or it was booked or removed in another window. Remove it and choose the time again.') ORDER BY x.n)
    INTO v_items
  FROM jsonb_array_elements(v_sale -> 'lines') WITH ORDINALITY AS x(l, n)
  WHERE NOT EXISTS (SELECT 1 FROM jsonb_array_elements(v_sold -> 'lines') d WHERE d ->> 'id' = x.l ->> 'id');
  IF v_items IS NOT NULL THEN PERFORM tourdesk_refuse(v_items); END IF;
  -- Booked as read: a line changed in another window since (its slot, seats, price, quantities, extras) refuses the sale.
  SELECT jsonb_build_array(jsonb_build_object('code', 'conflict', 'attr', 'lines.' || (x.l ->> 'id'),
           'detail', 'A line of the cart changed while it was being booked: nothing was booked. Check the cart and try again.'))
    INTO v_items
  FROM jsonb_array_elements(v_sale -> 'lines') WITH ORDINALITY AS x(l, n)
  JOIN jsonb_array_elements(v_sold -> 'lines') d ON d ->> 'id' = x.l ->> 'id'
  WHERE d -> 'slot_id' IS DISTINCT FROM x.l -> 'slot_id' OR d -> 'seats' IS DISTINCT FROM x.l -> 'seats' OR d -> 'total' IS DISTINCT FROM x.l -> 'total'
     OR d -> 'quantities' IS DISTINCT FROM x.l -> 'quantities' OR d -> 'extras' IS DISTINCT FROM x.l -> 'extras'
  ORDER BY x.n LIMIT 1;
  IF v_items IS NOT NULL THEN PERFORM tourdesk_refuse(v_items); END IF;
  IF v_sale -> 'promo' IS NOT NULL AND jsonb_typeof(v_sale -> 'promo') = 'object' THEN
    PERFORM tourdesk_take_promo_use(NEW.account_id, (v_sale #>> '{promo,id}')::uuid, v_sale #>> '{promo,code}', v_sale #>> '{promo,email}');
  END IF;
  -- A cart a waiting list offered has its entry booked (after the slots: the waiting list locks a slot, then its entry).
  UPDATE waitlist_entry w SET status = 'booked', order_id = NEW.id, updated_at = now()
  WHERE w.account_id = NEW.account_id AND w.cart_id = (v_sale ->> 'cart')::uuid AND w.status IN ('offered', 'expired');
  RETURN NULL;
END $$;

-- The transaction's checkouts not sold yet, sold now, with their pools checked (SET CONSTRAINTS …
-- IMMEDIATE fires the deferred triggers; later checkouts of the transaction are sold at its commit
-- again). Does nothing
-- when none is pending (tourdesk.sale_pending: on from a checkout's order until its sale).
CREATE OR REPLACE FUNCTION tourdesk_sell_pending() RETURNS void
  LANGUAGE plpgsql AS $$
BEGIN
  IF current_setting('tourdesk.sale_pending', true) = 'on' THEN
    -- The sale, then its bookings' pool checks (queued after it: fired after it), so the caller has
    -- the whole outcome now.
    SET CONSTRAINTS orders_sale_at_commit, booking_pool_use_check, cart_line_pool_use_check IMMEDIATE;
    SET CONSTRAINTS orders_sale_at_commit, booking_pool_use_check, cart_line_pool_use_check DEFERRED;
  END IF;
END $$;
