import { z } from 'zod';
import { voucherFields } from './gift-vouchers';

/**
 * Deposits (issue 32): an offer or a store asks for part of a booking online — a percentage (basis
 * points) of the line's discounted total or a fixed amount per booking (minor units) — with the rest
 * due on site (`balance_due_days` null) or N days before the departure. The offer's rule wins over
 * the store's. Pure rules here, shared by the API (what Stripe is charged) and the store (what it shows).
 */
export const DEPOSIT_KINDS = ['percent', 'amount'] as const;
export type DepositKind = (typeof DEPOSIT_KINDS)[number];

export const ZDepositRule = z
  .object({
    kind: z.enum(DEPOSIT_KINDS, { error: 'Choose a percentage or a fixed amount.' }),
    /** percent: basis points (2000 = 20 %), 1 to 9999; amount: minor units per booking, at least 1. */
    value: z.number().int({ error: 'Enter a whole number.' }).min(1, { error: 'A deposit is more than nothing.' }),
    /** The rest is due this many days before the departure; null: on site. */
    balance_due_days: z.number().int().min(1, { error: 'At least one day before.' }).max(365, { error: 'At most 365 days before.' }).nullable(),
  })
  .refine((r) => r.kind !== 'percent' || r.value < 10_000, { error: 'A deposit percentage is below 100 %.', path: ['value'] })
  .meta({ id: 'DepositRule' });
export type TDepositRule = z.infer<typeof ZDepositRule>;

/** The days before a balance's due date its reminder is e-mailed (a store's `balance_reminder_days`). */
export const DEFAULT_BALANCE_REMINDER_DAYS = 3;

/**
 * One line's deposit: the rule's share of its discounted total, rounded half up to a minor unit, never
 * more than the line's total (a fixed amount larger than a cheap line takes the whole line).
 */
export function depositOf(lineTotal: number, rule: TDepositRule | null): number {
  if (!rule || lineTotal <= 0) return Math.max(lineTotal, 0);
  const share = rule.kind === 'percent' ? Math.round((lineTotal * rule.value) / 10_000) : rule.value;
  return Math.min(Math.max(share, 0), lineTotal);
}

/** The rule a line follows: its offer's, else its store's. */
export const depositRuleOf = (offer: TDepositRule | null | undefined, store: TDepositRule | null | undefined): TDepositRule | null => offer ?? store ?? null;

/** The local date (YYYY-MM-DD) `days` before `date`. */
export function daysBefore(date: string, days: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() - days);
  return d.toISOString().slice(0, 10);
}

/** What the store shows and Stripe charges when paying online (the API's onlineAmount()). */
export const ZOnlineAmount = z
  .object({
    /** The order's total as it will be written (the lines less a promo code's discount). */
    total: z.number().int(),
    /** Paid by a gift voucher (0 without one): first, before the card. */
    voucher: z.number().int(),
    /** Charged online now (the deposit of what the voucher leaves, or all of it). */
    pay_now: z.number().int(),
    /** Left to pay: on site, or by `due_on`. */
    rest: z.number().int(),
    /** The balance's due date (the organisation's local date), or null: on site (or nothing left). */
    due_on: z.string().nullable(),
    currency: z.string(),
  })
  .meta({ id: 'OnlineAmount' });
export type TOnlineAmount = z.infer<typeof ZOnlineAmount>;

/** The customer's "Pay the rest": the address of a new payment link for the order's balance (GET /pay/{token}). */
export const ZWebPayRest = z.object({ url: z.string() }).meta({ id: 'WebPayRest' });
export type TWebPayRest = z.infer<typeof ZWebPayRest>;

/** What the store asks for the amount to pay online: the cart's lines (else those held) and a promo code. */
export const ZOnlineAmountQuery = z.object({
  lines: z.array(z.uuid()).max(50).optional(),
  promo_code: z.string().trim().min(1).max(40).optional(),
  /** A gift voucher the customer spends (and how much of it; absent: as much as the order takes). */
  ...voucherFields,
});
