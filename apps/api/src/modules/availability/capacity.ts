import { and, asc, eq, sql } from 'drizzle-orm';
import type { TSlot } from '@tourdesk/contracts';
import { baseAccount, cartLine, experience, slot } from '../../db/schema';
import type { TenantCtx } from '../../lib/crud';
import { AppError } from '../../lib/errors';
import { addDays } from '../../lib/local-time';
import { accountSettings, availability, heldBySlot, lockSlot, present, pricesOn } from './slots';

/** Calendars, one day's slots, editing a slot, and the organisation's booking settings. */

const MAX_RANGE_DAYS = 93;
function checkRange(from: string, to: string) {
  if (addDays(from, MAX_RANGE_DAYS) < to) throw new AppError('invalid', 'Ask for at most three months at a time.', 'to');
}

/** Slots of an experience on a date, or between two dates (a month when only `from` is given). */
export function checkAvailability(ctx: TenantCtx, q: { experience: string; date?: string; from?: string; to?: string }) {
  const from = q.date ?? q.from;
  const to = q.date ?? q.to ?? (from ? addDays(from, 31) : undefined);
  if (!from || !to) throw new AppError('invalid', 'Give a date, or from and to.', 'date');
  checkRange(from, to);
  return availability(ctx, q.experience, from, to);
}

type DayStatus = TSlot['status'];
const RANK: Record<DayStatus, number> = { available: 3, limited: 2, sold_out: 1, closed: 0 };

/** Per day of an experience: slots, seats left, and the best status among its slots. */
export async function bookingsCalendar(ctx: TenantCtx, q: { experience: string; from: string; to: string }) {
  checkRange(q.from, q.to);
  const days = new Map<string, { date: string; slots: number; remaining: number; status: DayStatus }>();
  for (const s of await availability(ctx, q.experience, q.from, q.to)) {
    const day = days.get(s.local_date) ?? { date: s.local_date, slots: 0, remaining: 0, status: 'closed' as DayStatus };
    day.slots += 1;
    day.remaining += s.bookable ? s.remaining : 0;
    if (RANK[s.status] > RANK[day.status]) day.status = s.status;
    days.set(s.local_date, day);
  }
  return [...days.values()];
}

/** Per day across the organisation (or one experience): capacity, booked, held, remaining — one query. */
export async function capacityCalendar(ctx: TenantCtx, q: { from: string; to: string; experience?: string }) {
  checkRange(q.from, q.to);
  const rows = (await ctx.tx.execute(sql`
    select s.local_date::text as date, count(*)::int as slots, sum(s.capacity)::int as capacity, sum(s.booked)::int as booked,
           coalesce(sum(h.seats), 0)::int as held
    from ${slot} s
    left join lateral (select sum(l.seats) as seats from ${cartLine} l where l.slot_id = s.id and l.expires_at > now()) h on true
    where s.account_id = ${ctx.accountId} and s.local_date between ${q.from} and ${q.to} and not s.closed
      ${q.experience ? sql`and s.experience_id = ${q.experience}` : sql``}
    group by s.local_date order by s.local_date`)) as unknown as { rows: { date: string; slots: number; capacity: number; booked: number; held: number }[] };
  return rows.rows.map((r) => ({ ...r, remaining: Math.max(0, r.capacity - r.booked - r.held) }));
}

/** Every slot of one day, with its seats and its experience's title. */
export async function slotsOnDay(ctx: TenantCtx, date: string) {
  const settings = await accountSettings(ctx.tx, ctx.accountId);
  const rows = await ctx.tx
    .select({ s: slot, title: experience.title, status: experience.status })
    .from(slot)
    .innerJoin(experience, eq(experience.id, slot.experience_id))
    .where(and(eq(slot.account_id, ctx.accountId), eq(slot.local_date, date)))
    .orderBy(asc(slot.starts_at));
  const held = await heldBySlot(ctx.tx, rows.map((r) => r.s.id));
  const now = Date.now();
  return rows.map((r) => ({
    ...present(r.s, held.get(r.s.id) ?? 0, settings.time_zone, r.status === 'Active' && r.s.starts_at.getTime() > now, []),
    experience_title: r.title,
  }));
}

/** A slot's capacity never goes below what is booked and held; closing and reopening are free. */
export async function updateSlot(ctx: TenantCtx, id: string, body: { capacity?: number; closed?: boolean }) {
  const s = await lockSlot(ctx, id);
  const held = (await heldBySlot(ctx.tx, [s.id])).get(s.id) ?? 0;
  if (body.capacity !== undefined && body.capacity < s.booked + held) {
    const taken = s.booked + held;
    throw new AppError('invalid', `${taken} seat${taken === 1 ? ' is' : 's are'} booked or held: the capacity cannot be lower.`, 'capacity');
  }
  const [row] = await ctx.tx.update(slot).set({ ...body, updated_at: new Date() }).where(eq(slot.id, s.id)).returning();
  const settings = await accountSettings(ctx.tx, ctx.accountId);
  const prices = (await pricesOn(ctx.tx, ctx.accountId, row!.experience_id, [row!.local_date])).get(row!.local_date) ?? [];
  return present(row!, held, settings.time_zone, row!.starts_at.getTime() > Date.now(), prices);
}

export async function bookingConfig(ctx: TenantCtx) {
  const s = await accountSettings(ctx.tx, ctx.accountId);
  return { hold_minutes: s.hold_minutes, default_cutoff_minutes: s.default_cutoff_minutes, time_zone: s.time_zone };
}

export async function updateBookingConfig(ctx: TenantCtx, patch: { hold_minutes?: number; default_cutoff_minutes?: number }) {
  await ctx.tx.update(baseAccount).set({ ...patch, updated_at: new Date() }).where(eq(baseAccount.id, ctx.accountId));
  return bookingConfig(ctx);
}
