/**
 * Money travels as integer minor units (cents) with an ISO currency code. These helpers are the
 * only place that converts between minor units and what people read and type.
 */
export const fractionDigits = (currency: string) =>
  new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;

export function formatMoney(minor: number | null | undefined, currency: string, locale = 'en') {
  if (minor === null || minor === undefined) return '—';
  const digits = fractionDigits(currency);
  return new Intl.NumberFormat(locale, { style: 'currency', currency, minimumFractionDigits: digits }).format(minor / 10 ** digits);
}

/** "49.90" → 4990 (CHF); refuses more decimals than the currency has. */
export function toMinorUnits(major: number | string, currency: string): number | null {
  const text = String(major).trim().replace(',', '.');
  if (!/^\d+(\.\d+)?$/.test(text)) return null;
  const digits = fractionDigits(currency);
  const [whole, fraction = ''] = text.split('.');
  if (fraction.length > digits) return null;
  return Number(whole) * 10 ** digits + Number(fraction.padEnd(digits, '0') || 0);
}

export const toMajorUnits = (minor: number, currency: string) => minor / 10 ** fractionDigits(currency);

/** 4990 CHF → "49.90", 500 JPY → "500", 1234 KWD → "1.234": the amount as typed, with the currency's own decimals. */
export const toMajorText = (minor: number, currency: string) => toMajorUnits(minor, currency).toFixed(fractionDigits(currency));

/** A VAT rate in basis points as people read it: 810 → "8.1 %". */
export const vatRate = (bp: number) => `${(bp / 100).toLocaleString('en', { maximumFractionDigits: 2 })} %`;
