import { formatMoney, moneyText, type TTimeFormat } from '@tourdesk/contracts';
import { dateTimeText, dayText } from '@tourdesk/contracts/date-format';
import { formatBp } from '@tourdesk/contracts/percent';
import { createTranslate, isLanguage, type Language, type Translate } from '@tourdesk/contracts/i18n';
import { CUSTOMER_CATALOGS, type CustomerKey } from '@tourdesk/contracts/i18n/catalogs';

/**
 * What a customer receives about an order, in the order's language (orders.language, chosen in the
 * web store; 'en' for an order sold at the counter or by a partner unless set): its e-mails
 * (order-mail), its tickets, order confirmation and calendar file (orders/tickets.ts), its invoices
 * and credit notes (orders/invoices.ts, in the language each was issued in) and the note that a late
 * payment was refunded (payments/online.ts). One catalog (packages/contracts/src/i18n/catalogs/customer)
 * and one way to write a time, a date, money and a rate in the language's locale (LANGUAGE_LOCALES).
 */
export type CustomerTranslate = Translate<CustomerKey>;

const translates = new Map<Language, CustomerTranslate>();

/** The customer texts in `language` (an order's or an invoice's), English for a value that is no language. */
export function translateFor(language: string | null | undefined): CustomerTranslate {
  const lang: Language = isLanguage(language) ? language : 'en';
  let t = translates.get(lang);
  if (!t) translates.set(lang, (t = createTranslate<CustomerKey>(lang, CUSTOMER_CATALOGS[lang], CUSTOMER_CATALOGS.en)));
  return t;
}

/**
 * The local date and time of an instant in the offer's zone, in the customer's locale and the
 * organisation's 12/24-hour setting: "Tuesday, 1 December 2026 at 09:30", "Dienstag, 1. Dezember
 * 2026 um 09:30", "martedì 1 dicembre 2026 alle ore 9:30 PM" in 12-hour time (the contracts' dateTimeText()).
 */
export const localWhen = (t: Pick<CustomerTranslate, 'locale'>, iso: string, zone: string, format: TTimeFormat = '24h') => dateTimeText(iso, zone, format, t.locale);

/** A calendar date ("2026-11-27", a local day) in the customer's locale: "27 November 2026", "27. November 2026", "27 de noviembre de 2026". */
export const localDate = (t: Pick<CustomerTranslate, 'locale'>, day: string) => dayText(day, t.locale);

/** Money in an e-mail, with the currency's symbol where the locale has one: "€12.50", "12,50 €", "CHF 49.90". */
export const mailMoney = (t: Pick<CustomerTranslate, 'locale'>, minor: number, currency: string) => formatMoney(minor, currency, t.locale);

/** Money in a PDF, with the currency's code (moneyText()): "EUR 12.50", "12,50 EUR", "1 234,50 EUR". */
export const documentMoney = (t: Pick<CustomerTranslate, 'locale'>, minor: number, currency: string) => moneyText(minor, currency, t.locale);

/** A VAT rate in basis points as a percentage in the locale: 1250 → "12.5%", "12,5 %". */
export const vatRate = (t: Pick<CustomerTranslate, 'locale'>, bp: number) => formatBp(bp, t.locale, 'locale').replace(/[\u00a0\u202f]/g, ' ');
