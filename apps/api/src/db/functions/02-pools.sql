-- Current definition, applied at every start after the versioned migrations (see
-- src/db/functions.ts): edit it here; a change of a function's arguments or result type needs a
-- versioned migration that drops the old one first. The triggers are made by migration 0067.
-- (Named so it sorts before 02-slots.sql, whose view calls tourdesk_pool_seats.)

-- Resource pools (issue 34). A pool is an inventory item of type Equipment with a stock; an offer
-- says what each booking takes from which pools (pool_usage: per seat of a pricing category, per
-- booking, per extra sold). What a line or a booking takes is worked out here when it is written
-- and kept with it ({pool id: units}, cart_line.pools and booking.pools), so a later change of the
-- offer's rules never changes what an earlier sale took (the API recomputes the rows to come when
-- the rules change, see experiences/pools.ts). A pool's use at a moment is the sum of what the live
-- holds (unexpired cart lines) and the bookings not cancelled of every departure whose window
-- [starts_at − buffer_before, ends_at + buffer_after) contains that moment take: nothing is counted
-- twice and nothing needs freeing by hand (a cancelled booking, an expired or swept hold stop
-- counting). There is no counter to drift.
--
-- Lock order (ARCHITECTURE.md): the slots first, in id order; then the pools (their
-- inventory_item rows, FOR NO KEY UPDATE), in id order; then the lines. Every writer that adds use
-- locks the pool before it checks, and keeps the lock until it commits, so two checks of one pool
-- never run at once and each sees what the other committed (a statement of a plpgsql function takes
-- a new snapshot after the lock's wait). The check that makes overuse impossible whoever writes is
-- the deferred constraint trigger pool_use_check on cart_line and booking (tourdesk_pool_row_check):
-- at commit, after every slot lock the transaction takes, it locks the row's pools in id order and
-- refuses the commit if any moment of the departure's window is over the pool's stock.

-- What one line or booking of an offer takes: {pool id: units}, null when it takes nothing.
CREATE OR REPLACE FUNCTION tourdesk_pool_units(p_account uuid, p_experience uuid, p_quantities jsonb, p_extras jsonb) RETURNS jsonb
  LANGUAGE sql STABLE AS $$
  SELECT jsonb_object_agg(t.pool_id, t.units) FROM (
    SELECT u.pool_id, sum(u.units * CASE u.per
        WHEN 'seat' THEN coalesce((p_quantities ->> u.pricing_category_id::text)::int, 0)
        WHEN 'booking' THEN 1
        ELSE coalesce((p_extras ->> u.extra_id::text)::int, 0) END)::int AS units
    FROM pool_usage u WHERE u.account_id = p_account AND u.experience_id = p_experience
    GROUP BY u.pool_id) t
  WHERE t.units > 0
$$;

-- The most of a pool in use at any moment of [p_from, p_to), with the given buffers (the pool's, or
-- ones about to be set), not counting the cart lines p_except. The use is a step function that rises
-- only where a window starts, so its highest point in the range is at p_from or at a window's start.
CREATE OR REPLACE FUNCTION tourdesk_pool_peak(p_account uuid, p_pool uuid, p_from timestamptz, p_to timestamptz,
    p_before int, p_after int, p_except uuid[] DEFAULT '{}') RETURNS int
  LANGUAGE sql STABLE AS $$
  WITH w AS (
    SELECT s.id, s.starts_at - make_interval(mins => p_before) AS w0, s.ends_at + make_interval(mins => p_after) AS w1
    FROM slot s
    WHERE s.account_id = p_account
      AND s.experience_id IN (SELECT DISTINCT u.experience_id FROM pool_usage u WHERE u.account_id = p_account AND u.pool_id = p_pool)
      AND tstzrange(s.starts_at, s.ends_at) && tstzrange(p_from - make_interval(mins => p_after), p_to + make_interval(mins => p_before))
  ), used AS (
    SELECT w.w0, w.w1,
      coalesce((SELECT sum((l.pools ->> p_pool::text)::int) FROM cart_line l
                WHERE l.slot_id = w.id AND l.expires_at > now() AND l.pools ? p_pool::text AND NOT (l.id = ANY (p_except))), 0)
      + coalesce((SELECT sum((b.pools ->> p_pool::text)::int) FROM booking b
                  WHERE b.account_id = p_account AND b.slot_id = w.id AND b.status <> 'Canceled' AND b.pools ? p_pool::text), 0) AS n
    FROM w
  )
  SELECT coalesce(max((SELECT sum(u2.n) FROM used u2 WHERE u2.w0 <= p.at AND u2.w1 > p.at)), 0)::int
  FROM (SELECT greatest(u.w0, p_from) AS at FROM used u WHERE u.n > 0 AND u.w0 < p_to AND u.w1 > p_from) p
$$;

-- What a pool has free over one departure's window (its stock less the peak there; negative never
-- happens, the check below sees to it), not counting the cart lines p_except.
CREATE OR REPLACE FUNCTION tourdesk_pool_free(p_pool uuid, p_slot uuid, p_except uuid[] DEFAULT '{}') RETURNS int
  LANGUAGE sql STABLE AS $$
  SELECT i.stock - tourdesk_pool_peak(s.account_id, i.id, s.starts_at - make_interval(mins => i.buffer_before_minutes),
                                      s.ends_at + make_interval(mins => i.buffer_after_minutes),
                                      i.buffer_before_minutes, i.buffer_after_minutes, p_except)
  FROM inventory_item i JOIN slot s ON s.id = p_slot
  WHERE i.id = p_pool
