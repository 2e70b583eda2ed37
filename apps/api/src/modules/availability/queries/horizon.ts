import { and, eq, inArray, isNotNull, sql } from 'drizzle-orm';
import type { Db } from '../../../db/client';
import { baseAccount, closedDate, experience, scheduleRule, scheduledJob, slot } from '../../../db/schema';

/** The selling horizon's job: its daily claim, and what one organisation's extension reads and inserts. */

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

/** Gives a claim back (a failed run), so the next try runs the job again. */
export async function releaseJobClaim(db: Db, name: string, hours: number) {
  await db.update(scheduledJob).set({ last_run_at: sql`now() - make_interval(hours => ${hours})` }).where(eq(scheduledJob.name, name));
}

/** The organisations that have schedule rules. */
export function accountsWithRules(db: Db) {
  return db.selectDistinct({ id: scheduleRule.account_id }).from(scheduleRule);
}

/** An organisation's time zone. */
export async function accountZone(tx: Db, accountId: string) {
  const [account] = await tx.select({ zone: baseAccount.time_zone }).from(baseAccount).where(eq(baseAccount.id, accountId));
  return account!.zone;
}

/** An organisation's rules still valid on or after `today`. */
export function currentRules(tx: Db, accountId: string, today: string) {
  return tx
    .select()
    .from(scheduleRule)
    .where(and(eq(scheduleRule.account_id, accountId), sql`(${scheduleRule.valid_to} is null or ${scheduleRule.valid_to} >= ${today})`));
}

/** Some experiences' durations. */
export function offerDurations(tx: Db, accountId: string, ids: string[]) {
  return tx.select({ id: experience.id, duration: experience.duration_minutes }).from(experience).where(and(eq(experience.account_id, accountId), inArray(experience.id, ids)));
}

/** Some experiences' closed dates. */
export function closedDatesOf(tx: Db, accountId: string, ids: string[]) {
  return tx.select({ experience: closedDate.experience_id, date: closedDate.date }).from(closedDate).where(and(eq(closedDate.account_id, accountId), inArray(closedDate.experience_id, ids)));
}

/** The last local date of each experience's scheduled slots (those from a rule). */
export function lastScheduledDates(tx: Db, accountId: string, ids: string[]) {
  return tx
      .select({ experience: slot.experience_id, date: sql<string>`max(${slot.local_date})::text` })
      .from(slot)
      .where(and(eq(slot.account_id, accountId), inArray(slot.experience_id, ids), isNotNull(slot.rule_id)))
      .groupBy(slot.experience_id);
}

/** Inserts new slots, leaving existing ones (same start) as they are; answers how many were added. */
export async function insertNewSlots(tx: Db, values: (typeof slot.$inferInsert)[]) {
  const rows = await tx.insert(slot).values(values).onConflictDoNothing().returning({ id: slot.id });
  return rows.length;
}
