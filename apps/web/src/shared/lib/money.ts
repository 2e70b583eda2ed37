/**
 * Money travels as integer minor units with an ISO currency code. The conversions live in the
 * shared contracts (the API's PDFs and CSV use the same ones); this re-exports them for the app.
 */
import { formatMoney as formatMoneyIn } from '@tourdesk/contracts';
import { currentLanguage, currentLocale } from '../i18n/language';

export { fractionDigits, toMajorText, toMajorUnits, toMinorUnits } from '@tourdesk/contracts';

/**
 * An amount for the screen, in the user's language's locale ("CHF 12.50" in English as before,
 * "12,50 CHF" in German); `locale` overrides it.
 */
export const formatMoney = (minor: number | null | undefined, currency: string, locale?: string, display: 'symbol' | 'code' = 'symbol') =>
  formatMoneyIn(minor, currency, locale ?? (currentLanguage() === 'en' ? 'en' : currentLocale()), display);

/** A VAT rate in basis points as people read it: 810 → "8.1 %" (the contracts' formatBp). */
export { formatBp as vatRate } from '@tourdesk/contracts';