$$;

-- The seats a departure's pools leave it (null: its offer uses no pool): per pool, what is free over
-- its window, less what a booking takes, divided by the fewest units a seat takes (a category that
-- takes none of it is not limited by it; an extra is not a seat). The smallest over its pools.
-- Seats left (slot_api.remaining, tourdesk_availability) = least(tourdesk_seats_left(…), this).
CREATE OR REPLACE FUNCTION tourdesk_pool_seats(p_slot uuid) RETURNS int
  LANGUAGE sql STABLE AS $$
  SELECT min(CASE WHEN f.free < f.per_booking THEN 0
                  WHEN f.per_seat IS NULL THEN NULL
                  ELSE greatest(0, (f.free - f.per_booking) / f.per_seat) END)::int
  FROM (
    SELECT tourdesk_pool_free(u.pool_id, p_slot) AS free,
      min(u.units) FILTER (WHERE u.per = 'seat') AS per_seat,
      coalesce(sum(u.units) FILTER (WHERE u.per = 'booking'), 0) AS per_booking
    FROM slot s JOIN pool_usage u ON u.account_id = s.account_id AND u.experience_id = s.experience_id
    WHERE s.id = p_slot
    GROUP BY u.pool_id
  ) f
$$;

-- Whether an offer uses a pool at all: the one test that keeps offers without pools on their old path.
CREATE OR REPLACE FUNCTION tourdesk_pooled(p_account uuid, p_experience uuid) RETURNS boolean
  LANGUAGE sql STABLE AS $$
  SELECT EXISTS (SELECT 1 FROM pool_usage u WHERE u.account_id = p_account AND u.experience_id = p_experience)
$$;

-- Locks the pools the offers of these slots use, in id order (after the slots: the lock order).
CREATE OR REPLACE FUNCTION tourdesk_lock_pools(p_account uuid, p_slots uuid[]) RETURNS void
  LANGUAGE sql AS $$
  SELECT NULL FROM (
    SELECT 1 FROM inventory_item i
    WHERE i.account_id = p_account
      AND i.id IN (SELECT u.pool_id FROM pool_usage u JOIN slot s ON s.account_id = u.account_id AND s.experience_id = u.experience_id
                   WHERE s.account_id = p_account AND s.id = ANY (p_slots))
    ORDER BY i.id FOR NO KEY UPDATE OF i) x
$$;

-- Checks one pool over one departure's window, with the pool locked: raises "sold out" (TD409)
-- naming the pool when some moment is over its stock.
CREATE OR REPLACE FUNCTION tourdesk_pool_check(p_pool uuid, p_slot uuid) RETURNS void
  LANGUAGE plpgsql AS $$
DECLARE
  v_name text;
  v_stock int;
  v_free int;
BEGIN
  SELECT i.name, i.stock INTO v_name, v_stock FROM inventory_item i WHERE i.id = p_pool FOR NO KEY UPDATE;
  IF NOT FOUND THEN
    RETURN;
  END IF;
  v_free := tourdesk_pool_free(p_pool, p_slot);
  IF v_free < 0 THEN
    RAISE EXCEPTION 'Sold out: not enough % (% in stock) for this time slot.', v_name, coalesce(v_stock, 0)
      USING ERRCODE = 'TD409', HINT = 'quantities';
  END IF;
END $$;

-- The deferred constraint trigger pool_use_check on cart_line and booking (migration 0067): at
-- commit, each pool the row takes is locked and checked over its departure's window, in pool id
-- order; a pool and departure already checked by this transaction's commit is not checked again.
CREATE OR REPLACE FUNCTION tourdesk_pool_row_check() RETURNS trigger
  LANGUAGE plpgsql AS $$
DECLARE
  v_pool text;
  v_key text;
  v_done text := coalesce(current_setting('tourdesk.pools_checked', true), '');
BEGIN
  FOR v_pool IN SELECT k FROM jsonb_object_keys(NEW.pools) k ORDER BY k::uuid LOOP
    v_key := v_pool || ':' || NEW.slot_id::text;
    IF position(v_key IN v_done) = 0 THEN
      PERFORM tourdesk_pool_check(v_pool::uuid, NEW.slot_id);
      v_done := v_done || ' ' || v_key;
    END IF;
  END LOOP;
  PERFORM set_config('tourdesk.pools_checked', v_done, true);
  RETURN NULL;
