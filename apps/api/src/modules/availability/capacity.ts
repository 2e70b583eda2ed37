import { eq, sql } from 'drizzle-orm';
import { seatsForSale, type TSlot } from '@tourdesk/contracts';
import type { Db } from '../../db/client';
import { baseAccount, bookingQuestion, cartLine, experience, inventoryItem, slot } from '../../db/schema';
import type { TenantCtx } from '../../lib/crud';
import { AppError } from '../../lib/errors';
import { addDays } from '../../lib/local-time';
import { accountSettings, availabilityJson, lockSlot, slotsWhere, sweepSlot } from './slots';

/** Calendars, one day's slots, editing a slot, and the organisation's booking settings. */

const MAX_RANGE_DAYS = 93;
function checkRange(from: string, to: string) {
  if (addDays(from, MAX_RANGE_DAYS) < to) throw new AppError('invalid', 'Ask for at most three months at a time.', 'to');
}

/**
 * Slots of an experience on a date, or between two dates (a month when only `from` is given), as
 * JSON text: the month calendar's hot path is one statement that enters the tenant scope itself.
 */
export function checkAvailability(db: Db, accountId: string, q: { experience: string; date?: string; from?: string; to?: string }) {
  const from = q.date ?? q.from;
  const to = q.date ?? q.to ?? (from ? addDays(from, 31) : undefined);
  if (!from || !to) throw new AppError('invalid', 'Give a date, or from and to.', 'date');
  checkRange(from, to);
  return availabilityJson(db, accountId, q.experience, from, to);
}

type DayStatus = TSlot['status'];
const RANK: Record<DayStatus, number> = { available: 3, limited: 2, sold_out: 1, closed: 0 };

/** Per day of an experience: slots, seats left, and the best status among its slots. */
export async function bookingsCalendar(ctx: TenantCtx, q: { experience: string; from: string; to: string }) {
  checkRange(q.from, q.to);
  const days = new Map<string, { date: string; slots: number; remaining: number; status: DayStatus }>();
  for (const s of JSON.parse(await availabilityJson(ctx.tx, ctx.accountId, q.experience, q.from, q.to)) as TSlot[]) {
    const day = days.get(s.local_date) ?? { date: s.local_date, slots: 0, remaining: 0, status: 'closed' as DayStatus };
    day.slots += 1;
    day.remaining += seatsForSale(s);
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
           (sum(s.held) - coalesce(sum(x.seats), 0))::int as held,
           sum(tourdesk_seats_left(s.capacity, s.booked, s.held, coalesce(x.seats, 0)::int))::int as remaining
    from ${slot} s
    left join lateral (select sum(l.seats) as seats from ${cartLine} l where l.slot_id = s.id and l.expires_at <= now()) x on true
    where s.account_id = ${ctx.accountId} and s.local_date between ${q.from} and ${q.to} and not s.closed
      ${q.experience ? sql`and s.experience_id = ${q.experience}` : sql``}
    group by s.local_date order by s.local_date`)) as unknown as { rows: { date: string; slots: number; capacity: number; booked: number; held: number; remaining: number }[] };
  return rows.rows;
}

/** Every slot of one day, with its seats and its experience's title. */
export function slotsOnDay(ctx: TenantCtx, date: string) {
  return slotsWhere(ctx.tx, sql`s.account_id = ${ctx.accountId} and s.local_date = ${date}`, true);
}

/**
 * A slot's capacity never goes below what is booked and held; closing and reopening are free. What
 * is set here is set by hand: regenerating the slot's schedule keeps it (capacity_by_hand,
 * closed_by_hand).
 */
export async function updateSlot(ctx: TenantCtx, id: string, body: { capacity?: number; closed?: boolean }) {
  await lockSlot(ctx, id);
  await sweepSlot(ctx.tx, id);
  const s = await lockSlot(ctx, id);
  const taken = s.booked + s.held;
  if (body.capacity !== undefined && body.capacity < taken) {
    throw new AppError('invalid', `${taken} seat${taken === 1 ? ' is' : 's are'} booked or held: the capacity cannot be lower.`, 'capacity');
  }
  await ctx.tx
    .update(slot)
    .set({
      ...body,
      ...(body.capacity !== undefined ? { capacity_by_hand: true } : {}),
      ...(body.closed !== undefined ? { closed_by_hand: body.closed } : {}),
      updated_at: new Date(),
    })
    .where(eq(slot.id, s.id));
  const [row] = await slotsWhere(ctx.tx, sql`s.account_id = ${ctx.accountId} and s.id = ${s.id}`);
  return row!;
}

export async function bookingConfig(ctx: TenantCtx) {
  const s = await accountSettings(ctx.tx, ctx.accountId);
  const [a] = await ctx.tx.select({ capacity: baseAccount.default_capacity }).from(baseAccount).where(eq(baseAccount.id, ctx.accountId));
  return { hold_minutes: s.hold_minutes, default_cutoff_minutes: s.default_cutoff_minutes, time_zone: s.time_zone, default_capacity: a!.capacity };
}

export async function updateBookingConfig(ctx: TenantCtx, patch: { hold_minutes?: number; default_cutoff_minutes?: number }) {
  await ctx.tx.update(baseAccount).set({ ...patch, updated_at: new Date() }).where(eq(baseAccount.id, ctx.accountId));
  return bookingConfig(ctx);
}

/**
 * The extras offered with the organisation's experiences (name and price) and its booking
 * questions: what the checkout, the manifest and a booking show, for anyone who may sell (the
 * inventory itself needs Manage inventory).
 */
export async function bookingOptions(ctx: TenantCtx) {
  const extras = (await ctx.tx.execute(sql`
    select i.id, i.name, i.price, i.currency from ${inventoryItem} i
    where i.account_id = ${ctx.accountId}
      and exists (select 1 from ${experience} e where e.account_id = i.account_id and i.id = any(e.extra_item_ids))
    order by lower(i.name), i.id`)) as unknown as { rows: { id: string; name: string; price: number; currency: string }[] };
  const questions = await ctx.tx
    .select({ id: bookingQuestion.id, question: bookingQuestion.question, answer_type: bookingQuestion.answer_type, choices: bookingQuestion.choices, required: bookingQuestion.required, per_participant: bookingQuestion.per_participant })
    .from(bookingQuestion)
    .where(eq(bookingQuestion.account_id, ctx.accountId))
    .orderBy(bookingQuestion.created_at, bookingQuestion.id);
  return { extras: extras.rows, questions: questions as { id: string; question: string; answer_type: 'text' | 'number' | 'yes_no' | 'choice'; choices: string[]; required: boolean; per_participant: boolean }[] };
}
