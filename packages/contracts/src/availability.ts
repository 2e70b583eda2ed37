import { z } from 'zod';
import { ATTENDANCE_STATUSES, BOOKING_STATUS_FILTERS, BOOKING_STATUSES, HOLD_MINUTES } from './constants';
import { ZPaginationQuery } from './pagination';

const ZLocalTime = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, { error: 'Use a 24-hour time such as 09:00.' });
import { ZDate } from './text';
import { LANGUAGES } from './i18n/languages';
import { voucherFields } from './gift-vouchers';
const ZUuid = z.uuid({ error: 'Not a valid id.' });

// --- schedules ----------------------------------------------------------------------------
export const SCHEDULE_KINDS = ['start_times', 'opening_hours'] as const;
export const ZScheduleRuleInput = z
  .object({
    experience: ZUuid,
    kind: z.enum(SCHEDULE_KINDS).default('start_times'),
    valid_from: ZDate,
    valid_to: ZDate.nullable().default(null),
    weekdays: z.array(z.number().int().min(1).max(7)).max(7).default([]),
    /** Local start times for `start_times`; for `opening_hours`, the opening time. */
    start_times: z.array(ZLocalTime).min(1, { error: 'Add at least one start time.' }).max(48),
    /** For `opening_hours`: when the day's single slot ends. */
    closing_time: ZLocalTime.nullable().default(null),
    capacity: z.number().int().min(1, { error: 'Capacity is at least 1.' }).max(100_000),
  })
  .refine((v) => !v.valid_to || v.valid_from <= v.valid_to, { error: 'The end date comes before the start date.', path: ['valid_to'] })
  .refine((v) => v.kind === 'start_times' || (v.start_times.length === 1 && v.closing_time !== null && v.closing_time > v.start_times[0]!), {
    error: 'Opening hours need one opening time and a later closing time.',
    path: ['closing_time'],
  });
export const ZScheduleRule = z
  .object({
    id: z.uuid(),
    experience: z.uuid(),
    kind: z.enum(SCHEDULE_KINDS),
    valid_from: z.string(),
    valid_to: z.string().nullable(),
    weekdays: z.array(z.number().int()),
    start_times: z.array(z.string()),
    closing_time: z.string().nullable(),
    capacity: z.number().int(),
  })
  .meta({ id: 'ScheduleRule' });
export type TScheduleRule = z.infer<typeof ZScheduleRule>;
/** What changing or removing a rule did to its slots: those with bookings or holds are kept (closed when no rule wants them). */
export const ZScheduleChange = z.object({ kept_slots: z.number().int(), detail: z.string() }).meta({ id: 'ScheduleChange' });
export type TScheduleChange = z.infer<typeof ZScheduleChange>;

export const ZClosedDateInput = z.object({ experience: ZUuid, date: ZDate, reason: z.string().trim().max(200).default('') });
export const ZScheduleRuleListQuery = z.object({ experience: z.uuid() });

// --- slots and availability ---------------------------------------------------------------
export const SLOT_STATUSES = ['available', 'limited', 'sold_out', 'closed'] as const;
export const ZSlot = z
  .object({
    id: z.uuid(),
    experience: z.uuid(),
    starts_at: z.iso.datetime(),
    ends_at: z.iso.datetime(),
    local_date: z.string(),
    local_time: z.string(),
    time_zone: z.string(),
    capacity: z.number().int(),
    booked: z.number().int(),
    held: z.number().int(),
    remaining: z.number().int(),
    closed: z.boolean(),
    bookable: z.boolean(),
    status: z.enum(SLOT_STATUSES),
    prices: z.array(z.object({ pricing_category: z.uuid(), retail_price: z.number().int(), currency: z.string() })),
  })
  .meta({ id: 'Slot' });
export type TSlot = z.infer<typeof ZSlot>;

export const ZAvailabilityQuery = z.object({
  experience: ZUuid,
  date: ZDate.optional(),
  from: ZDate.optional(),
  to: ZDate.optional(),
});
export const ZSlotUpdate = z
  .object({ capacity: z.number().int().min(0).max(100_000), closed: z.boolean() })
  .partial();
/** A slot of one day's capacity page, with its experience's title. */
export const ZCapacitySlot = ZSlot.extend({ experience_title: z.string() });
export type TCapacitySlot = z.infer<typeof ZCapacitySlot>;
export const ZCapacityByDateQuery = z.object({ date: ZDate });

