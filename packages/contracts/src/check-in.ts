import { z } from 'zod';
import { ZDate, ZDateTime } from './text';
import { ZPaginationQuery } from './pagination';

/**
 * Check-in at the door (pretix's check-in lists): a device chooses the day's departures, downloads
 * their tickets, and sends its scans in batches — each with the device's own id for the scan (a
 * batch sent twice changes nothing) and the time it was read, so scans made offline are settled by
 * scan time: the first scan of a ticket admits it, every later one is told when and by whom.
 */
export const CHECK_IN_RESULTS = ['admitted', 'already_checked_in', 'wrong_day', 'wrong_departure', 'canceled', 'unconfirmed', 'unknown'] as const;
export type CheckInResult = (typeof CHECK_IN_RESULTS)[number];

export { normaliseTicketCode } from './ticket-code';

export const ZCheckInDeparture = z
  .object({
    slot: z.uuid(),
    experience: z.uuid(),
    experience_title: z.string(),
    starts_at: z.iso.datetime(),
    local_date: z.string(),
    local_time: z.string(),
    bookings: z.number().int(),
    seats: z.number().int(),
    arrived_bookings: z.number().int(),
    arrived_seats: z.number().int(),
  })
  .meta({ id: 'CheckInDeparture' });
export type TCheckInDeparture = z.infer<typeof ZCheckInDeparture>;

export const ZCheckInDepartures = z
  .object({ date: z.string(), time_zone: z.string(), departures: z.array(ZCheckInDeparture) })
  .meta({ id: 'CheckInDepartures' });
export type TCheckInDepartures = z.infer<typeof ZCheckInDepartures>;

const ZCount = z.object({ label: z.string(), quantity: z.number().int() });

/**
 * What the door sees of a booking: who, how many of each category, extras, the guide's notes and
 * what is left to pay. `contact` only for roles that hold Manage customers; `payment` only for
 * roles that hold Manage orders (otherwise null).
 */
export const ZCheckInTicket = z
  .object({
    booking: z.uuid(),
    ticket_code: z.string(),
    order_reference: z.string(),
    slot: z.uuid(),
    experience_title: z.string(),
    starts_at: z.iso.datetime(),
    local_date: z.string(),
    local_time: z.string(),
    status: z.enum(['Created', 'Confirmed', 'Canceled']),
    attendance: z.enum(['Open', 'Arrived', 'No show']),
    name: z.string(),
    seats: z.number().int(),
    categories: z.array(ZCount),
    extras: z.array(ZCount),
    answers: z.array(z.object({ question: z.string(), answer: z.string() })),
    notes: z.string(),
    balance_due: z.number().int(),
    currency: z.string(),
    checked_in_at: z.iso.datetime().nullable(),
    checked_in_by: z.string().nullable(),
    checked_in_device: z.string().nullable(),
    contact: z.object({ email: z.string(), phone: z.string() }).nullable(),
    payment: z.object({ order: z.uuid(), total: z.number().int(), paid: z.number().int(), payment_status: z.string() }).nullable(),
  })
  .meta({ id: 'CheckInTicket' });
export type TCheckInTicket = z.infer<typeof ZCheckInTicket>;

const UUID = '[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}';
/** 1 to 50 departure (slot) ids, separated by commas. */
const ZSlotList = z.string().regex(new RegExp(`^${UUID}(,${UUID}){0,49}$`), { error: 'Give 1 to 50 departure ids, separated by commas.' });
export const slotIds = (list: string) => [...new Set(list.split(',').map((s) => s.toLowerCase()))];

export const ZCheckInDeparturesQuery = z.object({ date: ZDate.optional() });
export const ZCheckInTicketsQuery = ZPaginationQuery.extend({ slots: ZSlotList });

/** The device's id: the same for every scan it sends (kept on the device). */
const ZDeviceId = z.string().trim().min(1).max(64).regex(/^[A-Za-z0-9._:-]+$/, { error: 'A device id has letters, digits, dots, colons, hyphens and underscores only.' });

export const ZCheckInScanInput = z.object({
  id: z.uuid({ error: 'Each scan needs its own id (a UUID the device makes).' }),
  ticket_code: z.string().trim().min(1).max(200),
  scanned_at: ZDateTime,
  /** Admit a ticket of another day or departure (roles that hold Manage orders). */
  override: z.boolean().default(false),
  /**
   * The device decided this scan itself, without a network, and has already let the guest in. Only
   * such a scan may take the place of a later admission on record (the earliest scan wins); a scan
   * the device sends to be decided finds the ticket used by whichever scan the server took first.
   */
  offline: z.boolean().default(false),
});
export type TCheckInScanInput = z.input<typeof ZCheckInScanInput>;

export const ZCheckInBatch = z.object({
  device_id: ZDeviceId,
  device_name: z.string().trim().max(60).default(''),
  /** The departures the device checks in: a ticket of another is wrong day or wrong departure. */
  slots: z.array(z.uuid()).max(50).default([]),
  scans: z.array(ZCheckInScanInput).min(1).max(100),
});
export type TCheckInBatch = z.input<typeof ZCheckInBatch>;

export const ZCheckInOutcome = z
  .object({
    id: z.uuid(),
    result: z.enum(CHECK_IN_RESULTS),
    detail: z.string(),
    /** An earlier answer to the same scan id, sent again (nothing changed). */
    replayed: z.boolean(),
    override: z.boolean(),
    /** Wrong day or departure, and the caller's role may admit it anyway. */
    can_override: z.boolean(),
    ticket: ZCheckInTicket.nullable(),
  })
  .meta({ id: 'CheckInOutcome' });
export type TCheckInOutcome = z.infer<typeof ZCheckInOutcome>;

export const ZCheckInBatchResult = z.object({ results: z.array(ZCheckInOutcome) }).meta({ id: 'CheckInBatchResult' });
export type TCheckInBatchResult = z.infer<typeof ZCheckInBatchResult>;

export const ZCheckInUndo = z.object({ reason: z.string().trim().min(1, { error: 'Say why the check-in is undone.' }).max(500) });
