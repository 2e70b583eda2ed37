/**
 * Rates travel as integer basis points (VAT 810 = 8.1 %, a commission 1000 = 10 %); people read and
 * type percentages. The one conversion both ways, for the back office, the API's documents and CSV.
 */

/** 810 → 8.1: the percentage people type. */
export const bpToPercent = (bp: number) => bp / 100;

/** 7.7 → 770; rounding absorbs float noise (7.7 × 100 = 770.0000000000001). */
export const percentToBp = (percent: number) => Math.round(percent * 100);

/** 810 → "8.1 %" (up to two decimals, none when whole: 1000 → "10 %"). */
export const formatBp = (bp: number) => `${bpToPercent(bp).toLocaleString('en', { maximumFractionDigits: 2, useGrouping: false })} %`;

/** A share as a fraction, 0.125 → "12.5 %" (one decimal at most). */
export const formatFraction = (fraction: number) => `${(fraction * 100).toLocaleString('en', { maximumFractionDigits: 1 })} %`;
