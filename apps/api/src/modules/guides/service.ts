import { GUIDE_AUTO_ASSIGN_MAX_DAYS, type TAutoAssignResult, type TDepartureGuides, type TGuideMember, type TMyDepartures } from '@tourdesk/contracts';
import type { TenantCtx } from '../../lib/crud';
import { AppError, notFound } from '../../lib/errors';
import { addDays, eachDay, todayIn } from '../../lib/local-time';
import type { CustomerVisibility } from '../auth/principal';
import { lockSlot, sweepSlot } from '../availability/slots';
import { manifestsOf } from '../manifests/service';
import * as q from './queries';

/**
 * Guides (issue 34): who guides and their days off; assigning guides to departures by hand and
 * automatically; a guide's own departures with their manifests. A guide on two overlapping
 * departures is impossible in the database (the exclusion constraint `guide_assignment_no_overlap`),
 * and what a departure's guides can take is its seats' limit (slot.guide_seats, kept by triggers in
 * 07-guides.sql; tourdesk_seats_left() stops at it).
 */

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** The organisation's active team members with whether each guides and their days off from today on. */
export async function guideMembers(ctx: TenantCtx, zone: string): Promise<{ results: TGuideMember[] }> {
  return { results: await q.members(ctx, todayIn(zone)) };
}

async function memberOrNotFound(ctx: TenantCtx, userId: string) {
  const m = await q.member(ctx, userId);
  if (!m) throw notFound('No team member with this id.');
  return m;
}

/** Makes a member a guide or not. A member who stops guiding keeps the departures already given. */
export async function setGuides(ctx: TenantCtx, userId: string, on: boolean) {
  const m = await memberOrNotFound(ctx, userId);
  if (on && !m.is_active) throw new AppError('invalid', `${m.name} is not active: only an active member guides.`, 'guides');
  await q.setGuides(ctx, userId, on);
}

export async function addDayOff(ctx: TenantCtx, userId: string, d: { starts_on: string; ends_on: string; note: string }) {
  await memberOrNotFound(ctx, userId);
  await q.insertDayOff(ctx, userId, d);
}

export async function removeDayOff(ctx: TenantCtx, userId: string, id: string) {
  if (!(await q.deleteDayOff(ctx, userId, id))) throw notFound('No such day off.');
}

/** A departure's guides, what they can take, and who else could take it. */
export async function departureGuides(ctx: TenantCtx, slotId: string): Promise<TDepartureGuides> {
  const d = await q.departure(ctx, slotId);
  if (!d) throw notFound('No departure with this id.');
  const available = await q.availableFor(ctx, { id: d.id, starts_at: d.starts_at, ends_at: d.ends_at, local_date: String(d.local_date) });
  return { slot: d.id, guests_per_guide: d.guests_per_guide, guide_seats: d.guide_seats, booked: d.booked, held: d.held, guides: d.guides, available };
}

const windowText = (w: { title: string; local_date: string; local_time: string }) => `“${w.title}” on ${w.local_date} at ${w.local_time}`;

/**
 * Assigns a guide to a departure by hand: a member who guides, not off that day; the exclusion
 * constraint refuses an overlap, answered 409 naming the departure in the way. The slot is locked
 * first (the lock order of every writer of slots); the trigger raises its guide seats.
 */
export async function assignGuide(ctx: TenantCtx, slotId: string, userId: string): Promise<TDepartureGuides> {
  await lockSlot(ctx, slotId);
  const d = await q.departure(ctx, slotId);
  if (!d) throw notFound('No departure with this id.');
  const m = await q.member(ctx, userId);
  if (!m) throw new AppError('invalid', 'No team member with this id.', 'guide');
  if (!m.guides || !m.is_active) throw new AppError('invalid', `${m.name} does not guide: mark them as a guide first.`, 'guide');
  const date = String(d.local_date);
  const off = await q.dayOffOn(ctx, userId, date);
  if (off) {
    const span = off.starts_on === off.ends_on ? `on ${off.starts_on}` : `from ${off.starts_on} to ${off.ends_on}`;
    throw new AppError('conflict', `${m.name} is off on ${date} (a day off ${span}): choose another guide or remove the day off.`, 'guide');
  }
  const made = await q.insertAssignment(ctx, slotId, userId);
  if (made === 'already') throw new AppError('conflict', `${m.name} already guides this departure.`, 'guide');
  if (made === 'overlap') {
    const clash = await q.overlapping(ctx, userId, d.starts_at, d.ends_at);
    throw new AppError('conflict', `${m.name} already guides ${clash ? windowText({ ...clash, local_date: String(clash.local_date) }) : 'a departure'}, which overlaps this one.`, 'guide');
  }
  return departureGuides(ctx, slotId);
}

/**
 * Takes a guide off a departure; refused, saying what is in the way, when the guides left could
 * not take the seats already booked and held (the slot's CHECK refuses it too, whoever writes).
 * Holds that have expired but are not swept yet still count in slot.held, and the CHECK would
 * count them: the slot's expired lines are swept first (slot locked, then its lines, as every
 * writer), so only live holds and bookings stand in the way.
 */
