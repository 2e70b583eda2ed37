import { fractionDigits, formatMoney as formatIn, toMajorText, toMinorUnits } from '@tourdesk/contracts/money-format';

/**
 * Money arrives as integer minor units with an ISO currency; the one conversion of the whole
 * product (packages/contracts/src/money-format.ts, which imports nothing, so no zod comes into
 * this bundle), in the page's locale (LANGUAGE_LOCALES of its language, `t.locale`):
 * 4990 CHF → "CHF 49.90" in en-GB, "49,90 CHF" in de-DE; '—' for no amount.
 */
export { fractionDigits, toMajorText, toMinorUnits };
export const formatMoney = (minor: number | null | undefined, currency: string, locale: string) => formatIn(minor, currency, locale);
