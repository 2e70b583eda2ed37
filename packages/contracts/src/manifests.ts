import { z } from 'zod';
import { ATTENDANCE_STATUSES, BOOKING_STATUSES } from './constants';
import { ZDate } from './text';

/**
 * Manifests: who comes to a departure (a slot), as the guide and the office need it — each booking
 * with its category split, extras, answers, the customer's phone, what is left to pay and whether
 * they arrived; totals per departure and per category. A day's manifest lists every departure.
 */

const ZCount = z.object({ id: z.string(), label: z.string(), quantity: z.number().int() });
export type TManifestCount = z.infer<typeof ZCount>;

export const ZManifestBooking = z
  .object({
    id: z.uuid(),
    order: z.uuid(),
    order_reference: z.string(),
    ticket_code: z.string(),
    status: z.enum(BOOKING_STATUSES),
    attendance: z.enum(ATTENDANCE_STATUSES),
    checked_in_at: z.iso.datetime({ offset: true }).nullable(),
    /** `email` and `phone` are null for a role that does not hold Manage customers (as at check-in). */
    customer: z.object({ first_name: z.string(), last_name: z.string(), email: z.string().nullable(), phone: z.string().nullable() }),
    seats: z.number().int(),
    /** Per pricing category, as sold ("2 Adult, 1 Child"). */
    categories: z.array(ZCount),
    extras: z.array(ZCount),
    /** Answers to booking questions, with the question's text. */
    answers: z.array(z.object({ question: z.string(), answer: z.string() })),
    /** The required booking questions still unanswered (missingAnswers()): a partner's booking confirmed without them, its customer asked by e-mail. */
    missing_answers: z.array(z.string()),
    /**
     * What the order still owes (never negative), shown on the order's first booking in the
     * manifest and 0 on its others, so that the column adds up to the departure's total; null for a
     * role that does not hold Manage orders.
     */
    balance_due: z.number().int().nullable(),
    currency: z.string(),
    /** The order's notes and the customer's notes. */
    notes: z.string(),
  })
  .meta({ id: 'ManifestBooking' });
export type TManifestBooking = z.infer<typeof ZManifestBooking>;

export const ZManifestTotals = z
  .object({
    bookings: z.number().int(),
    seats: z.number().int(),
    /** Seats of the bookings checked in (Arrived), and of those marked No show. */
    arrived: z.number().int(),
    no_show: z.number().int(),
    categories: z.array(ZCount),
    extras: z.array(ZCount),
    /** Null for a role that does not hold Manage orders. */
    balance_due: z.number().int().nullable(),
  })
  .meta({ id: 'ManifestTotals' });
export type TManifestTotals = z.infer<typeof ZManifestTotals>;

export const ZManifest = z
  .object({
    slot: z.uuid(),
    experience: z.uuid(),
    experience_title: z.string(),
    starts_at: z.iso.datetime({ offset: true }),
    ends_at: z.iso.datetime({ offset: true }),
    /** Local to the organisation's time zone, where the slot's times are kept. */
    local_date: z.string(),
    local_time: z.string(),
    time_zone: z.string(),
    capacity: z.number().int(),
    closed: z.boolean(),
    /** The guides assigned to the departure (issue 34), by name. */
    guides: z.array(z.object({ id: z.uuid(), name: z.string() })),
    currency: z.string(),
    bookings: z.array(ZManifestBooking),
    totals: ZManifestTotals,
  })
  .meta({ id: 'Manifest' });
export type TManifest = z.infer<typeof ZManifest>;

export const ZManifestDay = z
  .object({
    date: z.string(),
    time_zone: z.string(),
    currency: z.string(),
    departures: z.array(ZManifest),
    totals: ZManifestTotals,
  })
  .meta({ id: 'ManifestDay' });
export type TManifestDay = z.infer<typeof ZManifestDay>;

export const ZManifestDayQuery = z.object({ date: ZDate });

/** Tickets sent again: to whom, and what the page says. */
export const ZTicketsSent = z.object({ to: z.string(), detail: z.string() });
export type TTicketsSent = z.infer<typeof ZTicketsSent>;