export async function unassignGuide(ctx: TenantCtx, slotId: string, userId: string): Promise<TDepartureGuides> {
  await lockSlot(ctx, slotId);
  await sweepSlot(ctx.tx, slotId);
  const s = await lockSlot(ctx, slotId);
  const d = await q.departure(ctx, slotId);
  if (!d) throw notFound('No departure with this id.');
  const on = d.guides.find((g) => g.id === userId);
  if (!on) throw notFound('This guide is not on this departure.');
  const taken = s.booked + s.held;
  const left = d.guides.length - 1;
  if (d.guests_per_guide !== null && left * d.guests_per_guide < taken) {
    throw new AppError(
      'conflict',
      `${plural(taken, 'seat is', 'seats are')} booked or held on this departure, and at one guide per ${d.guests_per_guide} guests ${left === 0 ? 'no guide would be left' : `${plural(left, 'guide')} would take only ${left * d.guests_per_guide}`}: assign another guide first, or move or cancel bookings.`,
      'guide',
    );
  }
  await q.deleteAssignment(ctx, slotId, userId);
  return departureGuides(ctx, slotId);
}

/** Monday of a local date's week (ISO weeks: "this week" for fewest hours first). */
function mondayOf(date: string) {
  const [first] = eachDay(date, date);
  return addDays(date, 1 - first!.weekday);
}

/**
 * Gives guides to the open departures of a range of local dates (at most two weeks), each in the
 * order they start, until each has what it needs: one guide, or at an offer with guests_per_guide
 * one per that many of its seats booked and held. Each is given, among the guides who are not off
 * that day and are free over its window, the one with the fewest hours given in that week (Monday
 * to Sunday), then by name. The constraint still has the last word: a guide given elsewhere at the
 * same moment is skipped for the next.
 */
export async function autoAssign(ctx: TenantCtx, from: string, to: string): Promise<TAutoAssignResult> {
  if (addDays(from, GUIDE_AUTO_ASSIGN_MAX_DAYS - 1) < to) throw new AppError('invalid', `Assign at most ${GUIDE_AUTO_ASSIGN_MAX_DAYS} days at a time.`, 'to');
  const departures = await q.departuresToStaff(ctx, from, to);
  // Hours count over whole weeks: from the Monday of `from` to the Sunday of `to`.
  const guides = (await q.guidesBetween(ctx, mondayOf(from), addDays(mondayOf(to), 6))).map((g) => ({
    ...g,
    work: g.work.map((w) => ({ slot: w.slot, week: mondayOf(w.local_date), starts: new Date(w.starts_at).getTime(), ends: new Date(w.ends_at).getTime() })),
  }));
  const hours = (g: (typeof guides)[number], week: string) => g.work.filter((w) => w.week === week).reduce((n, w) => n + (w.ends - w.starts), 0);
  const result: TAutoAssignResult = { assigned: [], unstaffed: [] };
  for (const d of departures) {
    const needed = d.per === null ? 1 : Math.max(1, Math.ceil(d.taken / d.per));
    let missing = needed - d.assigned.length;
    const week = mondayOf(d.local_date);
    const starts = d.starts_at.getTime();
    const ends = d.ends_at.getTime();
    const candidates = guides
      .filter((g) => !d.assigned.includes(g.id))
      .filter((g) => !g.days_off.some((o) => o.starts_on <= d.local_date && d.local_date <= o.ends_on))
      .filter((g) => !g.work.some((w) => w.starts < ends && starts < w.ends))
      .sort((a, b) => hours(a, week) - hours(b, week) || a.name.localeCompare(b.name, 'en') || a.id.localeCompare(b.id));
    for (const g of candidates) {
      if (missing <= 0) break;
      if ((await q.insertAssignment(ctx, d.id, g.id)) !== 'made') continue;
      g.work.push({ slot: d.id, week, starts, ends });
      result.assigned.push({ slot: d.id, guide: { id: g.id, name: g.name }, experience_title: d.title, local_date: d.local_date, local_time: d.local_time });
      missing -= 1;
    }
    if (missing > 0) result.unstaffed.push({ slot: d.id, experience_title: d.title, local_date: d.local_date, local_time: d.local_time, missing });
  }
  return result;
}

/** The signed-in member's departures between two local dates, each with its manifest. */
export async function myDepartures(ctx: TenantCtx, userId: string, from: string, to: string, sees: CustomerVisibility): Promise<TMyDepartures> {
  if (addDays(from, 31) < to) throw new AppError('invalid', 'Ask for at most a month at a time.', 'to');
  const me = await q.member(ctx, userId);
  const ids = await q.mySlots(ctx, userId, from, to);
  return { guides: Boolean(me?.guides), departures: await manifestsOf(ctx, ids, sees) };
}
