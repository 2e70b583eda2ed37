-- Holds write the slot's row last. The hot slot's row lock is now taken by the last write of a
-- hold statement (tourdesk_hold_many below: one conditional UPDATE of held for every hold it
-- carries, as pgbench's decrement) and held only until the commit; everything else — carts,
-- prices, the lines and their indexes — is written before, in parallel with other statements.
--
-- cart_line loses its foreign keys to slot and base_account: each check took a share lock on the
-- hot row before the hold's own write, and under contention those share locks become multixacts
-- that every holder must wait through. In their place: the line's organisation comes through its
-- cart (account_id, cart_id); the insert trigger refuses a line whose slot does not exist in that
-- organisation; a deleted slot's lines are deleted by the slot's trigger.
CREATE UNIQUE INDEX "cart_account_key" ON "cart" USING btree ("account_id","id");
--> statement-breakpoint
ALTER TABLE "cart_line" DROP CONSTRAINT "cart_line_account_id_base_account_id_fk";
--> statement-breakpoint
ALTER TABLE "cart_line" DROP CONSTRAINT "cart_line_cart_id_cart_id_fk";
--> statement-breakpoint
ALTER TABLE "cart_line" DROP CONSTRAINT "cart_line_slot_id_slot_id_fk";
--> statement-breakpoint
ALTER TABLE "cart_line" ADD CONSTRAINT "cart_line_cart_fk" FOREIGN KEY ("account_id","cart_id") REFERENCES "public"."cart"("account_id","id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
-- slot.held is kept by this trigger as before (0006), with two changes. A line inserted by itself
-- joins the slot only if its seats fit — `capacity − booked − held ≥ seats` in the UPDATE's own
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
    WHERE id = NEW.slot_id AND account_id = NEW.account_id AND NOT closed AND capacity - booked - held >= NEW.seats;
    IF NOT FOUND THEN
      IF NOT EXISTS (SELECT 1 FROM slot WHERE id = NEW.slot_id AND account_id = NEW.account_id) THEN
        RAISE EXCEPTION 'No such time slot.' USING ERRCODE = 'TD404', HINT = 'slot';
      END IF;
      RAISE EXCEPTION 'Sold out: the seats of this line do not fit in its time slot.' USING ERRCODE = 'TD409', HINT = 'quantities';
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
--> statement-breakpoint
-- What the foreign key's ON DELETE CASCADE did: a deleted slot's lines go with it (after the
-- slot's row is gone, so their trigger finds no slot to update).
CREATE FUNCTION tourdesk_slot_deleted() RETURNS trigger
  LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM cart_line WHERE slot_id = OLD.id;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER slot_deleted AFTER DELETE ON slot FOR EACH ROW EXECUTE FUNCTION tourdesk_slot_deleted();
--> statement-breakpoint
-- tourdesk_hold now changes held lines only (new lines: tourdesk_hold_many below): the slot is
-- locked first (the line's own seats counted as free), its expired lines swept if needed, then
-- the line is updated. p_lock = false is the test-only switch that shows the race without it.
DROP FUNCTION tourdesk_hold(uuid, uuid, uuid, uuid, jsonb, jsonb, boolean);
--> statement-breakpoint
CREATE FUNCTION tourdesk_hold(p_account uuid, p_user uuid, p_line uuid, p_quantities jsonb, p_extras jsonb, p_lock boolean DEFAULT true)
  RETURNS uuid LANGUAGE plpgsql AS $$
DECLARE
  v_cart uuid;
  v_slot uuid;
  v_price record;
  v_own int;
  v_remaining int;
  v_attempt int;
BEGIN
  PERFORM tourdesk_enter(p_account);
  SELECT l.cart_id, l.slot_id, l.seats INTO v_cart, v_slot, v_own
  FROM cart_line l JOIN cart c ON c.id = l.cart_id
  WHERE l.account_id = p_account AND l.id = p_line AND c.user_id = p_user;
  IF NOT FOUND THEN RAISE EXCEPTION 'No such line in your cart.' USING ERRCODE = 'TD404'; END IF;
  SELECT * INTO v_price FROM tourdesk_price(p_account, v_slot, p_quantities, p_extras);
  FOR v_attempt IN 1..2 LOOP
    IF p_lock THEN
      SELECT capacity - booked - held + v_own INTO v_remaining FROM slot
      WHERE id = v_slot AND NOT closed AND capacity - booked - held + v_own >= v_price.seats FOR UPDATE;
    ELSE
      SELECT capacity - booked - held + v_own INTO v_remaining FROM slot
      WHERE id = v_slot AND NOT closed AND capacity - booked - held + v_own >= v_price.seats;
    END IF;
    EXIT WHEN FOUND;
    PERFORM 1 FROM slot WHERE id = v_slot FOR UPDATE;
    DELETE FROM cart_line WHERE slot_id = v_slot AND expires_at <= now() AND id <> p_line;
    EXIT WHEN NOT FOUND;
  END LOOP;
  IF v_remaining IS NULL THEN
    SELECT greatest(0, capacity - booked - held + v_own) INTO v_remaining FROM slot WHERE id = v_slot;
    RAISE EXCEPTION '%', tourdesk_sold_out(v_remaining) USING ERRCODE = 'TD409', HINT = 'quantities';
  END IF;
  UPDATE cart_line SET quantities = p_quantities, extras = p_extras, seats = v_price.seats, total = v_price.total,
    expires_at = now() + make_interval(mins => v_price.hold_minutes)
  WHERE id = p_line;
  RETURN v_cart;
END $$;
--> statement-breakpoint
CREATE FUNCTION tourdesk_sold_out(p_remaining int) RETURNS text
  LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE WHEN p_remaining <= 0 THEN 'Sold out: no seats are left in this time slot.'
              ELSE format('Sold out: only %s seat%s left in this time slot.', p_remaining, CASE WHEN p_remaining = 1 THEN '' ELSE 's' END) END
$$;
--> statement-breakpoint
-- New lines, for one slot, for one or many callers at once (the API gathers the holds that
-- arrive for a slot while its previous statement runs — like a group commit — and sends them
-- together). p_items: [{ "user": uuid, "quantities": {...}, "extras": {...} }, ...].
--
-- Before any lock, for each item in turn: its cart (made on first use), its price and every rule
-- that needs no lock (tourdesk_price; an item that breaks one gets its error and nothing else
-- happens for it) and its line, inserted without touching the slot (tourdesk.held_by_caller).
-- Then the carts, read in one query. Then the slot's row is written once: held + the seats of every
-- line, on the condition that they all fit. Only that UPDATE waits for and takes the slot's lock,
-- held until the commit — one lock for the whole batch.
-- When they do not all fit: the slot is locked, its expired lines swept (their seats still count
-- in held), and the items are granted in order while seats remain; a refused item's line is
-- deleted and it gets "sold out" with the seats that were left for it.
-- p_lock = false (test-only) reads the seats left without the lock and writes without the
-- condition: the race the lock prevents.
--
-- Returns, per item (0-based), one error row (error_code = SQLSTATE, message, field) or its cart's
-- unexpired lines (the new one included), in the order of every cart read (created_at, id).
CREATE FUNCTION tourdesk_hold_many(p_account uuid, p_slot uuid, p_items jsonb, p_lock boolean DEFAULT true)
  RETURNS TABLE (item int, error_code text, error_message text, error_hint text,
    id uuid, cart_id uuid, slot_id uuid, experience_id uuid, experience_title text, starts_ms float8,
    quantities jsonb, extras jsonb, seats int, total int, currency text, expires_ms float8, created_at timestamptz)
  LANGUAGE plpgsql AS $$
#variable_conflict use_column
DECLARE
  v_item jsonb;
  v_user uuid;
  v_cart uuid;
  v_price record;
  v_line cart_line;
  v_i int;
  v_k int;
  v_code text;
  v_message text;
  v_hint text;
  v_free int;
  v_closed boolean;
  v_sum int := 0;
  v_at timestamptz := '-infinity';
  v_granted int := 0;
  -- output: the carts' lines, errors, and what was refused
  v_rows cart_line_api[] := '{}';
  v_err_item int[] := '{}';
  v_err_code text[] := '{}';
  v_err_message text[] := '{}';
  v_err_hint text[] := '{}';
  -- the new lines, in item order
  v_new_id uuid[] := '{}';
  v_new_item int[] := '{}';
  v_new_cart uuid[] := '{}';
  v_new_seats int[] := '{}';
  v_refused uuid[] := '{}';
BEGIN
  PERFORM tourdesk_enter(p_account);
  PERFORM set_config('tourdesk.held_by_caller', 'on', true);
  FOR v_i IN 0 .. jsonb_array_length(p_items) - 1 LOOP
    v_item := p_items -> v_i;
    BEGIN
      v_user := (v_item ->> 'user')::uuid;
      SELECT c.id INTO v_cart FROM cart c WHERE c.account_id = p_account AND c.user_id = v_user;
      IF NOT FOUND THEN
        INSERT INTO cart (account_id, user_id) VALUES (p_account, v_user) ON CONFLICT DO NOTHING;
        SELECT c.id INTO v_cart FROM cart c WHERE c.account_id = p_account AND c.user_id = v_user;
      END IF;
      SELECT * INTO v_price FROM tourdesk_price(p_account, p_slot, coalesce(v_item -> 'quantities', '{}'), coalesce(v_item -> 'extras', '{}'));
    EXCEPTION WHEN SQLSTATE 'TD400' OR SQLSTATE 'TD404' THEN
      GET STACKED DIAGNOSTICS v_code = RETURNED_SQLSTATE, v_message = MESSAGE_TEXT, v_hint = PG_EXCEPTION_HINT;
      v_err_item := v_err_item || v_i;
      v_err_code := v_err_code || v_code;
      v_err_message := v_err_message || v_message;
      v_err_hint := v_err_hint || nullif(v_hint, '');
      CONTINUE;
    END;
    -- created_at from the clock, not the statement's start, and always later than the batch's
    -- previous line (a clock may tick coarsely): the lines of one batch keep their order.
    v_at := greatest(clock_timestamp(), v_at + interval '1 microsecond');
    INSERT INTO cart_line (account_id, cart_id, slot_id, quantities, extras, seats, total, currency, expires_at, created_at)
    VALUES (p_account, v_cart, p_slot, coalesce(v_item -> 'quantities', '{}'), coalesce(v_item -> 'extras', '{}'), v_price.seats, v_price.total,
            v_price.currency, now() + make_interval(mins => v_price.hold_minutes), v_at)
    RETURNING * INTO v_line;
    v_new_id := v_new_id || v_line.id;
    v_new_item := v_new_item || v_i;
    v_new_cart := v_new_cart || v_cart;
    v_new_seats := v_new_seats || v_line.seats;
    v_sum := v_sum + v_line.seats;
  END LOOP;

  IF cardinality(v_new_id) > 0 THEN
    -- The carts as they will be (the new lines included), read before the slot's lock.
    SELECT coalesce(array_agg(v), '{}') INTO v_rows FROM cart_line_api v WHERE v.account_id = p_account AND v.cart_id = ANY (v_new_cart);
    IF p_lock THEN
      UPDATE slot SET held = held + v_sum
      WHERE id = p_slot AND account_id = p_account AND NOT closed AND capacity - booked - held >= v_sum;
    END IF;
    IF NOT p_lock OR NOT FOUND THEN
      IF p_lock THEN
        SELECT closed INTO v_closed FROM slot WHERE id = p_slot AND account_id = p_account FOR UPDATE;
        -- The expired lines of others still count in held: they go first (the trigger takes their seats out).
        PERFORM set_config('tourdesk.held_by_caller', 'off', true);
        DELETE FROM cart_line l WHERE l.slot_id = p_slot AND l.expires_at <= now() AND NOT (l.id = ANY (v_new_id));
        PERFORM set_config('tourdesk.held_by_caller', 'on', true);
      ELSE
        SELECT closed INTO v_closed FROM slot WHERE id = p_slot AND account_id = p_account;
      END IF;
      SELECT capacity - booked - held INTO v_free FROM slot WHERE id = p_slot;
      FOR v_k IN 1 .. cardinality(v_new_id) LOOP
        IF v_closed IS NULL OR v_closed OR v_new_seats[v_k] > v_free THEN
          v_refused := v_refused || v_new_id[v_k];
          v_err_item := v_err_item || v_new_item[v_k];
          v_err_code := v_err_code || CASE WHEN v_closed IS NULL THEN 'TD404' WHEN v_closed THEN 'TD400' ELSE 'TD409' END;
          v_err_message := v_err_message || CASE WHEN v_closed IS NULL THEN 'No such time slot.' WHEN v_closed THEN 'This time slot is closed.'
                                                  ELSE tourdesk_sold_out(greatest(v_free, 0)) END;
          v_err_hint := v_err_hint || CASE WHEN v_closed IS NULL OR v_closed THEN 'slot' ELSE 'quantities' END;
        ELSE
          v_free := v_free - v_new_seats[v_k];
          v_granted := v_granted + v_new_seats[v_k];
        END IF;
      END LOOP;
      DELETE FROM cart_line l WHERE l.id = ANY (v_refused);
      UPDATE slot SET held = held + v_granted WHERE id = p_slot AND v_granted > 0;
    END IF;
  END IF;
  PERFORM set_config('tourdesk.held_by_caller', 'off', true);

  RETURN QUERY
    SELECT e.item, e.code, e.message, e.hint, NULL::uuid, NULL::uuid, NULL::uuid, NULL::uuid, NULL::text, NULL::float8,
           NULL::jsonb, NULL::jsonb, NULL::int, NULL::int, NULL::text, NULL::float8, NULL::timestamptz
    FROM unnest(v_err_item, v_err_code, v_err_message, v_err_hint) AS e(item, code, message, hint)
    UNION ALL
    SELECT c.item, NULL, NULL, NULL, r.id, r.cart_id, r.slot_id, r.experience_id, r.experience_title, r.starts_ms,
           r.quantities, r.extras, r.seats, r.total, r.currency, r.expires_ms, r.created_at
    FROM unnest(v_new_item, v_new_cart) AS c(item, cart) JOIN unnest(v_rows) AS r ON r.cart_id = c.cart
    WHERE NOT (r.id = ANY (v_refused)) AND NOT (c.item = ANY (v_err_item))
    ORDER BY 1, 17, 5;
END $$;
