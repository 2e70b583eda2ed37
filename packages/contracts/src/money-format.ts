/**
 * Money travels as integer minor units with an ISO 4217 currency code; the currency's own
 * number of decimals (its minor unit: EUR 2, JPY 0, KWD 3) comes from Intl, the same data the
 * browser and Node.js format with. These helpers are the only place that converts between minor
 * units and what people read and type, in the API, its PDFs and CSV, the web app and the web store.
 * This file imports nothing, so the web store's bundle takes it without zod
 * (`@tourdesk/contracts/money-format`).
 */

const digitsCache = new Map<string, number>();
/** The currency's decimals: EUR 2, JPY 0, KWD 3. */
export function fractionDigits(currency: string) {
  let digits = digitsCache.get(currency);
  if (digits === undefined) {
    digits = new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
    digitsCache.set(currency, digits);
  }
  return digits;
}

/** 4990 CHF → "CHF 49.90" (or "CHF\u00a049.90" by locale); '—' for no amount. `code` shows "EUR 12.00" instead of "€12.00". */
export function formatMoney(minor: number | null | undefined, currency: string, locale = 'en', display: 'symbol' | 'code' = 'symbol') {
  if (minor === null || minor === undefined) return '—';
  const digits = fractionDigits(currency);
  return new Intl.NumberFormat(locale, { style: 'currency', currency, currencyDisplay: display, minimumFractionDigits: digits, maximumFractionDigits: digits }).format(minor / 10 ** digits);
}

/**
 * An amount as text in documents, e-mails and the API's messages: "EUR 12.00", "JPY 500" — the
 * currency's code and a plain space, the same on every server whatever its ICU (no symbol to
 * confuse $ with another dollar, nothing a PDF's standard fonts cannot draw). A customer's
 * document gives its language's locale: "12,00 EUR" (de-DE), "1 234,50 EUR" (fr-FR).
 */
export const moneyText = (minor: number, currency: string, locale = 'en-US') => formatMoney(minor, currency, locale, 'code').replace(/[\u00a0\u202f]/g, ' ');

/**
 * The amount as a plain decimal number with the currency's decimals, worked out on the integer
 * (no floating point): -1250 EUR → "-12.50", 500 JPY → "500", 1234 KWD → "1.234". What CSV and
 * form fields hold.
 */
export function toMajorText(minor: number, currency: string) {
  const digits = fractionDigits(currency);
  const sign = minor < 0 ? '-' : '';
  const abs = String(Math.abs(Math.trunc(minor)));
  if (digits === 0) return sign + abs;
  const padded = abs.padStart(digits + 1, '0');
  return `${sign}${padded.slice(0, -digits)}.${padded.slice(-digits)}`;
}

export const toMajorUnits = (minor: number, currency: string) => minor / 10 ** fractionDigits(currency);

/** "49.90" → 4990 (CHF); null for text that is not an amount or has more decimals than the currency. */
export function toMinorUnits(major: number | string, currency: string): number | null {
  const text = String(major).trim().replace(',', '.');
  if (!/^\d+(\.\d+)?$/.test(text)) return null;
  const digits = fractionDigits(currency);
  const [whole, fraction = ''] = text.split('.');
  if (fraction.length > digits) return null;
  return Number(whole) * 10 ** digits + Number(fraction.padEnd(digits, '0') || 0);
}

/** A minor-unit amount moved to another currency's decimals, keeping what people read: 4900 EUR (49.00) → 49 JPY. */
export const rescaleMinor = (minor: number, from: string, to: string) => Math.round(minor * 10 ** (fractionDigits(to) - fractionDigits(from)));
