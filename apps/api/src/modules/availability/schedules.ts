import type { TScheduleRule } from '@tourdesk/contracts';
import type { TenantCtx } from '../../lib/crud';
import { notFound } from '../../lib/errors';
import * as q from './queries/schedules';
import { regenerateSlots } from './slots';

/** Schedule rules and closed dates; every change makes the experience's slots follow at once. */

type RuleInput = Omit<TScheduleRule, 'id'>;

const presentRule = (r: q.ScheduleRuleRow): TScheduleRule => ({
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
  const rows = await q.rulesByValidity(ctx, experienceId);
  return rows.map(presentRule);
}

export async function createRule(ctx: TenantCtx, b: RuleInput) {
  await q.assertOwnExperience(ctx, b.experience);
  const row = await q.insertRule(ctx, b.experience, ruleColumns(b));
  await regenerateSlots(ctx, b.experience);
  return presentRule(row);
}

/** The answer's account of slots kept because something is booked or held in them. */
function keptDetail(kept: number) {
  if (kept === 0) return 'No time slot with bookings was affected.';
  return `${kept} time slot${kept === 1 ? '' : 's'} with bookings ${kept === 1 ? 'was' : 'were'} kept; those no schedule wants any more are closed to new bookings. Cancel or move their bookings to remove them.`;
}

export async function replaceRule(ctx: TenantCtx, id: string, b: RuleInput) {
  const row = await q.updateRule(ctx, id, b.experience, ruleColumns(b));
  if (!row) throw notFound('No schedule rule with this id.');
  const { kept } = await regenerateSlots(ctx, row.experience_id);
  return { ...presentRule(row), kept_slots: kept, detail: keptDetail(kept) };
}

export async function deleteRule(ctx: TenantCtx, id: string) {
  const row = await q.deleteRule(ctx, id);
  if (!row) throw notFound('No schedule rule with this id.');
  const { kept } = await regenerateSlots(ctx, row.experience_id);
  return { kept_slots: kept, detail: keptDetail(kept) };
}

export async function closeDate(ctx: TenantCtx, input: { experience: string; date: string; reason: string }) {
  await q.assertOwnExperience(ctx, input.experience);
  await q.insertClosedDate(ctx, input);
  await regenerateSlots(ctx, input.experience);
}