/** Per day of an experience, for a month calendar: how many slots, seats left, and the best status. */
export const ZBookingsCalendarQuery = z.object({ experience: z.uuid(), from: ZDate, to: ZDate });
export const ZBookingsCalendarDay = z.object({ date: z.string(), slots: z.number().int(), remaining: z.number().int(), status: z.enum(['available', 'limited', 'sold_out', 'closed']) });
export type TBookingsCalendarDay = z.infer<typeof ZBookingsCalendarDay>;

/** Per day: capacity, booked, held and remaining seats. */
export const ZCapacityCalendarQuery = z.object({ from: ZDate, to: ZDate, experience: z.uuid().optional() });
export const ZDayCapacity = z.object({ date: z.string(), slots: z.number().int(), capacity: z.number().int(), booked: z.number().int(), held: z.number().int(), remaining: z.number().int() });
export type TDayCapacity = z.infer<typeof ZDayCapacity>;

export const ZBookingConfig = z
  .object({
    hold_minutes: z.number().int().min(HOLD_MINUTES.MIN).max(HOLD_MINUTES.MAX),
    default_cutoff_minutes: z.number().int().min(0).max(60 * 24 * 30),
    time_zone: z.string(),
    /** The seats a new schedule starts with (Settings → Product configuration). */
    default_capacity: z.number().int(),
  })
  .meta({ id: 'BookingConfig' });
export type TBookingConfig = z.infer<typeof ZBookingConfig>;

// --- carts, orders and bookings -----------------------------------------------------------
export const ZQuantities = z
  .record(z.uuid(), z.number().int().min(0).max(1000))
  .refine((q) => Object.values(q).some((n) => n > 0), { error: 'Choose at least one participant.' });
export const ZCartLineInput = z.object({ slot: ZUuid, quantities: ZQuantities, extras: z.record(z.uuid(), z.number().int().min(0).max(100)).default({}) });
/** An item of a line: a pricing category or an extra, its quantity and its unit price (VAT included). */
export const ZLineItem = z.object({ kind: z.enum(['category', 'extra']), id: z.string(), label: z.string(), quantity: z.number().int(), unit_price: z.number().int() });
export type TLineItem = z.infer<typeof ZLineItem>;
/** An item as sold: its gross total, VAT rate (basis points), and the net and tax in it, fixed at sale. */
export const ZSoldItem = ZLineItem.extend({ total: z.number().int(), tax_rate_bp: z.number().int(), net: z.number().int(), tax: z.number().int() });
export type TSoldItem = z.infer<typeof ZSoldItem>;

export const ZCartLine = z
  .object({
    id: z.uuid(),
    slot: z.uuid(),
    experience: z.uuid(),
    experience_title: z.string(),
    starts_at: z.iso.datetime(),
    quantities: z.record(z.string(), z.number().int()),
    extras: z.record(z.string(), z.number().int()),
    seats: z.number().int(),
    total: z.number().int(),
    currency: z.string(),
    expires_at: z.iso.datetime(),
    /** What the line sells, item by item, at the prices of the day it was held. */
    items: z.array(ZLineItem),
  })
  .meta({ id: 'CartLine' });
export const ZCart = z
  .object({ id: z.uuid(), lines: z.array(ZCartLine), total: z.number().int(), currency: z.string(), expires_at: z.iso.datetime().nullable() })
  .meta({ id: 'Cart' });
export type TCart = z.infer<typeof ZCart>;
/** What a hold answers: the new line, and the cart it went into. */
export const ZHeldLine = ZCartLine.extend({ cart: z.uuid() }).meta({ id: 'HeldLine' });
export type THeldLine = z.infer<typeof ZHeldLine>;

export const ZCustomerInput = z.object({
  email: z.email({ error: 'Enter a valid e-mail address.' }).trim().toLowerCase(),
  first_name: z.string().trim().min(1, { error: 'Enter the first name.' }).max(100),
  last_name: z.string().trim().max(100).default(''),
  phone: z.string().trim().max(40).default(''),
  country: z.string().regex(/^[A-Z]{2}$/, { error: 'Use a two-letter country code.' }).nullable().default(null),
  marketing_consent: z.boolean().default(false),
});
/** A customer's details as a sale gives them (the customer is found by e-mail, or made). */
export type TCustomerDetails = z.output<typeof ZCustomerInput>;
export const ZCheckoutInput = z.object({
  customer: ZCustomerInput,
  /** Answers to booking questions, by question id. */
  answers: z.record(z.uuid(), z.string().max(1000)).default({}),
  /**
   * The ids of the cart lines the customer saw and books. Without it, the lines the cart shows now
   * (holds not run out). A listed line whose hold ran out is re-held if its seats are still there
   * and its slot open for sale, or refused with a 409 naming it (`lines.<id>`).
   */
  lines: z.array(z.uuid({ error: 'Must be a valid id.' })).min(1, { error: 'Choose at least one line.' }).max(100).optional(),
  /** The customer's language (their e-mails, tickets and invoices); absent: the organisation's main one. */
  language: z.enum(LANGUAGES, { error: `Choose one of: ${LANGUAGES.join(', ')}.` }).optional(),
  /** E-mail the customer the confirmation and their tickets once booked (the back office's counter ticks it by default). */
  send_confirmation: z.boolean().default(false),
  /** A promo code (issue 32): refused with a promo_* code on `promo_code` when it does not apply. */
  promo_code: z.string().trim().min(1).max(40).optional(),
  ...voucherFields,
});

