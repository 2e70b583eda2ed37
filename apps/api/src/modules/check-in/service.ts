import { randomUUID } from 'node:crypto';
import {
  decideScan,
  describeScan,
  doorClock,
  normaliseTicketCode,
  type CheckInResult,
  type TTimeFormat,
  type TCheckInOutcome,
  type TCheckInTicket,
  type TCheckInDepartures,
  type ZCheckInBatch,
} from '@tourdesk/contracts';
import type { z } from 'zod';
import type { TenantCtx } from '../../lib/crud';
import { AppError, notFound } from '../../lib/errors';
import { todayIn } from '../../lib/local-time';
import { customerVisibility, holdsPermissionSets } from '../auth/principal';
import { answeredQuestions, personName, recordAudit } from '../orders/order-basics';
import { bookingEvent } from '../orders/records';
import * as q from './queries';

/**
 * Check-in at the door (pretix's check-in lists and apps): the departures of a day, their tickets
 * for a device to keep offline, and batches of scans settled on the server — the first scan of a
 * ticket by scan time admits it, whichever device sends it first; each later scan is told when and
 * by whom. A scan's id is the device's, so a batch sent again changes nothing.
 */

/** Who is scanning, and what their role lets them see and do at the door. */
export interface Viewer {
  userId: string;
  codenames: Set<string>;
  timeZone: string;
  timeFormat: TTimeFormat;
}
const may = (v: Viewer) => ({
  ...customerVisibility(v.codenames),
  /** Admitting a ticket of another day or departure is an order change: Manage orders. */
  override: holdsPermissionSets(v.codenames, ['Manage orders']),
});


export async function departures(ctx: TenantCtx, v: Viewer, date?: string): Promise<TCheckInDepartures> {
  const on = date ?? todayIn(v.timeZone);
  const rows = await q.departuresOn(ctx, on);
  return { date: on, time_zone: v.timeZone, departures: rows.map((r) => ({ ...r, starts_at: r.starts_at.toISOString() })) };
}

/** Tickets as the door sees them: one query for the rows, one for the questions their answers name. */
async function present(ctx: TenantCtx, v: Viewer, rows: q.TicketRow[]): Promise<TCheckInTicket[]> {
  const sees = may(v);
  const answersOf = await answeredQuestions(ctx, rows.map((r) => r.b.answers ?? {}));
  return rows.map((r) => {
    const count = (kind: 'category' | 'extra') => r.b.items.filter((i) => i.kind === kind && i.quantity > 0).map((i) => ({ label: i.label, quantity: i.quantity }));
    return {
      booking: r.b.id,
      ticket_code: r.b.ticket_code,
      order_reference: r.reference,
      slot: r.b.slot_id,
      experience_title: r.title,
      starts_at: r.starts_at.toISOString(),
      local_date: r.local_date,
      local_time: r.local_time,
      status: r.b.status as TCheckInTicket['status'],
      attendance: r.b.attendance as TCheckInTicket['attendance'],
      name: [r.first_name, r.last_name].filter(Boolean).join(' ') || 'Guest',
      seats: r.b.seats,
      categories: count('category'),
      extras: count('extra'),
      answers: answersOf(r.b.answers ?? {}),
      notes: r.notes,
      balance_due: Math.max(0, r.order_total - r.order_paid),
      currency: r.b.currency,
      checked_in_at: r.b.checked_in_at?.toISOString() ?? null,
      checked_in_by: r.b.checked_in_by ? personName(r.checker_first, r.checker_last, r.checker_email) : null,
      checked_in_device: r.b.checked_in_device,
      contact: sees.contact ? { email: r.email, phone: r.phone } : null,
      payment: sees.payment ? { order: r.order_id, total: r.order_total, paid: r.order_paid, payment_status: r.payment_status } : null,
    };
  });
}

export async function ticketPage(ctx: TenantCtx, v: Viewer, slots: string[], limit: number, offset: number) {
  return present(ctx, v, await q.pageTickets(ctx, slots, limit, offset));
}
export const countTickets = q.countTickets;

