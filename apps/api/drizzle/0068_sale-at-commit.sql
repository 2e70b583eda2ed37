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
