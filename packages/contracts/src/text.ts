import { z } from 'zod';

/**
 * What no request may carry, checked once for every string of every body, query and path (the
 * API's preValidation hook calls `unsafeText()`): the NUL character, which PostgreSQL text cannot
 * hold, and unpaired UTF-16 surrogates, which have no UTF-8 form. And dates in years PostgreSQL
 * and people use: 0001 to 9999.
 */
// eslint-disable-next-line no-control-regex -- finding the NUL character is the point
const UNSAFE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
export const UNSAFE_TEXT_DETAIL = 'Text cannot contain the NUL character or unpaired UTF-16 surrogates.';

/** The path (dotted, like an error's `attr`) of the first string in `value` that cannot be stored, or null. */
export function unsafeText(value: unknown, path: string[] = []): string | null {
  if (typeof value === 'string') return UNSAFE.test(value) ? path.join('.') || '' : null;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = unsafeText(value[i], [...path, String(i)]);
      if (found !== null) return found;
    }
    return null;
  }
  if (value && typeof value === 'object') {
    for (const [key, inner] of Object.entries(value)) {
      if (UNSAFE.test(key)) return [...path, key].join('.');
      const found = unsafeText(inner, [...path, key]);
      if (found !== null) return found;
    }
  }
  return null;
}

const yearOk = (iso: string) => {
  const year = Number(iso.slice(0, 4));
  return year >= 1 && year <= 9999;
};
/** A calendar date, YYYY-MM-DD, in years 0001–9999. */
export const ZDate = z.iso.date({ error: 'Use a date in YYYY-MM-DD format.' }).refine(yearOk, { error: 'Use a date between the years 1 and 9999.' });
/** An instant, ISO 8601 with an offset or Z, in years 0001–9999. */
export const ZDateTime = z.iso.datetime({ offset: true, error: 'Use a date and time in ISO 8601 format.' }).refine(yearOk, { error: 'Use a date between the years 1 and 9999.' });

/**
 * The formatting an offer's long description keeps (rich text): the server's sanitizer allows these
 * tags only, and the back office's editor cuts pasted HTML down to them, so what it shows is stored.
 * Links keep `href` (http, https, mailto); the server adds `target` and `rel`.
 */
export const RICH_TEXT_TAGS = ['p', 'br', 'strong', 'b', 'em', 'i', 'u', 's', 'a', 'ul', 'ol', 'li', 'h2', 'h3', 'h4', 'blockquote'];

/** What a refused address says (issue 29: an address an operator sets is http(s) only). */
export const HTTP_URL_DETAIL = 'Enter a full address starting with https:// (or http://).';
/**
 * An address an operator sets that a page links to (a store's terms, a video): http or https only,
 * never javascript:, data: or another scheme a browser would run or open.
 */
export const ZHttpUrl = (error: string = HTTP_URL_DETAIL) => z.url({ protocol: /^https?$/, error });

// httpUrl() (what a page checks before it links to an address) is in ./http-url, which the web store imports without zod.
export { httpUrl } from './http-url';
