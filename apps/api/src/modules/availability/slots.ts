import type { TSlot } from '@tourdesk/contracts';
import type { Db } from '../../db/client';
import type { TenantCtx } from '../../lib/crud';
import { AppError } from '../../lib/errors';
import { addDays, eachDay, localToUtc, todayIn } from '../../lib/local-time';
import * as q from './queries/slots';
import type { Rate, RuleRow, SlotRow, SlotTextRow } from './queries/slots';

export type { Rate, SlotRow, SlotTextRow } from './queries/slots';
export { accountSettings, seatsLeft, sweepSlot } from './queries/slots';
/** How far ahead slots exist, in days. */
export const HORIZON_DAYS = 400;

/**
 * The slots an experience's rules want between two local dates (inclusive), by start time (ISO):
 * every rule's start times on its weekdays within its validity, except closed dates and what has
 * already started (by `now`, the caller's instant when it has one). Used by regenerateSlots (the
 * whole horizon) and extendHorizons (the new days).
 */
export function occurrences(p: {
  accountId: string;
  experienceId: string;
  zone: string;
  durationMinutes: number | null;
  rules: RuleRow[];
  closed: Set<string>;
  from: string;
  to: string;
  now?: number;
}) {
  const duration = (p.durationMinutes ?? 60) * 60_000;
  const now = p.now ?? Date.now();
  const wanted = new Map<string, q.SlotInsert>();
  for (const rule of p.rules) {
    const from = rule.valid_from > p.from ? rule.valid_from : p.from;
    const to = rule.valid_to && rule.valid_to < p.to ? rule.valid_to : p.to;
    if (from > to) continue;
    for (const { date, weekday } of eachDay(from, to)) {
      if (p.closed.has(date) || (rule.weekdays.length > 0 && !rule.weekdays.includes(weekday))) continue;
      for (const time of rule.start_times) {
        const startsAt = localToUtc(date, time, p.zone);
        if (startsAt.getTime() <= now) continue;
        const endsAt = rule.kind === 'opening_hours' && rule.closing_time ? localToUtc(date, rule.closing_time, p.zone) : new Date(startsAt.getTime() + duration);
        wanted.set(startsAt.toISOString(), {
          account_id: p.accountId,
          experience_id: p.experienceId,
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
  return wanted;
}

/**
 * Makes the experience's future slots follow its rules, in the experience's (account's) time
 * zone. New occurrences are added; a changed capacity is applied (never below what is booked);
 * an occurrence no rule wants any more is removed only if nothing is booked or held in it,
 * otherwise it is kept and marked as no longer scheduled.
 */
export async function regenerateSlots(ctx: TenantCtx, experienceId: string) {
  const settings = await q.accountSettings(ctx.tx, ctx.accountId);
  const zone = settings.time_zone;
  const exp = await q.findExperience(ctx, experienceId);
  if (!exp) throw new AppError('not_found', 'No experience with this id.');
  const rules = await q.rulesOfExperience(ctx, experienceId);
  const closed = new Set(await q.closedDatesOfExperience(ctx, experienceId));
  const today = todayIn(zone);
  // One instant for what is still to come: the occurrences wanted start after it, and exactly the
  // slots starting after it are locked, so every row the upsert updates is locked first. (Not from
  // the start of today: today's departures that have started are no occurrence, and would be taken
  // for slots no rule wants any more — closed and detached from their rule below.)
  const now = Date.now();
  const wanted = occurrences({ accountId: ctx.accountId, experienceId, zone, durationMinutes: exp.duration_minutes, rules, closed, from: today, to: addDays(today, HORIZON_DAYS), now });
  // One lock order: the future slots are locked in id order, as checkout locks them, before the
  // upsert below updates them (it would lock them in start-time order, and a checkout holding two
  // of them the other way round would deadlock with it).
  const existing = await q.lockSlotsFrom(ctx, experienceId, new Date(now));

  const values = [...wanted.values()];
  for (let i = 0; i < values.length; i += 500) {
    await q.upsertSlots(ctx, values.slice(i, i + 500));
  }

  // Future slots that no rule wants any more. Each is locked (in id order), its expired holds
  // swept, and then removed only if nothing is booked or held in it; otherwise it is kept,
  // closed for new bookings and visible to the operator.
  const unwanted = existing.filter((s) => !wanted.has(s.starts_at.toISOString())).map((s) => s.id).sort();
  const kept: string[] = [];
  for (const id of unwanted) {
    await lockSlot(ctx, id);
    await q.sweepSlot(ctx.tx, id);
    // Kept while anything refers to it: seats booked or held, or any booking, cancelled ones
    // included (their order keeps pointing at the slot: deleting it would break that record).
    const row = await q.slotUsage(ctx, id);
    if (row.booked === 0 && row.held === 0 && !row.bookings) await q.deleteSlot(ctx, id);
    else kept.push(id);
  }
  if (kept.length) {
    await q.detachSlots(ctx, kept);
  }
  return { slots: wanted.size, kept: kept.length };
}

/**
 * Locks one slot's row for the rest of the transaction (the per-slot lock). The transaction's
 * lock_timeout (5 s, set by inTenant) bounds the wait; the error handler answers it with 503.
 * FOR NO KEY UPDATE, like every writer of the slot: it does not wait for the KEY SHARE lock that
 * a cart line's foreign key check takes on the slot's row (FOR UPDATE would).
 *
 * The lock order, everywhere: the slot's row, then its cart lines, then bookings and orders.
 */
export async function lockSlot(ctx: TenantCtx, slotId: string): Promise<SlotRow> {
  const row = await q.lockSlotRow(ctx, slotId);
  if (!row) throw new AppError('not_found', 'No such time slot.');
  return row;
}

/** ISO weekday of a local date: 1 = Monday … 7 = Sunday. */
const isoWeekday = (day: string) => ((new Date(`${day}T00:00:00Z`).getUTCDay() + 6) % 7) + 1;

/** The rates that price a local date (overlapping rates are refused, so at most one per category). */
export function ratesOn(rates: Rate[], day: string): Rate[] {
  const weekday = isoWeekday(day);
  return rates.filter((r) => (!r.valid_from || r.valid_from <= day) && (!r.valid_to || r.valid_to >= day) && (r.weekdays.length === 0 || r.weekdays.includes(weekday)));
}

/** The price of each category on a local date. */
export function pricesOn(rates: Rate[], day: string): TSlot['prices'] {
  return ratesOn(rates, day).map((r) => ({ pricing_category: r.pricing_category, retail_price: r.retail_price, currency: r.currency }));
}

const LOCAL_DATE = '"local_date":"';
/** The slot's local date, read from its fixed part (`…"local_date":"YYYY-MM-DD"…`). */
const localDateOf = (head: string) => {
  const at = head.indexOf(LOCAL_DATE) + LOCAL_DATE.length;
  return head.slice(at, at + 10);
};

/**
 * Slot rows → the JSON text of each slot (the Slot schema) with its day's prices (the prices of
 * one experience and day are serialised once). The state itself is defined in the database
 * (the view slot_api and tourdesk_availability, migration 0019); every value is a number, a
 * boolean, an id, an ISO time, a date, a zone name or a status word: nothing to escape.
 */
function slotTexts<R extends SlotTextRow>(rows: R[], ratesOf: (experienceId: string | undefined) => Rate[], zoneOf: (row: R) => string) {
  const memo = new Map<string, string>();
  return rows.map((r) => {
    const day = localDateOf(r.api_head);
    const key = `${r.experience_id} ${day}`;
    let prices = memo.get(key);
    if (prices === undefined) memo.set(key, (prices = JSON.stringify(pricesOn(ratesOf(r.experience_id), day))));
    return `${r.api_head},"time_zone":"${zoneOf(r)}","capacity":${r.capacity},"booked":${r.booked},"held":${r.held},"remaining":${r.remaining},"closed":${r.closed},"bookable":${r.bookable},"status":"${r.status}","prices":${prices}}`;
  });
}

/** Slots as the API shows them, from the view slot_api; `where` uses the alias `s`. */
type Where = Parameters<typeof q.slotApiRows>[1];
export async function slotsWhere(tx: Db, where: Where): Promise<TSlot[]>;
export async function slotsWhere(tx: Db, where: Where, withTitle: true): Promise<(TSlot & { experience_title: string })[]>;
export async function slotsWhere(tx: Db, where: Where, withTitle = false): Promise<(TSlot & { experience_title?: string })[]> {
  const rows = await q.slotApiRows(tx, where);
  if (rows.length === 0) return [];
  const experiences = [...new Set(rows.map((r) => r.experience_id))];
  const rates = await q.ratesOfExperiences(tx, rows[0]!.account_id, experiences);
  const texts = slotTexts(rows, (id) => rates.filter((r) => r.experience_id === id), (r) => r.time_zone);
  return texts.map((text, i) => {
    const slot = JSON.parse(text) as TSlot;
    return withTitle ? { ...slot, experience_title: rows[i]!.experience_title } : slot;
  });
}

/**
 * Slots of one experience between two local dates as tourdesk_availability hands them over (one
 * statement that enters the tenant scope itself, migration 0019): the organisation's time zone,
 * the experience's price rates and each slot's fixed part and state, in start order. What
 * availabilityJson() writes as the Slot schema, and the OCTO API writes in OCTO's shape.
 */
export async function availabilityRows(db: Db, accountId: string, experienceId: string, from: string, to: string): Promise<{ zone: string; rates: Rate[]; slots: SlotTextRow[] }> {
  const rows = await q.availabilityStatement(db, accountId, experienceId, from, to);
  // The first row carries the organisation's time zone and the experience's rates; the slots follow.
  const { time_zone: zone, rates } = JSON.parse(rows[0]!.rates!) as { time_zone: string; rates: Rate[] };
  return { zone, rates, slots: rows.slice(1) };
}

/** Slots of one experience between two local dates, with their seats and prices, as JSON text (the Slot schema). */
export async function availabilityJson(db: Db, accountId: string, experienceId: string, from: string, to: string): Promise<string> {
  return (await availabilityJsonAndRates(db, accountId, experienceId, from, to)).json;
}

/** The same, with the experience's rates it was priced from (OCTO reads their net prices). */
export async function availabilityJsonAndRates(db: Db, accountId: string, experienceId: string, from: string, to: string): Promise<{ json: string; rates: Rate[] }> {
  const { zone, rates, slots } = await availabilityRows(db, accountId, experienceId, from, to);
  return { json: `[${slotTexts(slots, () => rates, () => zone).join(',')}]`, rates };
}
