import { fractionDigits, toMajorText } from '@tourdesk/contracts';
import { AppError } from '../../lib/errors';

/**
 * Amounts at Stripe's boundary. The product keeps money in ISO 4217 minor units (Intl's decimals:
 * ISK 0, CHF 2, KWD 3); Stripe's API counts some currencies otherwise: ISK is two-decimal there
 * (5,000 ISK is 500000), and the three-decimal BHD, JOD, KWD, OMR and TND take only amounts that
 * end in 0. Every amount sent to Stripe (a session's prices, the platform's fee, a refund) goes
 * through toStripe(), every amount read back (a session's total, a charge's refunds) through
 * fromStripe(). Source: Stripe's "zero-decimal" and "three-decimal currencies" lists.
 */
const ZERO_DECIMAL = new Set(['BIF', 'CLP', 'DJF', 'GNF', 'JPY', 'KMF', 'KRW', 'MGA', 'PYG', 'RWF', 'UGX', 'VND', 'VUV', 'XAF', 'XOF', 'XPF']);
const THREE_DECIMAL = new Set(['BHD', 'JOD', 'KWD', 'OMR', 'TND']);

/** How many decimals Stripe's API counts for a currency (two unless listed). */
export const stripeDecimals = (currency: string) => {
  const c = currency.toUpperCase();
  return ZERO_DECIMAL.has(c) ? 0 : THREE_DECIMAL.has(c) ? 3 : 2;
};

/** Stripe's units per minor unit of ours (1, or 100 for ISK), and the step Stripe accepts (10 for three-decimal currencies). */
function scale(currency: string) {
  const shift = stripeDecimals(currency) - fractionDigits(currency.toUpperCase());
  if (shift < 0) throw new Error(`Stripe counts ${currency} with fewer decimals than ISO 4217: not supported.`);
  return { factor: 10 ** shift, step: THREE_DECIMAL.has(currency.toUpperCase()) ? 10 : 1 };
}

/**
 * The smallest charge Stripe takes in a currency, in our minor units: Stripe's list of minimum
 * charge amounts (in major units) for the currencies it names, else 0.50 of a two-decimal currency
 * (50 of Stripe's units, as Stripe's rule for the others).
 */
const MINIMUM_MAJOR: Record<string, number> = { AED: 2, BGN: 1, CZK: 15, DKK: 2.5, GBP: 0.3, HKD: 4, HUF: 175, JPY: 50, MXN: 10, MYR: 2, NOK: 3, PLN: 2, RON: 2, SEK: 3, THB: 10 };
export function stripeMinimum(currency: string): number {
  const c = currency.toUpperCase();
  const digits = fractionDigits(c);
  if (MINIMUM_MAJOR[c] !== undefined) return Math.round(MINIMUM_MAJOR[c]! * 10 ** digits);
  return Math.ceil((50 * 10 ** digits) / 10 ** stripeDecimals(c)) || 1;
}

/** The step (in our minor units) of an amount Stripe accepts: 10 for three-decimal currencies, else 1. */
export function stripeStep(currency: string) {
  const { step, factor } = scale(currency);
  return Math.max(1, step / factor);
}

/** An amount in our minor units as Stripe's API takes it; refused when Stripe cannot charge it exactly. */
export function toStripe(minor: number, currency: string): number {
  const { factor, step } = scale(currency);
  const amount = minor * factor;
  if (amount % step !== 0) {
    throw new AppError('invalid', `Card payments in ${currency.toUpperCase()} take amounts in steps of ${toMajorText(step / factor, currency.toUpperCase())}: this amount can be paid on site.`);
  }
  return amount;
}

/** The platform's fee as Stripe takes it: rounded down to an amount Stripe accepts (never more than agreed). */
export function feeToStripe(minor: number, currency: string): number {
  const { factor, step } = scale(currency);
  return Math.floor((minor * factor) / step) * step;
}

/** An amount Stripe reports, in our minor units (null when it is not a whole number of them). */
export function fromStripe(amount: number, currency: string): number | null {
  const { factor } = scale(currency);
  return amount % factor === 0 ? amount / factor : null;
}