type Batch = z.output<typeof ZCheckInBatch>;
interface Decision {
  result: CheckInResult;
  override: boolean;
  booking: string | null;
  replayed: boolean;
}

/**
 * A device's batch of scans, in one transaction. The scanned bookings are locked first (in id
 * order), then the scans already received are read — a batch sent again, even at the same moment,
 * finds them after the lock and changes nothing — and the new scans are decided in scan-time order:
 *   unknown, cancelled, unconfirmed, already in; a ticket whose departure is not today (in the
 *   organisation's zone, at the scan's time) is a wrong day, one of today's that the device does not
 *   check in a wrong departure (both admitted only with `override` by a role that holds Manage
 *   orders); otherwise the first scan admits it. A scan the device decided offline (the guest is already in)
 *   that is older than the admission on record takes its place: the earliest scan wins, and the
 *   later one becomes "already". A scan sent to be decided is "already" whenever the ticket is
 *   admitted, whatever its time says: two phones online at the same moment, or a phone whose clock
 *   is behind, never both let a guest in.
 */
export async function scanBatch(ctx: TenantCtx, v: Viewer, input: Batch): Promise<TCheckInOutcome[]> {
  const sees = may(v);
  const now = new Date();
  const scans = input.scans.map((s, i) => {
    const at = new Date(s.scanned_at);
    return { ...s, i, code: normaliseTicketCode(s.ticket_code), at: at > now ? now : at };
  });
  const tickets = new Map((await q.lockTickets(ctx, [...new Set(scans.map((s) => s.code))])).map((t) => [t.b.ticket_code, t]));
  const received = new Map((await q.scansByIds(ctx, [...new Set(scans.map((s) => s.id))])).map((r) => [r.scan_id, r]));
  const door = { slots: new Set(input.slots), zone: v.timeZone, canOverride: sees.override };
  const decided = new Map<string, Decision>();

  for (const s of [...scans].sort((a, b) => a.at.getTime() - b.at.getTime() || a.i - b.i)) {
    const before = received.get(s.id);
    if (before) {
      decided.set(s.id, { result: before.result as CheckInResult, override: before.override, booking: before.booking_id, replayed: true });
      continue;
    }
    if (decided.has(s.id)) continue; // the same scan twice in one batch
    const t = tickets.get(s.code);
    const { result, override, earlier } = decideScan(
      t ? { status: t.b.status, slot: t.b.slot_id, local_date: t.local_date, attendance: t.b.attendance, checked_in_at: t.b.checked_in_at } : null,
      { at: s.at, offline: s.offline, override: s.override },
      door,
    );
    const fresh = await q.insertScan(ctx, {
      scan_id: s.id,
      device_id: input.device_id,
      user_id: v.userId,
      booking_id: t?.b.id ?? null,
      ticket_code: s.code.slice(0, 200),
      scanned_at: s.at,
      result,
      override,
    });
    if (!fresh) {
      // Sent at the same moment by another request that got there first: its answer stands.
      const [stored] = await q.scansByIds(ctx, [s.id]);
      decided.set(s.id, { result: stored!.result as CheckInResult, override: stored!.override, booking: stored!.booking_id, replayed: true });
      continue;
    }
    decided.set(s.id, { result, override, booking: t?.b.id ?? null, replayed: false });
    if (result !== 'admitted' || !t) continue;
    const device = input.device_name || input.device_id;
    const previous = { attendance: t.b.attendance, checked_in_at: t.b.checked_in_at?.toISOString() ?? null };
    await q.markArrived(ctx, t.b.id, s.at, v.userId, device);
    if (earlier) await q.supersedeAdmissions(ctx, t.b.id, s.at);
    await recordAudit(ctx, {
      order: t.b.order_id,
      subject: 'line',
      subjectId: t.b.id,
      action: earlier ? 'check-in moved to an earlier scan' : override ? 'checked in with override' : 'checked in',
      changes: {
        attendance: [previous.attendance, 'Arrived'],
        ticket_code: t.b.ticket_code,
        scanned_at: s.at.toISOString(),
        device,
        device_id: input.device_id,
        scan: s.id,
        ...(earlier ? { checked_in_at: [previous.checked_in_at, s.at.toISOString()] } : {}),
        ...(override ? { booked_for: `${t.local_date} ${t.local_time}`, checked_in_departures: input.slots } : {}),
      },
    });
    // Told once per admission: a scan that moves the check-in to an earlier time changes nothing for a receiver.
    if (previous.attendance !== 'Arrived') await bookingEvent(ctx, 'booking.checked_in', t.b.order_id, [t.b.id]);
    t.b = { ...t.b, attendance: 'Arrived', checked_in_at: s.at, checked_in_by: v.userId, checked_in_device: device };
  }

  const shown = new Map((await present(ctx, v, await q.ticketsByIds(ctx, [...new Set([...decided.values()].flatMap((d) => (d.booking ? [d.booking] : [])))]))).map((t) => [t.booking, t]));
  return scans.map((s) => {
    const d = decided.get(s.id)!;
    const ticket = d.booking ? (shown.get(d.booking) ?? null) : null;
    return {
      id: s.id,
      result: d.result,
      detail: describeScan(d.result, ticket, { zone: v.timeZone, timeFormat: v.timeFormat, override: d.override, now: s.at }),
      replayed: d.replayed,
      override: d.override,
      can_override: (d.result === 'wrong_day' || d.result === 'wrong_departure') && sees.override,
      ticket,
    };
  });
}

