import { seatsForSale, type TSlot } from '@tourdesk/contracts';
import type { Db } from '../../db/client';
import type { TenantCtx } from '../../lib/crud';
import { AppError } from '../../lib/errors';
import { addDays } from '../../lib/local-time';
import * as queries from './queries/capacity';
import { slotsOnDate, slotWithId } from './queries/slots';
import { accountSettings, availabilityJson, lockSlot, slotsWhere, sweepSlot } from './slots';
import { offerFreedSeats } from '../waitlist/service';

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
  return queries.capacityByDay(ctx, q);
}

/** Every slot of one day, with its seats and its experience's title. */
export function slotsOnDay(ctx: TenantCtx, date: string) {
  return slotsWhere(ctx.tx, slotsOnDate(ctx, date), true);
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
  await queries.setSlotByHand(ctx, s.id, body);
  // A capacity raised or a slot reopened: the seats go to its waiting list first (waitlist/service.ts).
  await offerFreedSeats(ctx, s.id);
  const [row] = await slotsWhere(ctx.tx, slotWithId(ctx, s.id));
  return row!;
}

export async function bookingConfig(ctx: TenantCtx) {
  const s = await accountSettings(ctx.tx, ctx.accountId);
  const capacity = await queries.defaultCapacity(ctx);
  return { hold_minutes: s.hold_minutes, default_cutoff_minutes: s.default_cutoff_minutes, time_zone: s.time_zone, default_capacity: capacity };
}

export async function updateBookingConfig(ctx: TenantCtx, patch: { hold_minutes?: number; default_cutoff_minutes?: number }) {
  await queries.updateBookingSettings(ctx, patch);
  return bookingConfig(ctx);
}

/**
 * The extras offered with the organisation's experiences (name and price) and its booking
 * questions: what the checkout, the manifest and a booking show, for anyone who may sell (the
 * inventory itself needs Manage inventory).
 */
export async function bookingOptions(ctx: TenantCtx) {
  const extras = await queries.offeredExtras(ctx);
  const questions = await queries.bookingQuestions(ctx);
  return { extras, questions: questions as { id: string; question: string; answer_type: 'text' | 'number' | 'yes_no' | 'choice'; choices: string[]; required: boolean; per_participant: boolean }[] };
}
