import { z } from 'zod';
import { ZDate } from './text';

/**
 * The public booking API at /api/public/ (a partner's API key): the product's own shapes, in the
 * product's error envelope (OCTO's are in octo.ts).
 */

export const ZPublicAvailabilityQuery = z.object({ product: z.uuid(), from: ZDate, to: ZDate.optional() });
export const ZPublicPrice = z.object({ unit: z.uuid(), unit_type: z.string(), retail: z.number().int(), net: z.number().int() });
export const ZPublicAvailability = z
  .object({
    id: z.uuid(),
    starts_at: z.iso.datetime(),
    local_date: z.string(),
    local_time: z.string(),
    time_zone: z.string(),
    status: z.enum(['available', 'limited', 'sold_out', 'closed']),
    seats_left: z.number().int(),
    currency: z.string(),
    prices: z.array(ZPublicPrice.omit({ unit_type: true })),
  })
  .meta({ id: 'PublicAvailability' });
const Quantities = z.record(z.uuid(), z.number().int().min(0).max(1000));
export const ZPublicReserveInput = z
  .object({
    /** Your id for this reservation (idempotent: the same uuid answers the same reservation); made for you when left out. */
    uuid: z.uuid().optional(),
    product: z.uuid(),
    availability: z.uuid(),
    /** Units (pricing categories) and how many of each. */
    quantities: Quantities,
    reference: z.string().max(100).optional(),
    hold_minutes: z.number().int().min(1).max(60).optional(),
  })
  .meta({ id: 'PublicReserveInput' });
export const ZPublicBookInput = z
  .object({
    uuid: z.uuid(),
    customer: z.object({ email: z.email(), first_name: z.string().min(1).max(100), last_name: z.string().max(100).default(''), phone: z.string().max(40).default(''), country: z.string().regex(/^[A-Z]{2}$/).nullish() }),
    reference: z.string().max(100).optional(),
    /** Answers to the offer's booking questions by question id (a required one missing is named as `answers.<id>`). */
    answers: z.record(z.uuid(), z.string().max(1000)).default({}),
  })
  .meta({ id: 'PublicBookInput' });
export const ZPublicCancelInput = z.object({ uuid: z.uuid(), reason: z.string().max(500).optional() }).meta({ id: 'PublicCancelInput' });
export const ZPublicReservation = z
  .object({
    uuid: z.uuid(),
    /** PENDING: booked, waiting for the supplier to confirm it (an offer confirmed by hand); REJECTED: the supplier declined it. */
    status: z.enum(['ON_HOLD', 'PENDING', 'CONFIRMED', 'REJECTED', 'CANCELLED', 'EXPIRED']),
    product: z.uuid(),
    availability: z.uuid(),
    starts_at: z.iso.datetime(),
    quantities: z.record(z.string(), z.number().int()),
    currency: z.string(),
    total: z.number().int(),
    net: z.number().int(),
    expires_at: z.iso.datetime().nullable(),
    reference: z.string().nullable(),
    order_reference: z.string().nullable(),
    ticket_code: z.string().nullable(),
    cancellable: z.boolean(),
  })
  .meta({ id: 'PublicReservation' });