END $$;

-- What a booking takes, worked out when it is written (trigger booking_pools, BEFORE INSERT OR
-- UPDATE OF quantities, extras, slot_id).
CREATE OR REPLACE FUNCTION tourdesk_booking_pools() RETURNS trigger
  LANGUAGE plpgsql AS $$
BEGIN
  NEW.pools := tourdesk_pool_units(NEW.account_id, NEW.experience_id, NEW.quantities, NEW.extras);
  RETURN NEW;
END $$;

-- A pool's stock lowered or its buffers changed (trigger inventory_item_pool_change, BEFORE UPDATE OF
-- stock, buffer_before_minutes, buffer_after_minutes): refused, naming the departure in the way, when
-- some departure to come would then be over it at some moment. The row's own lock (this UPDATE's)
-- keeps every check of the pool waiting meanwhile.
CREATE OR REPLACE FUNCTION tourdesk_pool_change() RETURNS trigger
  LANGUAGE plpgsql AS $$
DECLARE
  v_bad record;
BEGIN
  IF NOT EXISTS (SELECT 1 FROM pool_usage u WHERE u.account_id = NEW.account_id AND u.pool_id = NEW.id)
     OR (NEW.stock IS NOT DISTINCT FROM OLD.stock AND NEW.buffer_before_minutes = OLD.buffer_before_minutes
         AND NEW.buffer_after_minutes = OLD.buffer_after_minutes) THEN
    RETURN NEW;
  END IF;
  SELECT s.local_date, s.local_time, e.title, p.peak INTO v_bad
  FROM slot s
  JOIN experience e ON e.id = s.experience_id
  CROSS JOIN LATERAL (SELECT tourdesk_pool_peak(NEW.account_id, NEW.id, s.starts_at - make_interval(mins => NEW.buffer_before_minutes),
                                                s.ends_at + make_interval(mins => NEW.buffer_after_minutes),
                                                NEW.buffer_before_minutes, NEW.buffer_after_minutes) AS peak) p
  WHERE s.account_id = NEW.account_id AND s.ends_at > now()
    AND s.experience_id IN (SELECT u.experience_id FROM pool_usage u WHERE u.account_id = NEW.account_id AND u.pool_id = NEW.id)
    AND p.peak > coalesce(NEW.stock, 0)
  ORDER BY s.starts_at LIMIT 1;
  IF FOUND THEN
    RAISE EXCEPTION '% of % are booked or held around % on % at %: the stock cannot go below that.',
      v_bad.peak, NEW.name, v_bad.title, v_bad.local_date, v_bad.local_time
      USING ERRCODE = 'TD409', HINT = 'stock';
  END IF;
  RETURN NEW;
END $$;

-- A pool's use over a stretch of time (the capacity page's timeline): one row per departure of
-- every offer that uses it whose window meets [p_from, p_to), with its window and what it takes.
CREATE OR REPLACE FUNCTION tourdesk_pool_timeline(p_account uuid, p_pool uuid, p_from timestamptz, p_to timestamptz)
  RETURNS TABLE (slot_id uuid, experience_id uuid, experience_title text, starts_at timestamptz, ends_at timestamptz,
    window_from timestamptz, window_to timestamptz, used int, peak int)
  LANGUAGE sql STABLE AS $$
  SELECT s.id, s.experience_id, e.title, s.starts_at, s.ends_at,
    s.starts_at - make_interval(mins => i.buffer_before_minutes), s.ends_at + make_interval(mins => i.buffer_after_minutes),
    (coalesce((SELECT sum((l.pools ->> p_pool::text)::int) FROM cart_line l
               WHERE l.slot_id = s.id AND l.expires_at > now() AND l.pools ? p_pool::text), 0)
     + coalesce((SELECT sum((b.pools ->> p_pool::text)::int) FROM booking b
                 WHERE b.account_id = p_account AND b.slot_id = s.id AND b.status <> 'Canceled' AND b.pools ? p_pool::text), 0))::int,
    tourdesk_pool_peak(p_account, p_pool, s.starts_at - make_interval(mins => i.buffer_before_minutes),
                       s.ends_at + make_interval(mins => i.buffer_after_minutes), i.buffer_before_minutes, i.buffer_after_minutes)
  FROM inventory_item i
  JOIN slot s ON s.account_id = p_account
  JOIN experience e ON e.id = s.experience_id
  WHERE i.account_id = p_account AND i.id = p_pool
    AND s.experience_id IN (SELECT u.experience_id FROM pool_usage u WHERE u.account_id = p_account AND u.pool_id = p_pool)
    AND tstzrange(s.starts_at, s.ends_at) && tstzrange(p_from - make_interval(mins => i.buffer_after_minutes), p_to + make_interval(mins => i.buffer_before_minutes))
  ORDER BY s.starts_at, s.id
$$;
