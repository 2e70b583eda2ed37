-- Each slot row also carries itself as JSON text (the Slot schema without its prices), built by
-- plain concatenation: every value is a number, a boolean, an id, an ISO time, a zone name or a
-- "HH:MM" — nothing to escape — which costs the database next to nothing (JSON functions cost
-- fifteen times the query), and spares the API parsing columns and serialising objects on the
-- month calendar's hot path. This view is the one definition of a slot's state: seats left
-- (held minus expired, unswept lines), bookable (open and a seat left), and the status — closed
-- (slot closed, offer not on sale, past its cutoff), sold out, limited (at most a fifth of the
-- capacity left) or available. The API adds the day's prices (slots.ts).
DROP FUNCTION tourdesk_availability(uuid, uuid, date, date);
--> statement-breakpoint
DROP VIEW slot_api;
--> statement-breakpoint
CREATE VIEW slot_api WITH (security_invoker = true) AS
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
    s.local_date, s.local_date::text AS day, s.local_time, a.time_zone,
    s.capacity, s.booked, s.held - coalesce(x.seats, 0) AS held, s.closed,
    greatest(0, s.capacity - s.booked - s.held + coalesce(x.seats, 0)) AS remaining,
    NOT s.closed AND e.status = 'Active'
      AND s.starts_at - make_interval(mins => coalesce(nullif(e.booking_cutoff_minutes, 0), a.default_cutoff_minutes)) > now() AS open
  FROM slot s
  JOIN experience e ON e.id = s.experience_id
  JOIN base_account a ON a.id = s.account_id
  LEFT JOIN (SELECT l.slot_id, sum(l.seats)::int AS seats FROM cart_line l WHERE l.expires_at <= now() GROUP BY l.slot_id) x ON x.slot_id = s.id
) b;
--> statement-breakpoint
-- The month calendar's hot path: one statement that enters the tenant scope itself and returns
-- first the experience's price rates (one row, head null), then its slots between two local
-- dates as JSON text, for the API to add each day's prices.
CREATE FUNCTION tourdesk_availability(p_account uuid, p_experience uuid, p_from date, p_to date)
  RETURNS TABLE (head text, day text, rates text)
  LANGUAGE plpgsql AS $$
BEGIN
  PERFORM tourdesk_enter(p_account);
  IF NOT EXISTS (SELECT 1 FROM experience e WHERE e.account_id = p_account AND e.id = p_experience) THEN
    RAISE EXCEPTION 'No experience with this id.' USING ERRCODE = 'TD404';
  END IF;
  RETURN QUERY
    SELECT NULL::text, NULL::text, coalesce(json_agg(json_build_object('pricing_category', pr.pricing_category_id, 'retail_price', pr.retail_price, 'currency', pr.currency,
             'valid_from', pr.valid_from, 'valid_to', pr.valid_to, 'weekdays', pr.weekdays) ORDER BY pr.pricing_category_id), '[]')::text
    FROM pricing_rate pr WHERE pr.account_id = p_account AND pr.experience_id = p_experience;
  RETURN QUERY
    SELECT v.head, v.day, NULL::text
    FROM slot_api v
    WHERE v.account_id = p_account AND v.experience_id = p_experience AND v.local_date BETWEEN p_from AND p_to
    ORDER BY v.starts_at, v.id;
END $$;
