-- Current definition, applied at every start after the versioned migrations (see
-- src/db/functions.ts): edit it here; a change of a function's arguments or result type needs a
-- versioned migration that drops the old one first. The triggers are made by migration 0066.

-- Guides (issue 34). slot.guide_seats is what a departure's assigned guides can take: their number
-- × its offer's guests_per_guide, or null when the offer needs no guides. Seats remaining
-- (tourdesk_seats_left, 02-slots.sql) stop at it, and the slot's CHECK (booked + held ≤
-- guide_seats) makes selling past it, or taking a guide away from what is sold, impossible.

-- What the guides of one slot can take, as the one place that works it out.
CREATE OR REPLACE FUNCTION tourdesk_guide_seats(p_slot uuid, p_per int) RETURNS int
  LANGUAGE sql STABLE AS $$
  SELECT CASE WHEN p_per IS NULL THEN NULL
              ELSE p_per * (SELECT count(*)::int FROM guide_assignment g WHERE g.slot_id = p_slot) END
$$;

-- After an assignment is made or taken away (trigger guide_assignment_seats): the slot's guide seats
-- again. The UPDATE takes the slot's row lock; the CHECK refuses it below what is booked and held.
CREATE OR REPLACE FUNCTION tourdesk_guide_assignment_seats() RETURNS trigger
  LANGUAGE plpgsql AS $$
DECLARE
  v_slot uuid := coalesce(NEW.slot_id, OLD.slot_id);
BEGIN
  -- A departure that has ended keeps its figure: a member who guided it can still be removed.
  UPDATE slot s SET guide_seats = tourdesk_guide_seats(s.id, e.guests_per_guide)
  FROM experience e
  WHERE s.id = v_slot AND e.id = s.experience_id AND e.guests_per_guide IS NOT NULL AND s.ends_at > now()
    AND s.guide_seats IS DISTINCT FROM tourdesk_guide_seats(s.id, e.guests_per_guide);
  RETURN NULL;
END $$;

-- A new slot of an offer that needs guides starts with none (trigger slot_guide_seats, BEFORE INSERT).
CREATE OR REPLACE FUNCTION tourdesk_slot_guide_seats() RETURNS trigger
  LANGUAGE plpgsql AS $$
DECLARE
  v_per int;
BEGIN
  SELECT e.guests_per_guide INTO v_per FROM experience e WHERE e.id = NEW.experience_id;
  NEW.guide_seats := CASE WHEN v_per IS NULL THEN NULL ELSE 0 END;
  RETURN NEW;
END $$;

-- An offer's guests_per_guide set, changed or cleared (trigger experience_guide_seats, AFTER UPDATE
-- OF guests_per_guide): its departures that have not ended take the new rule. A departure that
-- would then sell more than its guides can take is refused by name, before anything is written.
CREATE OR REPLACE FUNCTION tourdesk_experience_guide_seats() RETURNS trigger
  LANGUAGE plpgsql AS $$
DECLARE
  v_bad record;
BEGIN
  IF NEW.guests_per_guide IS NOT DISTINCT FROM OLD.guests_per_guide THEN
    RETURN NULL;
  END IF;
  -- Its departures locked first, in id order as every writer locks slots: no hold slips in between
  -- the check and the change, and no deadlock with a checkout of two of them.
  PERFORM 1 FROM slot s WHERE s.account_id = NEW.account_id AND s.experience_id = NEW.id AND s.ends_at > now()
  ORDER BY s.id FOR NO KEY UPDATE;
  SELECT s.local_date, s.local_time, s.booked + s.held AS taken, tourdesk_guide_seats(s.id, NEW.guests_per_guide) AS seats
  INTO v_bad
  FROM slot s
  WHERE s.account_id = NEW.account_id AND s.experience_id = NEW.id AND s.ends_at > now()
    AND s.booked + s.held > coalesce(tourdesk_guide_seats(s.id, NEW.guests_per_guide), s.capacity)
  ORDER BY s.starts_at LIMIT 1;
  IF FOUND THEN
    RAISE EXCEPTION 'The departure of % at % has % seats booked or held, and its guides take % guests at one guide per %: assign guides to it first.',
      v_bad.local_date, v_bad.local_time, v_bad.taken, v_bad.seats, NEW.guests_per_guide
      USING ERRCODE = 'TD400', HINT = 'guests_per_guide';
  END IF;
  UPDATE slot s SET guide_seats = tourdesk_guide_seats(s.id, NEW.guests_per_guide)
  WHERE s.account_id = NEW.account_id AND s.experience_id = NEW.id AND s.ends_at > now();
  RETURN NULL;
END $$;

-- A departure's guides as JSON, [{"id", "name"}] by name (a member without a name: their e-mail):
-- the one list the manifests, a guide's departures and the assignment panel show.
CREATE OR REPLACE FUNCTION tourdesk_guides_of(p_slot uuid) RETURNS json
  LANGUAGE sql STABLE AS $$
  SELECT coalesce(json_agg(json_build_object('id', u.id, 'name', u.name) ORDER BY u.name, u.id), '[]')
  FROM (SELECT u.id, coalesce(nullif(trim(u.first_name || ' ' || u.last_name), ''), u.email) AS name
        FROM guide_assignment g JOIN users u ON u.id = g.user_id WHERE g.slot_id = p_slot) u
$$;

-- A departure whose times change (trigger slot_guide_times, migration 0069, AFTER UPDATE OF
-- starts_at, ends_at ON slot) moves its guides' assignments with it, so the exclusion constraint
-- compares the new window: a change that would put a guide on two overlapping departures is
-- refused (409 conflict), naming the guide and the departure in the way. A rare write (a
-- schedule regenerated with another duration, a departure moved), so the check may cost a
-- subtransaction.
CREATE OR REPLACE FUNCTION tourdesk_slot_guide_times() RETURNS trigger
  LANGUAGE plpgsql AS $$
DECLARE
  v_clash record;
BEGIN
  BEGIN
    UPDATE guide_assignment SET starts_at = NEW.starts_at, ends_at = NEW.ends_at
    WHERE account_id = NEW.account_id AND slot_id = NEW.id;
  EXCEPTION WHEN exclusion_violation THEN
    SELECT coalesce(nullif(btrim(u.first_name || ' ' || u.last_name), ''), u.email) AS who,
           e.title, os.local_date, os.local_time
      INTO v_clash
    FROM guide_assignment g
    JOIN guide_assignment o ON o.account_id = g.account_id AND o.user_id = g.user_id AND o.slot_id <> g.slot_id
    JOIN slot os ON os.id = o.slot_id
    JOIN experience e ON e.id = os.experience_id
    JOIN users u ON u.id = g.user_id
    WHERE g.account_id = NEW.account_id AND g.slot_id = NEW.id
      AND tstzrange(o.starts_at, o.ends_at) && tstzrange(NEW.starts_at, NEW.ends_at)
    ORDER BY os.starts_at LIMIT 1;
    PERFORM tourdesk_refuse(jsonb_build_array(jsonb_build_object('code', 'conflict', 'attr', NULL,
      'detail', format('%s guides “%s” at %s on %s, which the departure at %s on %s would overlap with its new times: give one of them another guide first.',
        coalesce(v_clash.who, 'A guide'), coalesce(v_clash.title, 'another departure'), coalesce(v_clash.local_time, '?'), coalesce(v_clash.local_date::text, '?'),
        NEW.local_time, NEW.local_date))));
  END;
  RETURN NULL;
END $$;
