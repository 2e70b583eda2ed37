import { z } from 'zod';
import { ZEmail } from './identity';
import { LANGUAGES } from './i18n/languages';

/**
 * A departure's waiting list (issue 32): a customer joins a sold-out departure's list in the web
 * store; when seats free up the first entry whose seats fit is offered them (held for it a set time,
 * the store's `waitlist_hold_minutes`) by e-mail; staff see and manage the list on the departure.
 */
export const WAITLIST_STATUSES = ['waiting', 'offered', 'booked', 'expired', 'removed'] as const;
export type TWaitlistStatus = (typeof WAITLIST_STATUSES)[number];

/** Joining in the web store: `POST /api/web-stores/{slug}/waitlist/`. */
export const ZWaitlistJoin = z
  .object({
    slot: z.uuid({ error: 'Not a valid id.' }),
    email: ZEmail,
    name: z.string().trim().min(1, { error: 'Enter your name.' }).max(120),
    seats: z.number().int().min(1, { error: 'Ask for at least one seat.' }).max(30, { error: 'Ask for at most 30 seats; for a larger group, ask the operator.' }),
    /**
     * Who they are, by pricing category (a family: two adults and two children), so the seats offered
     * are priced for them; the seats are then what these take (`seats` is checked against them).
     * Absent: `seats` of the full ticket.
     */
    quantities: z.record(z.uuid({ error: 'Not a valid id.' }), z.number().int().min(0).max(30)).optional(),
    /** The page's language: the e-mail offering seats speaks it (else Accept-Language, among the store's). */
    language: z.enum(LANGUAGES).optional(),
  })
  .meta({ id: 'WaitlistJoin' });
export type TWaitlistJoin = z.input<typeof ZWaitlistJoin>;

export const ZWaitlistJoined = z.object({ id: z.uuid(), position: z.number().int(), seats: z.number().int() }).meta({ id: 'WaitlistJoined' });
export type TWaitlistJoined = z.infer<typeof ZWaitlistJoined>;


/** An entry as staff see it on the departure. */
export const ZWaitlistEntry = z
  .object({
    id: z.uuid(),
    position: z.number().int(),
    email: z.string(),
    name: z.string(),
    seats: z.number().int(),
    language: z.string(),
    status: z.enum(WAITLIST_STATUSES),
    offered_at: z.iso.datetime().nullable(),
    offered_until: z.iso.datetime().nullable(),
    order: z.uuid().nullable(),
    order_reference: z.string().nullable(),
    created_at: z.iso.datetime(),
  })
  .meta({ id: 'WaitlistEntry' });
export type TWaitlistEntry = z.infer<typeof ZWaitlistEntry>;

export const ZWaitlist = z
  .object({
    slot: z.uuid(),
    /** Seats remaining now (the one definition, tourdesk_seats_left). */
    seats_left: z.number().int(),
    /** How long an offer holds its seats (the store's setting of the first waiting entry, else the default). */
    hold_minutes: z.number().int(),
    results: z.array(ZWaitlistEntry),
  })
  .meta({ id: 'Waitlist' });
export type TWaitlist = z.infer<typeof ZWaitlist>;

export const ZWaitlistEntryParams = z.object({ id: z.uuid({ error: 'Not a valid id.' }), entry: z.uuid({ error: 'Not a valid id.' }) });
