import { z } from 'zod';
import { DATE_RANGE_FILTERS } from './constants';
import { ZCustomerInput, ZQuantities } from './availability';
import { paginated, ZPaginationQuery } from './pagination';
import { ZDate } from './text';

/**
 * Resales (/api/resales/) and settlement statements (/api/settlements/). A resale is a line
 * (booking) of an order in the supplier's organisation sold by a partner under a partnership; both
 * sides read it: the supplier (`side` supplier: what partners sold of its offers) and the reseller
 * (`side` reseller: what it sold of its partners' offers). The commission is fixed at sale.
 */

export const RESALE_SIDES = ['supplier', 'reseller'] as const;
export type TResaleSide = (typeof RESALE_SIDES)[number];
export const RESALE_STATUS_FILTERS = ['Confirmed', 'Unconfirmed', 'Canceled'] as const;
export const SETTLEMENT_STATUSES = ['Open', 'Settled'] as const;
/** The spec's success message when a reseller completes a sale whose order it cannot open (no id on its side). */
export const RESALE_COMPLETED = 'Resale completed!';

const ZUuid = z.uuid({ error: 'Must be a valid id.' });
const datesInOrder = (q: { from?: string | null; to?: string | null }) => !q.from || !q.to || q.to >= q.from;

export const ZResaleListQuery = ZPaginationQuery.extend({
  side: z.enum(['all', ...RESALE_SIDES]).default('all'),
  /** A partnership id (from filter-options). */
  partner: ZUuid.optional(),
  offer: ZUuid.optional(),
  store: ZUuid.optional(),
  status: z.enum(RESALE_STATUS_FILTERS).optional(),
  settled: z.enum(['yes', 'no']).optional(),
  /** The sale date: the last days, or from/to (the caller's local dates, both included). */
  date_range: z.enum(DATE_RANGE_FILTERS).optional(),
  from: ZDate.optional(),
  to: ZDate.optional(),
}).refine(datesInOrder, { error: 'The end of the period comes before its start.', path: ['to'] });
export type TResaleListQuery = z.input<typeof ZResaleListQuery>;

const ZNamed = z.object({ id: z.uuid(), name: z.string() });

/** One resold line, as either side sees it. Amounts in minor units of `currency`. */
export const ZResale = z
  .object({
    id: z.uuid(),
    order_id: z.uuid(),
    order_reference: z.string(),
    reseller_reference: z.string().nullable(),
    side: z.enum(RESALE_SIDES),
    sold_at: z.iso.datetime(),
    offer: ZNamed,
    /** The slot's start: the instant, and its wall time in the offer's (supplier's) time zone. */
    starts_at: z.iso.datetime(),
    local_date: z.string(),
    local_time: z.string(),
    time_zone: z.string(),
    partnership_id: z.uuid(),
    supplier: ZNamed,
    reseller: ZNamed,
    /** The other side's name. */
    partner_name: z.string(),
    store: ZNamed.nullable(),
    items: z.array(z.object({ kind: z.enum(['category', 'extra']), label: z.string(), quantity: z.number().int() })),
    seats: z.number().int(),
    currency: z.string(),
    gross: z.number().int(),
    commission: z.number().int(),
    supplier_net: z.number().int(),
    cancellation_fee: z.number().int(),
    status: z.enum(['Created', 'Confirmed', 'Canceled']),
    settlement: z.object({ id: z.uuid(), number: z.string(), status: z.enum(SETTLEMENT_STATUSES) }).nullable(),
  })
  .meta({ id: 'Resale' });
export type TResale = z.infer<typeof ZResale>;

export const ZResaleTotals = z.object({ currency: z.string(), lines: z.number().int(), gross: z.number().int(), commission: z.number().int(), supplier_net: z.number().int() });
export const ZResaleList = paginated(ZResale).extend({ totals: z.array(ZResaleTotals) });
export type TResaleList = z.infer<typeof ZResaleList>;

export const ZResaleFilterOptions = z
  .object({
    partners: z.array(z.object({ id: z.uuid(), name: z.string(), side: z.enum(RESALE_SIDES) })),
    offers: z.array(ZNamed),
    stores: z.array(ZNamed),
  })
  .meta({ id: 'ResaleFilterOptions' });
export type TResaleFilterOptions = z.infer<typeof ZResaleFilterOptions>;

/** One resale order with its lines; the customer's contact details only for the supplier. */
export const ZResaleDetail = z
  .object({
    id: z.uuid(),
    reference: z.string(),
    reseller_reference: z.string().nullable(),
    side: z.enum(RESALE_SIDES),
    status: z.string(),
    created_at: z.iso.datetime(),
    currency: z.string(),
    partnership_id: z.uuid(),
    supplier: ZNamed,
    reseller: ZNamed,
    customer: z.object({ name: z.string(), email: z.string().nullable(), phone: z.string().nullable() }),
    lines: z.array(ZResale),
    gross: z.number().int(),
    commission: z.number().int(),
    supplier_net: z.number().int(),
  })
  .meta({ id: 'ResaleDetail' });
export type TResaleDetail = z.infer<typeof ZResaleDetail>;

// --- Settlement statements ----------------------------------------------------------------

export const ZSettlementListQuery = ZPaginationQuery.extend({
  partner: ZUuid.optional(),
  status: z.enum(SETTLEMENT_STATUSES).optional(),
});

