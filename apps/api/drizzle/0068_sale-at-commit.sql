-- A checkout's sale at its commit (issue 33): a constraint trigger, deferred, on the order's insert.
-- Its function (tourdesk_sale_at_commit, src/db/functions/04-carts.sql) is defined after the
-- migrations; a stand-in lets the trigger be made here. It fires only for an order inserted while
-- the transaction's setting tourdesk.sale_pending is on (checkout() sets it), so bulk inserts of
-- orders queue no event.
CREATE OR REPLACE FUNCTION tourdesk_sale_at_commit() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RETURN NULL; END $$;--> statement-breakpoint
CREATE CONSTRAINT TRIGGER orders_sale_at_commit AFTER INSERT ON orders
  DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW WHEN (current_setting('tourdesk.sale_pending', true) = 'on')
  EXECUTE FUNCTION tourdesk_sale_at_commit();
--> statement-breakpoint
-- Order references come from each organisation's sequence for its local year (tourdesk_order_reference,
-- 04-carts.sql), made at its first order of the year; this year's are made here for the organisations
-- there are, each starting after the ORD counter that numbered their orders until now, so that first
-- order never waits for another's CREATE SEQUENCE.
DO $$
DECLARE
  r record;
BEGIN
  FOR r IN
    SELECT a.id, extract(year FROM now() AT TIME ZONE a.time_zone)::int AS year,
      coalesce((SELECT max(q.next_number) FROM invoice_sequence q
                WHERE q.account_id = a.id AND q.series = 'ORD' AND q.year = extract(year FROM now() AT TIME ZONE a.time_zone)::int), 1) AS start
    FROM base_account a
  LOOP
    EXECUTE format('CREATE SEQUENCE IF NOT EXISTS public.%I START WITH %s', 'tourdesk_ord_' || replace(r.id::text, '-', '') || '_' || r.year, r.start);
  END LOOP;
END $$;