/**
 * The back office's single scan (`POST /api/bookings/check-in/`): the same settlement, any departure
 * of the day, as the device "back-office"; anything but an admission answers an error — a ticket of
 * another day 409 `wrong_day`, admitted when sent again with `override` ("Check in anyway").
 */
export async function checkInCode(ctx: TenantCtx, v: Viewer, code: string, override = false) {
  const [outcome] = await scanBatch(ctx, v, { device_id: 'back-office', device_name: '', slots: [], scans: [{ id: randomUUID(), ticket_code: code, scanned_at: new Date().toISOString(), override, offline: false }] });
  const o = outcome!;
  switch (o.result) {
    case 'admitted':
      return o.ticket!.booking;
    case 'unknown':
      throw new AppError('not_found', 'Unknown ticket: it is not a booking of this organisation.');
    case 'canceled':
      throw new AppError('invalid', 'This booking was cancelled: the ticket is not valid.', 'ticket_code');
    case 'unconfirmed':
      throw new AppError('invalid', 'This booking is not confirmed yet: confirm its order first.', 'ticket_code');
    case 'wrong_day':
      throw new AppError('wrong_day', o.detail, 'ticket_code');
    default:
      throw new AppError('already_checked_in', `Already checked in at ${doorClock(new Date(o.ticket!.checked_in_at!), v.timeZone, v.timeFormat)}.`, 'ticket_code');
  }
}

/** Undoes an admission (a wrong scan, a guest who left): attendance back to Open, with the reason in the audit trail. */
export async function undo(ctx: TenantCtx, v: Viewer, id: string, reason: string) {
  const b = await q.lockBooking(ctx, id);
  if (!b) throw notFound('No booking with this id.');
  if (b.attendance !== 'Arrived') throw new AppError('conflict', 'This ticket is not checked in: there is nothing to undo.');
  await q.markOpen(ctx, id);
  await recordAudit(ctx, {
    order: b.order_id,
    subject: 'line',
    subjectId: id,
    action: 'check-in undone',
    changes: { attendance: ['Arrived', 'Open'], reason, checked_in_at: b.checked_in_at?.toISOString() ?? null, device: b.checked_in_device },
  });
  const [ticket] = await present(ctx, v, await q.ticketsByIds(ctx, [id]));
  return ticket!;
}
