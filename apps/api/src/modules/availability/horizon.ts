import type { Db } from '../../db/client';
import { inTenant } from '../../lib/tenancy';
import { addDays, todayIn } from '../../lib/local-time';
import * as q from './queries/horizon';
import { HORIZON_DAYS, occurrences } from './slots';

export { claimJob } from './queries/horizon';

/**
 * Slots exist for the whole selling horizon: once a day every schedule is extended to
 * HORIZON_DAYS ahead (the days that came into the horizon since the last run, or that a missed
 * run left out). Existing slots are never touched: a schedule's own changes regenerate it.
 */
export const HORIZON_JOB = 'extend-schedules';
/** How often the job runs, in hours. */
export const HORIZON_JOB_HOURS = 24;

/**
 * Runs the daily extension if it is due; answers how many slots it added, or null when not due.
 * A run that fails gives its claim back, so the next try (the job's retry, or the next hour's)
 * runs it again instead of waiting a day.
 */
export async function extendHorizonsIfDue(db: Db) {
  if (!(await q.claimJob(db, HORIZON_JOB, HORIZON_JOB_HOURS))) return null;
  try {
    return await extendHorizons(db);
  } catch (error) {
    await q.releaseJobClaim(db, HORIZON_JOB, HORIZON_JOB_HOURS);
    throw error;
  }
}

/** Extends every organisation's schedules, one organisation per transaction. */
export async function extendHorizons(db: Db) {
  const accounts = await q.accountsWithRules(db);
  let added = 0;
  for (const { id } of accounts) added += await inTenant(db, id, (tx) => extendAccount(tx, id));
  return added;
}

/**
 * One organisation: its rules, closed dates, offers and how far each offer's scheduled slots go
 * are read in four queries; each offer's missing days are worked out from the day after its last
 * scheduled slot (today at the earliest) to the horizon and inserted in batches.
 */
export async function extendAccount(tx: Db, accountId: string) {
  const zone = await q.accountZone(tx, accountId);
  const today = todayIn(zone);
  const horizon = addDays(today, HORIZON_DAYS);
  const rules = await q.currentRules(tx, accountId, today);
  if (rules.length === 0) return 0;
  const ids = [...new Set(rules.map((r) => r.experience_id))];
  const offers = await q.offerDurations(tx, accountId, ids);
  const closed = await q.closedDatesOf(tx, accountId, ids);
  const last = await q.lastScheduledDates(tx, accountId, ids);
  const lastDate = new Map(last.map((r) => [r.experience, r.date]));
  const values: Parameters<typeof q.insertNewSlots>[1] = [];
  for (const offer of offers) {
    const after = lastDate.get(offer.id);
    const from = after && after >= today ? addDays(after, 1) : today;
    if (from > horizon) continue;
    const wanted = occurrences({
      accountId,
      experienceId: offer.id,
      zone,
      durationMinutes: offer.duration,
      rules: rules.filter((r) => r.experience_id === offer.id),
      closed: new Set(closed.filter((c) => c.experience === offer.id).map((c) => c.date)),
      from,
      to: horizon,
    });
    values.push(...wanted.values());
  }
  let added = 0;
  for (let i = 0; i < values.length; i += 500) {
    added += await q.insertNewSlots(tx, values.slice(i, i + 500));
  }
  return added;
}
