import { and, asc, eq } from 'drizzle-orm';
import { closedDate, experience, scheduleRule } from '../../../db/schema';
import { assertOwned } from '../../../lib/crud-queries';
import type { TenantCtx } from '../../../lib/crud';

/** Schedule rules and closed dates. */

export type ScheduleRuleRow = typeof scheduleRule.$inferSelect;
type RuleColumns = Pick<typeof scheduleRule.$inferInsert, 'kind' | 'valid_from' | 'valid_to' | 'weekdays' | 'start_times' | 'closing_time' | 'capacity'>;

/** Refuses (400) an experience id that is not the organisation's. */
export function assertOwnExperience(ctx: TenantCtx, id: string) {
  return assertOwned(ctx, experience, id, 'experience', 'experience');
}

/** An experience's rules, by start of validity. */
export function rulesByValidity(ctx: TenantCtx, experienceId: string) {
  return ctx.tx
    .select()
    .from(scheduleRule)
    .where(and(eq(scheduleRule.account_id, ctx.accountId), eq(scheduleRule.experience_id, experienceId)))
    .orderBy(asc(scheduleRule.valid_from));
}

/** Inserts a rule. */
export async function insertRule(ctx: TenantCtx, experienceId: string, columns: RuleColumns) {
  const [row] = await ctx.tx
    .insert(scheduleRule)
    .values({ account_id: ctx.accountId, experience_id: experienceId, ...columns })
    .returning();
  return row!;
}

/** Replaces a rule's columns (undefined when the experience has no rule with this id). */
export async function updateRule(ctx: TenantCtx, id: string, experienceId: string, columns: RuleColumns) {
  const [row] = await ctx.tx
    .update(scheduleRule)
    .set({ ...columns, updated_at: new Date() })
    .where(and(eq(scheduleRule.account_id, ctx.accountId), eq(scheduleRule.id, id), eq(scheduleRule.experience_id, experienceId)))
    .returning();
  return row;
}

/** Deletes a rule (undefined when there is none with this id). */
export async function deleteRule(ctx: TenantCtx, id: string) {
  const [row] = await ctx.tx.delete(scheduleRule).where(and(eq(scheduleRule.account_id, ctx.accountId), eq(scheduleRule.id, id))).returning();
  return row;
}

/** Closes a date for an experience (closing it twice changes nothing). */
export async function insertClosedDate(ctx: TenantCtx, input: { experience: string; date: string; reason: string }) {
  await ctx.tx
    .insert(closedDate)
    .values({ account_id: ctx.accountId, experience_id: input.experience, date: input.date, reason: input.reason })
    .onConflictDoNothing();
}
