import { and, asc, eq } from 'drizzle-orm';
import type { TScheduleRule } from '@tourdesk/contracts';
import { closedDate, experience, scheduleRule } from '../../db/schema';
import { assertOwned, type TenantCtx } from '../../lib/crud';
import { notFound } from '../../lib/errors';
import { regenerateSlots } from './slots';

/** Schedule rules and closed dates; every change makes the experience's slots follow at once. */

type RuleInput = Omit<TScheduleRule, 'id'>;

const presentRule = (r: typeof scheduleRule.$inferSelect): TScheduleRule => ({
  id: r.id,
  experience: r.experience_id,
  kind: r.kind as TScheduleRule['kind'],
  valid_from: r.valid_from,
  valid_to: r.valid_to,
  weekdays: r.weekdays,
  start_times: r.start_times,
  closing_time: r.closing_time,
  capacity: r.capacity,
});

const ruleColumns = (b: RuleInput) => ({
  kind: b.kind,
  valid_from: b.valid_from,
  valid_to: b.valid_to,
  weekdays: b.weekdays,
  start_times: [...new Set(b.start_times)].sort(),
  closing_time: b.closing_time,
  capacity: b.capacity,
});

export async function listRules(ctx: TenantCtx, experienceId: string) {
  const rows = await ctx.tx
    .select()
    .from(scheduleRule)
    .where(and(eq(scheduleRule.account_id, ctx.accountId), eq(scheduleRule.experience_id, experienceId)))
    .orderBy(asc(scheduleRule.valid_from));
  return rows.map(presentRule);
}

export async function createRule(ctx: TenantCtx, b: RuleInput) {
  await assertOwned(ctx, experience, b.experience, 'experience', 'experience');
  const [row] = await ctx.tx
    .insert(scheduleRule)
    .values({ account_id: ctx.accountId, experience_id: b.experience, ...ruleColumns(b) })
    .returning();
  await regenerateSlots(ctx, b.experience);
  return presentRule(row!);
}

/** The answer's account of slots kept because something is booked or held in them. */
function keptDetail(kept: number) {
  if (kept === 0) return 'No time slot with bookings was affected.';
  return `${kept} time slot${kept === 1 ? '' : 's'} with bookings ${kept === 1 ? 'was' : 'were'} kept; those no schedule wants any more are closed to new bookings. Cancel or move their bookings to remove them.`;
}

export async function replaceRule(ctx: TenantCtx, id: string, b: RuleInput) {
  const [row] = await ctx.tx
    .update(scheduleRule)
    .set({ ...ruleColumns(b), updated_at: new Date() })
    .where(and(eq(scheduleRule.account_id, ctx.accountId), eq(scheduleRule.id, id), eq(scheduleRule.experience_id, b.experience)))
    .returning();
  if (!row) throw notFound('No schedule rule with this id.');
  const { kept } = await regenerateSlots(ctx, row.experience_id);
  return { ...presentRule(row), kept_slots: kept, detail: keptDetail(kept) };
}

export async function deleteRule(ctx: TenantCtx, id: string) {
  const [row] = await ctx.tx.delete(scheduleRule).where(and(eq(scheduleRule.account_id, ctx.accountId), eq(scheduleRule.id, id))).returning();
  if (!row) throw notFound('No schedule rule with this id.');
  const { kept } = await regenerateSlots(ctx, row.experience_id);
  return { kept_slots: kept, detail: keptDetail(kept) };
}

export async function closeDate(ctx: TenantCtx, input: { experience: string; date: string; reason: string }) {
  await assertOwned(ctx, experience, input.experience, 'experience', 'experience');
  await ctx.tx
    .insert(closedDate)
    .values({ account_id: ctx.accountId, experience_id: input.experience, date: input.date, reason: input.reason })
    .onConflictDoNothing();
  await regenerateSlots(ctx, input.experience);
}
