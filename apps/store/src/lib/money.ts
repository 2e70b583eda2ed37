import { LOCALE } from '../texts';

/**
 * Money arrives as integer minor units with an ISO currency. The same logic as formatMoney in
 * packages/contracts/src/money.ts (copied: that file imports zod, which this bundle must not carry):
 * the currency's own decimals (EUR 2, JPY 0, KWD 3) come from Intl.
 */
const digitsCache = new Map<string, number>();
export function fractionDigits(currency: string) {
  let digits = digitsCache.get(currency);
  if (digits === undefined) {
    digits = new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
    digitsCache.set(currency, digits);
  }
  return digits;
}

const formatters = new Map<string, Intl.NumberFormat>();
/** 4990 CHF → "CHF 49.90"; '—' for no amount. */
export function formatMoney(minor: number | null | undefined, currency: string, locale: string = LOCALE) {
  if (minor === null || minor === undefined) return '—';
  const key = `${locale}|${currency}`;
  let f = formatters.get(key);
  if (!f) {
    const digits = fractionDigits(currency);
    f = new Intl.NumberFormat(locale, { style: 'currency', currency, minimumFractionDigits: digits, maximumFractionDigits: digits });
    formatters.set(key, f);
  }
  return f.format(minor / 10 ** fractionDigits(currency));
}
