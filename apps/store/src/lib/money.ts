import { fractionDigits, formatMoney as formatIn } from '@tourdesk/contracts/money-format';
import { LOCALE } from '../texts';

/**
 * Money arrives as integer minor units with an ISO currency; the one conversion of the whole
 * product (packages/contracts/src/money-format.ts, which imports nothing, so no zod comes into
 * this bundle), in the store's locale: 4990 CHF → "CHF 49.90", '—' for no amount.
 */
export { fractionDigits };
export const formatMoney = (minor: number | null | undefined, currency: string, locale: string = LOCALE) => formatIn(minor, currency, locale);
