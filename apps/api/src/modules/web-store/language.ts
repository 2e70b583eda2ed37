import { isLanguage, LANGUAGES, negotiateLanguage, type Language } from '@tourdesk/contracts/i18n';
import type { Db } from '../../db/client';
import { sellingLanguages } from '../organization/queries';
import type { FoundStore } from '../stores/scope';
import * as q from './queries';

/**
 * The store's languages: those its organisation sells in (base_account.languages, its first the
 * default). The default lives at /s/{slug}/…, every other at /s/{slug}/{lang}/…; a language the
 * organisation does not sell in is not a page. A first visit to an unprefixed address goes to its
 * browser's language (Accept-Language); once the customer has chosen (a language's address, or
 * the switch) a cookie keeps the choice, so they are never sent back against it.
 */
export async function storeLanguages(db: Db, found: Pick<FoundStore, 's'>): Promise<Language[]> {
  return sellingLanguages(db, { id: found.s.account_id });
}

/** The organisation's 12/24-hour setting: the store's times follow it in every language. */
export const storeTimeFormat = (db: Db, found: Pick<FoundStore, 's'>) => q.timeFormatOf(db, found.s.account_id);

/** The pseudo-locale's tag (apps/store/src/i18n.ts): a page in it only where STORE_PSEUDO_LOCALE=1. */
export const PSEUDO_LOCALE = 'en-XA';
/** The cookie that keeps a customer's choice of language, per store (its path). */
export const LANGUAGE_COOKIE = 'td_lang';

export type PageDecision =
  /** Draw the page: its language, the store's base path in it, and the path below it. */
  | { kind: 'page'; language: Language | typeof PSEUDO_LOCALE; base: string; choice: boolean }
  /** Send the browser to `location` (302); `remember` is a language to keep in the cookie. */
  | { kind: 'redirect'; location: string; remember: Language | null; negotiated: boolean }
  | { kind: 'not_found' };

/**
 * What an address of the store is in which language: /s/{slug}/{lang}/… of a language the store
 * sells (not its default, which is unprefixed: its prefixed address redirects there), else the
 * unprefixed address, in the default language unless the visitor's choice (cookie) or, with none,
 * their browser's (Accept-Language) is another: then a redirect to that language's address.
 * `?lang=` on an address is the switch's choice: kept in the cookie, then the address without it.
 */
export function decidePage(input: {
  slug: string;
  /** The request's path and query, as received ("/s/kayak/de/offers/…?date=…"). */
  url: string;
  languages: Language[];
  cookie: string | null;
  acceptLanguage: string | undefined;
  pseudo: boolean;
}): PageDecision {
  const { slug, languages } = input;
  const fallback = languages[0] ?? 'en';
  const root = `/s/${slug}/`;
  const q = input.url.indexOf('?');
  const pathname = q < 0 ? input.url : input.url.slice(0, q);
  const search = new URLSearchParams(q < 0 ? '' : input.url.slice(q + 1));
  const decoded = (() => {
    try {
      return decodeURIComponent(pathname);
    } catch {
      return pathname;
    }
  })();
  const rest = decoded.startsWith(root) ? decoded.slice(root.length) : '';
  const [head = '', ...tail] = rest.split('/');
  const below = tail.join('/');
  // In a frame on the operator's site the language is the site's (embed.js), not the customer's choice: nothing is remembered.
  const framed = search.get('embed') === '1';
  const query = (params: URLSearchParams) => (params.toString() ? `?${params.toString()}` : '');
  const to = (language: Language, path: string, params: URLSearchParams) => `${language === fallback ? root : `${root}${language}/`}${path}${query(params)}`;

  if (head === PSEUDO_LOCALE) return input.pseudo ? { kind: 'page', language: PSEUDO_LOCALE, base: `${root}${PSEUDO_LOCALE}/`, choice: false } : { kind: 'not_found' };
  if ((LANGUAGES as readonly string[]).includes(head)) {
    const language = head as Language;
    if (!languages.includes(language)) return { kind: 'not_found' };
    // The default language has one address, the unprefixed one.
    if (language === fallback) return { kind: 'redirect', location: to(language, below, search), remember: framed ? null : language, negotiated: false };
    return { kind: 'page', language, base: `${root}${language}/`, choice: !framed };
  }
  const asked = search.get('lang');
  if (asked !== null) {
    const without = new URLSearchParams(search);
    without.delete('lang');
    const language = isLanguage(asked) && languages.includes(asked) ? asked : null;
    return { kind: 'redirect', location: to(language ?? fallback, rest, without), remember: framed ? null : language, negotiated: false };
  }
  const chosen = isLanguage(input.cookie) && languages.includes(input.cookie) ? input.cookie : null;
  const language = chosen ?? negotiateLanguage(input.acceptLanguage, languages);
  if (language !== fallback) return { kind: 'redirect', location: to(language, rest, search), remember: null, negotiated: chosen === null };
  return { kind: 'page', language: fallback, base: root, choice: chosen !== null };
}