export const ZBooking = z
  .object({
    id: z.uuid(),
    order: z.uuid(),
    order_reference: z.string(),
    experience: z.uuid(),
    experience_title: z.string(),
    slot: z.uuid(),
    starts_at: z.iso.datetime(),
    status: z.enum(BOOKING_STATUSES),
    attendance: z.enum(ATTENDANCE_STATUSES),
    ticket_code: z.string(),
    quantities: z.record(z.string(), z.number().int()),
    extras: z.record(z.string(), z.number().int()),
    answers: z.record(z.string(), z.string()),
    seats: z.number().int(),
    /** Fixed when sold: gross total, VAT rate (basis points), net and tax, and the items. */
    total: z.number().int(),
    tax_rate_bp: z.number().int(),
    /** Sold before the organisation set its VAT rate: the rate is applied when the order is invoiced. */
    tax_rate_pending: z.boolean(),
    net: z.number().int(),
    tax: z.number().int(),
    items: z.array(ZSoldItem),
    /** The promo code's discount on this line (gross, fixed when sold): `total` is its items' gross less it. */
    discount: z.number().int(),
    currency: z.string(),
    customer: z.object({ id: z.uuid(), email: z.string(), first_name: z.string(), last_name: z.string() }),
    checked_in_at: z.iso.datetime().nullable(),
    created_at: z.iso.datetime(),
  })
  .meta({ id: 'Booking' });
export type TBooking = z.infer<typeof ZBooking>;
/** The bookings list's filters (its CSV takes the same; the list adds `page` and `page_size`). */
export const ZBookingFilters = z.object({
  status: z.enum(BOOKING_STATUS_FILTERS).optional(),
  from: ZDate.optional(),
  to: ZDate.optional(),
  experience: z.uuid().optional(),
  search: z.string().trim().max(100).optional(),
});
export const ZBookingListQuery = ZPaginationQuery.extend(ZBookingFilters.shape);
export type TBookingListQuery = z.input<typeof ZBookingListQuery>;
/** The bookings of a day or of one slot. */
export const ZBookingManifestQuery = z.object({ date: ZDate.optional(), slot: z.uuid().optional() });



export const ZAttendanceInput = z.object({ attendance: z.enum(ATTENDANCE_STATUSES) });
export const ZCheckIn = z.object({
  ticket_code: z.string().trim().min(6).max(64),
  /** Admit a ticket of another day (the desk's "Check in anyway"; the route already needs Manage orders). */
  override: z.boolean().default(false),
});

export const ZAgendaItemInput = z.object({
  experience: ZUuid,
  minutes_from_start: z.number().int().min(0).max(60 * 24 * 30).default(0),
  title: z.string().trim().min(1, { error: 'Give the stop a title.' }).max(150),
  description: z.string().trim().max(2000).default(''),
});
export const ZAgendaItem = z
  .object({ id: z.uuid(), experience: z.uuid(), minutes_from_start: z.number().int(), title: z.string(), description: z.string() })
  .meta({ id: 'AgendaItem' });
export type TAgendaItem = z.infer<typeof ZAgendaItem>;

/** What selling needs to show, readable by anyone who may sell: the extras offered with experiences and the booking questions. */
export const ZBookingOptions = z
  .object({
    extras: z.array(z.object({ id: z.uuid(), name: z.string(), price: z.number().int(), currency: z.string() })),
    questions: z.array(
      z.object({ id: z.uuid(), question: z.string(), answer_type: z.enum(['text', 'number', 'yes_no', 'choice']), choices: z.array(z.string()), required: z.boolean(), per_participant: z.boolean() }),
    ),
  })
  .meta({ id: 'BookingOptions' });
export type TBookingOptions = z.infer<typeof ZBookingOptions>;
