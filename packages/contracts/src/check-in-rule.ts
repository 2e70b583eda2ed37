import type { CheckInResult, TCheckInTicket } from './check-in';
import { dateTimeFormat, timeText } from './date-format';
import type { TTimeFormat } from './display';
import { todayIn } from './local-date';

/**
 * The door's rule, in one place: the server settles every scan with it (check-in/service.ts, under
 * the ticket's lock) and a phone without a network decides with it until the server's answer comes
 * (apps/web check-in/device.ts). Pure: no clock, no storage, no database.
 */

/** What the rule reads of a ticket. */
export interface DoorTicket {
  status: 'Created' | 'Confirmed' | 'Canceled' | string;
  slot: string;
  local_date: string;
  attendance: 'Open' | 'Arrived' | 'No show' | string;
  checked_in_at: Date | null;
}

/**
 * The door: the departures it checks in (none: any of the day), the organisation's time zone (the
 * day is today there, at the scan's time), and whether it may admit a ticket of another day or
 * departure.
 */
export interface Door {
  slots: ReadonlySet<string>;
  zone: string;
  canOverride: boolean;
}

export interface Scan {
  at: Date;
  /** Decided on a phone without a network: it may take the place of a later admission. */
  offline: boolean;
  /** Asked to admit a ticket of another departure. */
  override: boolean;
}

export interface ScanDecision {
  result: CheckInResult;
  /** Admitted to another departure than the door's. */
  override: boolean;
  /** Admitted in place of a later admission on record (an offline scan that came first). */
  earlier: boolean;
}

/**
 * Unknown, cancelled, not confirmed; a ticket already in is "already" (a reused ticket is what the
 * door must catch first); a ticket whose departure is not today, in the organisation's zone at the
 * scan's time, is a wrong day, and one of today's departures the door does not check in a wrong
 * departure — both admitted only when asked, by a role that may. Otherwise the first scan admits
 * it. An offline scan older than the admission on record takes its place (the earliest scan wins);
 * a scan decided online is "already" whenever the ticket is in, whatever its time says.
 */
export function decideScan(t: DoorTicket | null, scan: Scan, door: Door): ScanDecision {
  const no = (result: CheckInResult): ScanDecision => ({ result, override: false, earlier: false });
  if (!t) return no('unknown');
  if (t.status === 'Canceled') return no('canceled');
  if (t.status === 'Created') return no('unconfirmed');
  const at = t.attendance === 'Arrived' ? t.checked_in_at : null;
  if (at && (at <= scan.at || !scan.offline)) return no('already_checked_in');
  const otherDay = t.local_date !== todayIn(door.zone, scan.at);
  const elsewhere = otherDay || (door.slots.size > 0 && !door.slots.has(t.slot));
  if (elsewhere && !(scan.override && door.canOverride)) return no(otherDay ? 'wrong_day' : 'wrong_departure');
  return { result: 'admitted', override: elsewhere, earlier: Boolean(at) };
}

/** "09:30", or "9:30 am" in 12-hour time, of an instant in a zone (date-format.ts's timeText()). */
export const doorClock = (at: Date, zone: string, timeFormat: TTimeFormat) => timeText(at, zone, timeFormat, 'en-GB');
/** "Fri 18 Dec" of an instant in a zone. */
export const doorDay = (at: Date, zone: string) => dateTimeFormat('en-GB', { timeZone: zone, weekday: 'short', day: 'numeric', month: 'short' }).format(at);

/**
 * What the door reads, large, for each result, in the organisation's zone and time format; a
 * ticket whose departure is not today says its day and time. `now` is the scan's time (today, and
 * whether an earlier admission's day is said); `local` is the phone's own answer while offline (an
 * unknown code may be a ticket it has not downloaded).
 */
export function describeScan(
  result: CheckInResult,
  t: Pick<TCheckInTicket, 'starts_at' | 'checked_in_at' | 'checked_in_by' | 'checked_in_device' | 'experience_title'> | null,
  o: { zone: string; timeFormat: TTimeFormat; override?: boolean; now: Date; local?: boolean },
) {
  const clock = (at: Date) => doorClock(at, o.zone, o.timeFormat);
  const when = t ? new Date(t.starts_at) : null;
  const today = todayIn(o.zone, o.now);
  const booked = when && todayIn(o.zone, when) !== today ? ` Booked for ${doorDay(when, o.zone)} at ${clock(when)}.` : '';
  switch (result) {
    case 'admitted':
      return (o.override ? 'Checked in (override).' : 'Checked in.') + booked;
    case 'already_checked_in': {
      const at = t?.checked_in_at ? new Date(t.checked_in_at) : null;
      const by = t?.checked_in_by ? ` by ${t.checked_in_by}` : '';
      const on = t?.checked_in_device ? ` on ${t.checked_in_device}` : '';
      return (at ? `Already checked in at ${clock(at)}${todayIn(o.zone, at) === today ? '' : `, ${doorDay(at, o.zone)}`}${by}${on}.` : 'Already checked in.') + booked;
    }
    case 'wrong_day':
      return when ? `Wrong day: booked for ${doorDay(when, o.zone)} at ${clock(when)}.` : 'Wrong day.';
    case 'wrong_departure':
      return when ? `Wrong departure: booked for ${clock(when)}, ${t!.experience_title}.` : 'Wrong departure.';
    case 'canceled':
      return 'Cancelled: this booking was cancelled, the ticket is not valid.' + booked;
    case 'unconfirmed':
      return 'Not confirmed: the order must be confirmed before check-in.' + booked;
    case 'unknown':
      return o.local ? 'Not on this device’s list: checked again when the network is back.' : 'Unknown ticket: no booking of this organisation has this code.';
  }
}
