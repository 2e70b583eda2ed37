-- Carts leave the database as rows (their unexpired lines) and become JSON in the API
-- (presentCarts() in holds.ts), like slots in 0012: JSON built in the database cost far more
-- than finding the rows, and the database is the busy side of a hold.
DROP FUNCTION tourdesk_cart_scoped(uuid, uuid);
--> statement-breakpoint
DROP FUNCTION tourdesk_cart(uuid, uuid);
--> statement-breakpoint
CREATE VIEW cart_line_api WITH (security_invoker = true) AS
SELECT l.id, l.account_id, l.cart_id, l.slot_id, s.experience_id, e.title AS experience_title,
  (extract(epoch FROM s.starts_at) * 1000)::float8 AS starts_ms,
  l.quantities, l.extras, l.seats, l.total, l.currency,
  (extract(epoch FROM l.expires_at) * 1000)::float8 AS expires_ms,
  l.created_at
FROM cart_line l
JOIN slot s ON s.id = l.slot_id
JOIN experience e ON e.id = s.experience_id
WHERE l.expires_at > now();
--> statement-breakpoint
-- A cart's unexpired lines, read in a statement of its own that enters the tenant scope (after a
-- hold commits, outside the slot's lock).
CREATE FUNCTION tourdesk_cart_lines(p_account uuid, p_cart uuid)
  RETURNS SETOF cart_line_api LANGUAGE plpgsql AS $$
BEGIN
  PERFORM tourdesk_enter(p_account);
  RETURN QUERY SELECT * FROM cart_line_api v WHERE v.account_id = p_account AND v.cart_id = p_cart ORDER BY v.created_at, v.id;
END $$;