export const ZSettlementCreate = z
  .object({
    partnership_id: z.uuid({ error: 'Choose a partner.' }),
    period_from: ZDate,
    period_to: ZDate,
  })
  .refine((s) => s.period_to >= s.period_from, { error: 'The period cannot end before it starts.', path: ['period_to'] });
export type TSettlementCreate = z.infer<typeof ZSettlementCreate>;

export const ZSettlement = z
  .object({
    id: z.uuid(),
    number: z.string(),
    partnership_id: z.uuid(),
    side: z.enum(RESALE_SIDES),
    supplier: ZNamed,
    reseller: ZNamed,
    partner_name: z.string(),
    period_from: z.string(),
    period_to: z.string(),
    currency: z.string(),
    bookings: z.number().int(),
    gross: z.number().int(),
    commission: z.number().int(),
    supplier_net: z.number().int(),
    /** Positive: the reseller pays the supplier this; negative: the supplier pays the reseller. */
    reseller_owes: z.number().int(),
    /** Who pays whom (none when nothing is owed). */
    payer: z.enum(RESALE_SIDES).nullable(),
    status: z.enum(SETTLEMENT_STATUSES),
    settled_at: z.iso.datetime().nullable(),
    settled_by: z.string().nullable(),
    /** Whether the caller may mark it settled: the side that receives the money (the supplier when nothing is owed). */
    can_settle: z.boolean(),
    created_at: z.iso.datetime(),
  })
  .meta({ id: 'Settlement' });
export type TSettlement = z.infer<typeof ZSettlement>;
/**
 * A line of a statement, as it was settled (never recomputed): `id` is the resold line's, `status`
 * its status then, and the figures those it was settled at. A `reversal` credits a line of an
 * earlier statement (`reverses`) that was cancelled or changed after it: its figures and seats are
 * that line's, negated.
 */
export const ZSettlementLine = ZResale.extend({
  line_id: z.uuid(),
  kind: z.enum(['sale', 'reversal']),
  reverses: z.object({ line_id: z.uuid(), settlement_id: z.uuid(), number: z.string() }).nullable(),
}).meta({ id: 'SettlementLine' });
export type TSettlementLine = z.infer<typeof ZSettlementLine>;
export const ZSettlementDetail = ZSettlement.extend({ lines: z.array(ZSettlementLine) }).meta({ id: 'SettlementDetail' });
export type TSettlementDetail = z.infer<typeof ZSettlementDetail>;

// --- Selling a partner's offer at the counter ---------------------------------------------

/**
 * A supplier's offer that one of the caller's Active contracts shares: what a reseller's counter
 * (the back office's checkout) may sell. The sale is made in the supplier's books, from its seats.
 */
export const ZCounterOfferSummary = z
  .object({
    id: z.uuid(),
    title: z.string(),
    partnership_id: z.uuid(),
    supplier: ZNamed,
    currency: z.string(),
  })
  .meta({ id: 'CounterOfferSummary' });
export type TCounterOfferSummary = z.infer<typeof ZCounterOfferSummary>;

/** The same offer with what its booking form asks: categories, extras, questions, and the contract's terms. */
export const ZCounterOffer = ZCounterOfferSummary.extend({
  time_zone: z.string(),
  pricing: z.enum(['commission', 'net_rates']),
  commission_bp: z.number().int(),
  valid_from: z.string().nullable(),
  valid_to: z.string().nullable(),
  categories: z.array(z.object({ id: z.uuid(), label: z.string(), occupies_seat: z.boolean() })),
  extras: z.array(z.object({ id: z.uuid(), name: z.string(), price: z.number().int() })),
  questions: z.array(z.object({ id: z.uuid(), question: z.string(), answer_type: z.enum(['text', 'number', 'yes_no', 'choice']), choices: z.array(z.string()), required: z.boolean(), per_participant: z.boolean() })),
}).meta({ id: 'CounterOffer' });
export type TCounterOffer = z.infer<typeof ZCounterOffer>;

export const ZCounterSlotsQuery = z
  .object({ from: ZDate, to: ZDate })
  .refine((q) => q.to >= q.from, { error: 'The end of the period comes before its start.', path: ['to'] })
  .refine((q) => Date.parse(q.to) - Date.parse(q.from) <= 62 * 86_400_000, { error: 'Ask for at most two months at a time.', path: ['to'] });

/** A sale at the reseller's counter: one line of a partner's offer, booked at once for the customer. */
export const ZCounterSaleInput = z.object({
  experience: ZUuid,
  slot: ZUuid,
  quantities: ZQuantities,
  extras: z.record(z.uuid(), z.number().int().min(0).max(100)).default({}),
  customer: ZCustomerInput,
  answers: z.record(z.uuid(), z.string().max(1000)).default({}),
  notes: z.string().trim().max(2000).default(''),
  /** The reseller's own reference for the sale (a voucher number, a room). */
  reference: z.string().trim().max(100).nullable().default(null),
  /** E-mail the customer the confirmation and their tickets, from the supplier, once booked (ticked by default in the back office). */
  send_confirmation: z.boolean().default(false),
});
export type TCounterSaleInput = z.input<typeof ZCounterSaleInput>;
