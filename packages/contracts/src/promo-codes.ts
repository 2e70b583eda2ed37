import { z } from 'zod';
import { ZDate } from './text';

/**
 * Promo codes (issue 32, /api/promo-codes/): a percentage (basis points) or a fixed amount (minor
 * units of the organisation's currency) off the gross of the items it is valid for, typed in the
 * web store's cart or at the counter. The discount is fixed on the order's lines when sold
 * (booking.discount), and shown as its own "Discount (CODE)" row with its VAT per rate.
 */
export const PROMO_KINDS = ['percent', 'amount'] as const;
/** A code as typed: letters, digits, - and _; matched without regard to case. */
export const PROMO_CODE_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_-]{1,39}$/;

/** Why a code is refused: the error envelope's `code` (attr `promo_code`), one message each in the catalogs. */
export const PROMO_REFUSALS = [
  'promo_unknown',
  'promo_expired',
  'promo_not_yet_valid',
  'promo_not_for_offer',
  'promo_departure',
  'promo_minimum',
  'promo_used_up',
  'promo_used_by_customer',
  'promo_not_for_store',
] as const;
export type PromoRefusal = (typeof PROMO_REFUSALS)[number];

const nullableCount = z.number().int().min(1, { error: 'Leave it empty for no limit, or give at least 1.' }).max(1_000_000).nullable().default(null);

export const ZPromoCodeInput = z
  .object({
    code: z.string().trim().regex(PROMO_CODE_PATTERN, { error: 'Use 2 to 40 letters, digits, - or _.' }),
    description: z.string().trim().max(200).default(''),
    kind: z.enum(PROMO_KINDS),
    /** For 'percent': the share off in basis points (1000 = 10 %). */
    percent_bp: z.number().int().min(0).max(10000).default(0),
    /** For 'amount': the amount off in minor units of the organisation's currency. */
    amount: z.number().int().min(0).max(100_000_000).default(0),
    /** The offers it is valid for; empty: every offer. */
    experiences: z.array(z.uuid()).max(200).default([]),
    /** The pricing categories it is valid for; empty: every item (categories and extras). */
    categories: z.array(z.uuid()).max(100).default([]),
    /** Booking window (the organisation's local dates, both included; null: open). */
    valid_from: ZDate.nullable().default(null),
    valid_until: ZDate.nullable().default(null),
    /** Departure window (the departure's local date, both included; null: open). */
    departure_from: ZDate.nullable().default(null),
    departure_until: ZDate.nullable().default(null),
    /** The smallest order it applies to: the gross of every line before the discount, minor units. */
    min_order: z.number().int().min(0).max(100_000_000).default(0),
    max_uses: nullableCount,
    max_uses_per_customer: nullableCount,
    /** Only in this web store; null: every store and the counter. */
    store: z.uuid().nullable().default(null),
    active: z.boolean().default(true),
  })
  .superRefine((v, ctx) => {
    if (v.kind === 'percent' && (v.percent_bp < 1 || v.percent_bp > 10000)) ctx.addIssue({ code: 'custom', path: ['percent_bp'], message: 'Give a percentage between 0.01 % and 100 %.' });
    if (v.kind === 'amount' && v.amount < 1) ctx.addIssue({ code: 'custom', path: ['amount'], message: 'Give the amount off.' });
    if (v.valid_from && v.valid_until && v.valid_until < v.valid_from) ctx.addIssue({ code: 'custom', path: ['valid_until'], message: 'The end of the booking window is before its start.' });
    if (v.departure_from && v.departure_until && v.departure_until < v.departure_from) ctx.addIssue({ code: 'custom', path: ['departure_until'], message: 'The end of the departure window is before its start.' });
  });
export type TPromoCodeInput = z.input<typeof ZPromoCodeInput>;
/** PATCH: any field; `{ active: false }` deactivates a code. */
export const ZPromoCodePatch = z.object({
  code: z.string().trim().regex(PROMO_CODE_PATTERN, { error: 'Use 2 to 40 letters, digits, - or _.' }).optional(),
  description: z.string().trim().max(200).optional(),
  kind: z.enum(PROMO_KINDS).optional(),
  percent_bp: z.number().int().min(0).max(10000).optional(),
  amount: z.number().int().min(0).max(100_000_000).optional(),
  experiences: z.array(z.uuid()).max(200).optional(),
  categories: z.array(z.uuid()).max(100).optional(),
  valid_from: ZDate.nullable().optional(),
  valid_until: ZDate.nullable().optional(),
  departure_from: ZDate.nullable().optional(),
  departure_until: ZDate.nullable().optional(),
  min_order: z.number().int().min(0).max(100_000_000).optional(),
  max_uses: z.number().int().min(1).max(1_000_000).nullable().optional(),
  max_uses_per_customer: z.number().int().min(1).max(1_000_000).nullable().optional(),
  store: z.uuid().nullable().optional(),
  active: z.boolean().optional(),
});

export const ZPromoCode = z
  .object({
    id: z.uuid(),
    code: z.string(),
    description: z.string(),
    kind: z.enum(PROMO_KINDS),
    percent_bp: z.number().int(),
    amount: z.number().int(),
    experiences: z.array(z.uuid()),
    categories: z.array(z.uuid()),
    valid_from: z.string().nullable(),
    valid_until: z.string().nullable(),
    departure_from: z.string().nullable(),
    departure_until: z.string().nullable(),
    min_order: z.number().int(),
    max_uses: z.number().int().nullable(),
    max_uses_per_customer: z.number().int().nullable(),
    store: z.uuid().nullable(),
    store_name: z.string().nullable(),
    active: z.boolean(),
    /** Orders that took it. */
    uses: z.number().int(),
    /** The total (after the discount) of those orders that are not cancelled, in minor units of `currency`. */
    revenue: z.number().int(),
    currency: z.string(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: 'PromoCode' });
export type TPromoCode = z.infer<typeof ZPromoCode>;

export const ZPromoCodeListQuery = z.object({
  search: z.string().trim().max(100).optional(),
  active: z.enum(['true', 'false']).optional(),
});

/** A discount as shown: the code, the amount off (positive, gross) and its VAT per rate. */
export const ZDiscount = z
  .object({
    code: z.string(),
    amount: z.number().int(),
    taxes: z.array(z.object({ vat_rate_bp: z.number().int(), gross: z.number().int(), tax: z.number().int(), net: z.number().int() })),
  })
  .meta({ id: 'Discount' });
export type TDiscount = z.infer<typeof ZDiscount>;

/** Trying a code on a cart (the store's or the counter's), before the order: what it would take off. */
export const ZPromoTry = z.object({
  code: z.string().trim().min(1, { error: 'Enter a code.' }).max(40),
  /** The cart lines to be booked (without: every line still held). */
  lines: z.array(z.uuid()).max(100).optional(),
  /** The customer's e-mail, when known: the counter's preview checks the per-customer limit with it; the web store's ignores it (an anonymous caller learns nothing of who used a code), and its order checks it. */
  email: z.string().trim().max(254).optional(),
});
export const ZPromoPreview = z
  .object({
    discount: ZDiscount,
    /** Each cart line's share of the discount. */
    lines: z.array(z.object({ id: z.uuid(), discount: z.number().int() })),
    /** The lines' gross before and after the discount. */
    subtotal: z.number().int(),
    total: z.number().int(),
    currency: z.string(),
  })
  .meta({ id: 'PromoPreview' });
export type TPromoPreview = z.infer<typeof ZPromoPreview>;
