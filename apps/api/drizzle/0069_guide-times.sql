-- A departure whose times change moves its guides' assignments with it (issue 34): their copy of
-- the window is what the exclusion constraint guide_assignment_no_overlap compares, so a schedule
-- regenerated with another duration, or a departure moved, can no longer put a guide on two
-- overlapping departures unseen. The function (tourdesk_slot_guide_times, src/db/functions/
-- 07-guides.sql) is defined after the migrations; a stand-in lets the trigger be made here.
CREATE OR REPLACE FUNCTION tourdesk_slot_guide_times() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RETURN NULL; END $$;--> statement-breakpoint
CREATE TRIGGER slot_guide_times AFTER UPDATE OF starts_at, ends_at ON slot
  FOR EACH ROW WHEN (OLD.starts_at IS DISTINCT FROM NEW.starts_at OR OLD.ends_at IS DISTINCT FROM NEW.ends_at)
  EXECUTE FUNCTION tourdesk_slot_guide_times();--> statement-breakpoint
-- Assignments made before this migration whose departure's times changed since: brought in line
-- (an overlap this reveals is left to the operator: the constraint is checked on the next change).
UPDATE guide_assignment g SET starts_at = s.starts_at, ends_at = s.ends_at
FROM slot s
WHERE s.id = g.slot_id AND (g.starts_at <> s.starts_at OR g.ends_at <> s.ends_at)
  AND NOT EXISTS (
    SELECT 1 FROM guide_assignment o JOIN slot os ON os.id = o.slot_id
    WHERE o.account_id = g.account_id AND o.user_id = g.user_id AND o.id <> g.id
      AND tstzrange(os.starts_at, os.ends_at) && tstzrange(s.starts_at, s.ends_at));
