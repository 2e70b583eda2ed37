import type { TErrorItem } from '@tourdesk/contracts';
import { createTranslate, LANGUAGES, type Language, type ParsedCatalog, type Translate } from '@tourdesk/contracts/i18n';
import type { StoreKey } from '@tourdesk/contracts/i18n/catalogs';
import { createContext, useContext } from 'react';

/**
 * The store's words come from its catalog (packages/contracts/src/i18n/catalogs/store/), in the
 * page's language: the server puts that one catalog in the document already parsed
 * (<script type="application/json" id="td-messages">, parseCatalog()), and the browser formats it
 * with FormatJS without its parser (vite.config.ts swaps it for the no-parser stub). Components
 * take the translate function from React context (useT()), never from a module: the server draws
 * several pages, in several languages, at once. Helpers that format (dates, money, countries)
 * take it, or its locale, as an argument.
 */
export type T = Translate<StoreKey>;
export type { StoreKey };
export const MESSAGES_ELEMENT_ID = 'td-messages';

/**
 * The pseudo-locale's tag: the store in the pseudo catalog (every letter accented), served only when
 * the server's STORE_PSEUDO_LOCALE=1, so translators and developers see what is not translated.
 */
export const PSEUDO_LOCALE = 'en-XA';

/** A page's language as its address names it: one of LANGUAGES, or the pseudo-locale. */
export type PageLanguage = Language | typeof PSEUDO_LOCALE;

/** The translate function of a parsed catalog (complete for its language: the catalog check holds every language to English's keys). */
export function translator(language: PageLanguage, messages: ParsedCatalog<StoreKey> | Record<StoreKey, string>): T {
  return createTranslate<StoreKey>(language === PSEUDO_LOCALE ? 'en' : language, messages, messages);
}

export const TCtx = createContext<T | null>(null);

export function useT(): T {
  const t = useContext(TCtx);
  if (!t) throw new Error('useT outside the store');
  return t;
}

export const isPageLanguage = (value: string): value is PageLanguage => value === PSEUDO_LOCALE || (LANGUAGES as readonly string[]).includes(value);

/** The store's address in a language: the organisation's first at /s/{slug}/, each other at /s/{slug}/{lang}/. */
export const basePath = (slug: string, language: PageLanguage, defaultLanguage: Language) =>
  language === defaultLanguage ? `/s/${slug}/` : `/s/${slug}/${language}/`;

/** What the customer reads for one error of the API's envelope (its detail is the spec's English): by its code, where the store knows it. */
export function errorItemText(t: T, item: TErrorItem): string {
  const attr = item.attr ?? '';
  switch (item.code) {
    case 'network':
      return t('networkError');
    case 'promo_unknown':
      return t('promoUnknown');
    case 'promo_expired':
      return t('promoExpired');
    case 'promo_not_yet_valid':
      return t('promoNotYetValid');
    case 'promo_not_for_offer':
      return t('promoNotForOffer');
    case 'promo_departure':
      return t('promoDeparture');
    case 'promo_minimum':
      return t('promoMinimum');
    case 'promo_used_up':
      return t('promoUsedUp');
    case 'promo_used_by_customer':
      return t('promoUsedByCustomer');
    case 'promo_not_for_store':
      return t('promoNotForStore');
    case 'voucher_unknown':
    case 'voucher_currency':
      return t('voucherUnknown');
    case 'voucher_expired':
      return t('voucherExpired');
    case 'voucher_cancelled':
      return t('voucherCancelled');
    case 'voucher_used_up':
      return t('voucherUsedUp');
    case 'sold_out':
      return t('errorSoldOut');
    case 'hold_expired':
      return t('errorHoldExpired');
    case 'throttled':
      return t('errorThrottled');
    case 'challenge_required':
      return t('errorChallenge');
    case 'lock_timeout':
    case 'service_unavailable':
      return t('errorBusy');
    case 'not_found':
      return attr === '' && /cart/i.test(item.detail) ? t('errorCartNotFound') : t('errorNotFound');
    case 'conflict':
      if (attr === 'quantities') return t('errorSeatCap');
      if (attr === 'slot') return t('errorOtherSeller');
      // A waiting list: this e-mail is already on it; the seats asked for are free after all.
      if (attr === 'email') return t('waitlistAlready');
      if (attr === 'seats') return t('waitlistSeatsFree');
      if (/paid/i.test(item.detail)) return t('errorPaid');
      return t('genericError');
    case 'invalid':
    case 'required':
      if (attr === 'customer.email' || attr === 'email' || attr === 'buyer_email' || attr === 'recipient_email') return t('invalidEmail');
      if (attr === 'voucher_code') return t('voucherPayOnSite');
      if (attr === 'amount') return t('voucherAmountMissing');
      if (attr === 'deliver_on') return t('voucherDeliverOnPast');
      if (attr === 'buyer_name') return t('fieldRequired');
      if (attr === 'accept_terms') return t('termsRequired');
      if (attr === 'payment_option') return t('errorPaymentOption');
      if (attr.startsWith('customer.') || attr.startsWith('answers.')) return t('fieldRequired');
      return t('genericError');
    default:
      return t('genericError');
  }
}

/** The first error of a failed call, as the customer reads it. */
export const errorText = (t: T, error: unknown) => {
  const first = (error as { errors?: TErrorItem[] } | null)?.errors?.[0];
  return first ? errorItemText(t, first) : t('genericError');
};
