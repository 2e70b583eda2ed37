import { and, eq, inArray, isNotNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { baseAccount, closedDate, experience, scheduleRule, scheduledJob, slot } from '../../db/schema';
import { inTenant } from '../../lib/tenancy';
import { addDays, todayIn } from '../../lib/local-time';
import { HORIZON_DAYS, occurrences } from './slots';

/**
 * Slots exist for the whole selling horizon: once a day every schedule is extended to
 * HORIZON_DAYS ahead (the days that came into the horizon since the last run, or that a missed
 * run left out). Existing slots are never touched: a schedule's own changes regenerate it.
 */
export const HORIZON_JOB = 'extend-schedules';
/** How often the job runs, in hours. */
export const HORIZON_JOB_HOURS = 24;

/**
 * Claims today's run for this instance: true when the last run (by any instance) is at least
 * `hours` old, or there was none. One statement, so of two instances asking at once one wins.
 */
export async function claimJob(db: Db, name: string, hours: number) {
  const rows = await db
    .insert(scheduledJob)
    .values({ name, last_run_at: sql`now()` })
    .onConflictDoUpdate({ target: scheduledJob.name, set: { last_run_at: sql`now()` }, setWhere: sql`${scheduledJob.last_run_at} <= now() - make_interval(hours => ${hours})` })
    .returning({ name: scheduledJob.name });
  return rows.length > 0;
}

/**
 * Runs the daily extension if it is due; answers how many slots it added, or null when not due.
 * A run that fails gives its claim back, so the next try (the job's retry, or the next hour's)
 * runs it again instead of waiting a day.
 */
export async function extendHorizonsIfDue(db: Db) {
  if (!(await claimJob(db, HORIZON_JOB, HORIZON_JOB_HOURS))) return null;
  try {
    return await extendHorizons(db);
  } catch (error) {
    await db.update(scheduledJob).set({ last_run_at: sql`now() - make_interval(hours => ${HORIZON_JOB_HOURS})` }).where(eq(scheduledJob.name, HORIZON_JOB));
    throw error;
  }
}

/** Extends every organisation's schedules, one organisation per transaction. */
export async function extendHorizons(db: Db) {
  const accounts = await db.selectDistinct({ id: scheduleRule.account_id }).from(scheduleRule);
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
  const [account] = await tx.select({ zone: baseAccount.time_zone }).from(baseAccount).where(eq(baseAccount.id, accountId));
  const today = todayIn(account!.zone);
  const horizon = addDays(today, HORIZON_DAYS);
  const rules = await tx
    .select()
    .from(scheduleRule)
    .where(and(eq(scheduleRule.account_id, accountId), sql`(${scheduleRule.valid_to} is null or ${scheduleRule.valid_to} >= ${today})`));
  if (rules.length === 0) return 0;
  const ids = [...new Set(rules.map((r) => r.experience_id))];
  const offers = await tx.select({ id: experience.id, duration: experience.duration_minutes }).from(experience).where(and(eq(experience.account_id, accountId), inArray(experience.id, ids)));
  const closed = await tx.select({ experience: closedDate.experience_id, date: closedDate.date }).from(closedDate).where(and(eq(closedDate.account_id, accountId), inArray(closedDate.experience_id, ids)));
  const last = await tx
      .select({ experience: slot.experience_id, date: sql<string>`max(${slot.local_date})::text` })
      .from(slot)
      .where(and(eq(slot.account_id, accountId), inArray(slot.experience_id, ids), isNotNull(slot.rule_id)))
      .groupBy(slot.experience_id);
  const lastDate = new Map(last.map((r) => [r.experience, r.date]));
  const values: (typeof slot.$inferInsert)[] = [];
  for (const offer of offers) {
    const after = lastDate.get(offer.id);
    const from = after && after >= today ? addDays(after, 1) : today;
    if (from > horizon) continue;
    const wanted = occurrences({
      accountId,
      experienceId: offer.id,
      zone: account!.zone,
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
    const rows = await tx.insert(slot).values(values.slice(i, i + 500)).onConflictDoNothing().returning({ id: slot.id });
    added += rows.length;
  }
  return added;
}
