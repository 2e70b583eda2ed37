import { and, asc, eq, gte, inArray, lte, sql } from 'drizzle-orm';
import type { TSlot } from '@tourdesk/contracts';
import type { Db } from '../../db/client';
import { baseAccount, cartLine, closedDate, experience, pricingRate, scheduleRule, slot } from '../../db/schema';
import type { TenantCtx } from '../../lib/crud';
import { AppError } from '../../lib/errors';
import { addDays, eachDay, localToUtc, todayIn } from '../../lib/local-time';

export type SlotRow = typeof slot.$inferSelect;
/** How far ahead slots exist, in days. */
export const HORIZON_DAYS = 400;
/** A slot with at most this share of seats left is "limited". */
const LIMITED_SHARE = 0.2;

/**
 * Test-only switch: with the lock off, reservations read a slot's seats without locking its row,
 * and concurrent requests oversell it (test/oversell.int.test.ts proves it).
 */
export const capacityLock = { enabled: true };

export async function accountSettings(tx: Db, accountId: string) {
  const [row] = await tx
    .select({ time_zone: baseAccount.time_zone, currency: baseAccount.currency, hold_minutes: baseAccount.hold_minutes, default_cutoff_minutes: baseAccount.default_cutoff_minutes })
    .from(baseAccount)
    .where(eq(baseAccount.id, accountId));
  return row!;
}

/**
 * Makes the experience's future slots follow its rules, in the experience's (account's) time
 * zone. New occurrences are added; a changed capacity is applied (never below what is booked);
 * an occurrence no rule wants any more is removed only if nothing is booked or held in it,
 * otherwise it is kept and marked as no longer scheduled.
 */
export async function regenerateSlots(ctx: TenantCtx, experienceId: string) {
  const settings = await accountSettings(ctx.tx, ctx.accountId);
  const zone = settings.time_zone;
  const [exp] = await ctx.tx.select().from(experience).where(and(eq(experience.account_id, ctx.accountId), eq(experience.id, experienceId)));
  if (!exp) throw new AppError('not_found', 'No experience with this id.');
  const rules = await ctx.tx.select().from(scheduleRule).where(and(eq(scheduleRule.account_id, ctx.accountId), eq(scheduleRule.experience_id, experienceId)));
  const closed = new Set(
    (await ctx.tx.select({ date: closedDate.date }).from(closedDate).where(and(eq(closedDate.account_id, ctx.accountId), eq(closedDate.experience_id, experienceId)))).map((c) => c.date),
  );
  const today = todayIn(zone);
  const horizon = addDays(today, HORIZON_DAYS);
  const duration = (exp.duration_minutes ?? 60) * 60_000;
  const now = Date.now();

  const wanted = new Map<string, typeof slot.$inferInsert>();
  for (const rule of rules) {
    const from = rule.valid_from > today ? rule.valid_from : today;
    const to = rule.valid_to && rule.valid_to < horizon ? rule.valid_to : horizon;
    for (const { date, weekday } of eachDay(from, to)) {
      if (closed.has(date) || (rule.weekdays.length > 0 && !rule.weekdays.includes(weekday))) continue;
      for (const time of rule.start_times) {
        const startsAt = localToUtc(date, time, zone);
        if (startsAt.getTime() <= now) continue;
        const endsAt = rule.kind === 'opening_hours' && rule.closing_time ? localToUtc(date, rule.closing_time, zone) : new Date(startsAt.getTime() + duration);
        wanted.set(startsAt.toISOString(), {
          account_id: ctx.accountId,
          experience_id: experienceId,
          rule_id: rule.id,
          starts_at: startsAt,
          ends_at: endsAt,
          local_date: date,
          local_time: time,
          capacity: rule.capacity,
        });
      }
    }
  }

  const values = [...wanted.values()];
  for (let i = 0; i < values.length; i += 500) {
    await ctx.tx
      .insert(slot)
      .values(values.slice(i, i + 500))
      .onConflictDoUpdate({
        target: [slot.account_id, slot.experience_id, slot.starts_at],
        set: {
          rule_id: sql`excluded.rule_id`,
          ends_at: sql`excluded.ends_at`,
          capacity: sql`greatest(excluded.capacity, ${slot.booked})`,
          updated_at: new Date(),
        },
      });
  }

  // Future slots that no rule wants any more.
  const existing = await ctx.tx
    .select({ id: slot.id, starts_at: slot.starts_at, booked: slot.booked })
    .from(slot)
    .where(and(eq(slot.account_id, ctx.accountId), eq(slot.experience_id, experienceId), gte(slot.starts_at, new Date(now))));
  const unwanted = existing.filter((s) => !wanted.has(s.starts_at.toISOString()));
  if (unwanted.length === 0) return { slots: wanted.size, kept: 0 };
  const held = await heldBySlot(ctx.tx, unwanted.map((s) => s.id));
  const removable = unwanted.filter((s) => s.booked === 0 && !held.get(s.id)).map((s) => s.id);
  const kept = unwanted.filter((s) => s.booked > 0 || held.get(s.id)).map((s) => s.id);
  for (let i = 0; i < removable.length; i += 500) {
    await ctx.tx.delete(slot).where(and(eq(slot.account_id, ctx.accountId), inArray(slot.id, removable.slice(i, i + 500))));
  }
  if (kept.length) {
    // Kept because people are booked in it; closed for new bookings, visible to the operator.
    await ctx.tx.update(slot).set({ rule_id: null, closed: true, updated_at: new Date() }).where(and(eq(slot.account_id, ctx.accountId), inArray(slot.id, kept)));
  }
  return { slots: wanted.size, kept: kept.length };
}

