/**
 * Rates travel as integer basis points (VAT 810 = 8.1 %, a commission 1000 = 10 %); people read and
 * type percentages. The one conversion both ways, and the one way to write a rate, for the back
 * office, the web store (@tourdesk/contracts/percent), the API's documents and CSV.
 */

/** 810 → 8.1: the percentage people type. */
export const bpToPercent = (bp: number) => bp / 100;

/** 7.7 → 770; rounding absorbs float noise (7.7 × 100 = 770.0000000000001). */
export const percentToBp = (percent: number) => Math.round(percent * 100);

const numbers = new Map<string, Intl.NumberFormat>();
const numberFormat = (locale: string, options: Intl.NumberFormatOptions) => {
  const key = locale + JSON.stringify(options);
  let f = numbers.get(key);
  if (!f) numbers.set(key, (f = new Intl.NumberFormat(locale, options)));
  return f;
};

/**
 * A rate as people read it, up to two decimals, none when whole, in `locale`'s decimal mark:
 * 810 → "8.1 %" ("8,1 %" in German), 1000 → "10 %". With sign 'locale', the locale's own percent
 * sign and spacing, as customers' documents and the web store write it: "8.1%", "8,1 %".
 */
export const formatBp = (bp: number, locale = 'en', sign: 'spaced' | 'locale' = 'spaced') =>
  sign === 'locale'
    ? numberFormat(locale, { style: 'percent', maximumFractionDigits: 2 }).format(bp / 10000)
    : `${numberFormat(locale, { maximumFractionDigits: 2, useGrouping: false }).format(bpToPercent(bp))} %`;

/**
 * A rate as a plain number for CSV, exact (integer arithmetic, no locale): 810 → "8.1", 1900 → "19";
 * with `places` 2, always two decimals: "8.10", "19.00".
 */
export function bpToPercentText(bp: number, places?: 2) {
  const sign = bp < 0 ? '-' : '';
  const whole = Math.floor(Math.abs(bp) / 100);
  const rest = String(Math.abs(bp) % 100).padStart(2, '0');
  const decimals = places === 2 ? rest : rest.replace(/0+$/, '');
  return `${sign}${whole}${decimals ? `.${decimals}` : ''}`;
}

/** A share as a fraction, 0.125 → "12.5 %" (one decimal at most). */
export const formatFraction = (fraction: number) => `${(fraction * 100).toLocaleString('en', { maximumFractionDigits: 1 })} %`;