/** Seats held right now by unexpired cart lines, per slot. */
export async function heldBySlot(tx: Db, slotIds: string[]) {
  if (slotIds.length === 0) return new Map<string, number>();
  const rows = await tx
    .select({ slot_id: cartLine.slot_id, seats: sql<number>`sum(${cartLine.seats})::int` })
    .from(cartLine)
    .where(and(inArray(cartLine.slot_id, slotIds), sql`${cartLine.expires_at} > now()`))
    .groupBy(cartLine.slot_id);
  return new Map(rows.map((r) => [r.slot_id, Number(r.seats)]));
}

/** Locks one slot's row for the rest of the transaction (the per-slot lock), with a timeout. */
export async function lockSlot(ctx: TenantCtx, slotId: string): Promise<SlotRow> {
  // The transaction's lock_timeout (5 s) is set by inTenant().
  const query = ctx.tx.select().from(slot).where(and(eq(slot.account_id, ctx.accountId), eq(slot.id, slotId)));
  try {
    const [row] = capacityLock.enabled ? await query.for('update') : await query;
    if (!row) throw new AppError('not_found', 'No such time slot.');
    return row;
  } catch (error) {
    if ((error as { code?: string; cause?: { code?: string } }).code === '55P03' || (error as { cause?: { code?: string } }).cause?.code === '55P03') {
      throw new AppError('lock_timeout', 'This time slot is very busy right now. Please try again.');
    }
    throw error;
  }
}

export function slotStatus(s: { capacity: number; closed: boolean }, remaining: number, bookable: boolean): TSlot['status'] {
  if (s.closed || !bookable) return 'closed';
  if (remaining <= 0) return 'sold_out';
  return remaining <= Math.max(1, Math.floor(s.capacity * LIMITED_SHARE)) ? 'limited' : 'available';
}

/** The rate of each category that applies on a local date (overlapping rates are refused, so at most one). */
export async function pricesOn(tx: Db, accountId: string, experienceId: string, dates: string[]) {
  const rates = await tx.select().from(pricingRate).where(and(eq(pricingRate.account_id, accountId), eq(pricingRate.experience_id, experienceId)));
  const out = new Map<string, { pricing_category: string; retail_price: number; currency: string }[]>();
  for (const date of new Set(dates)) {
    const weekday = ((new Date(`${date}T00:00:00Z`).getUTCDay() + 6) % 7) + 1;
    out.set(
      date,
      rates
        .filter((r) => (!r.valid_from || r.valid_from <= date) && (!r.valid_to || r.valid_to >= date) && (r.weekdays.length === 0 || r.weekdays.includes(weekday)))
        .map((r) => ({ pricing_category: r.pricing_category_id, retail_price: r.retail_price, currency: r.currency })),
    );
  }
  return out;
}

/** Slots of one experience between two local dates, with their seats and prices. */
export async function availability(ctx: TenantCtx, experienceId: string, from: string, to: string): Promise<TSlot[]> {
  const settings = await accountSettings(ctx.tx, ctx.accountId);
  const [exp] = await ctx.tx.select().from(experience).where(and(eq(experience.account_id, ctx.accountId), eq(experience.id, experienceId)));
  if (!exp) throw new AppError('not_found', 'No experience with this id.');
  const rows = await ctx.tx
    .select()
    .from(slot)
    .where(and(eq(slot.account_id, ctx.accountId), eq(slot.experience_id, experienceId), gte(slot.local_date, from), lte(slot.local_date, to)))
    .orderBy(asc(slot.starts_at));
  const held = await heldBySlot(ctx.tx, rows.map((r) => r.id));
  const prices = await pricesOn(ctx.tx, ctx.accountId, experienceId, rows.map((r) => r.local_date));
  const cutoff = (exp.booking_cutoff_minutes || settings.default_cutoff_minutes) * 60_000;
  const now = Date.now();
  return rows.map((r) => present(r, held.get(r.id) ?? 0, settings.time_zone, exp.status === 'Active' && r.starts_at.getTime() - cutoff > now, prices.get(r.local_date) ?? []));
}

export function present(r: SlotRow, held: number, zone: string, bookable: boolean, prices: TSlot['prices']): TSlot {
  const remaining = Math.max(0, r.capacity - r.booked - held);
  return {
    id: r.id,
    experience: r.experience_id,
    starts_at: r.starts_at.toISOString(),
    ends_at: r.ends_at.toISOString(),
    local_date: r.local_date,
    local_time: r.local_time,
    time_zone: zone,
    capacity: r.capacity,
    booked: r.booked,
    held,
    remaining,
    closed: r.closed,
    bookable: bookable && !r.closed && remaining > 0,
    status: slotStatus(r, remaining, bookable),
    prices,
  };
}
