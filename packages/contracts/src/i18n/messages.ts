import { IntlMessageFormat } from 'intl-messageformat';
import type { MessageFormatElement } from '@formatjs/icu-messageformat-parser';
import { LANGUAGE_LOCALES, type Language } from './languages';

/**
 * Messages in ICU MessageFormat, formatted by FormatJS's intl-messageformat: the same library on
 * the server (e-mails, documents, the store's first drawing) and in the browser (the store).
 * A catalog is one object per language; English's keys are the contract (a catalog of another
 * language `satisfies Record<keyof English, string>`, so a missing message fails the typecheck,
 * and catalogs.test.ts checks each parses with English's arguments).
 *
 * The browser gets a catalog already parsed (`parseCatalog`, on the server): the store's bundle
 * swaps FormatJS's parser for its no-parser stub (apps/store/vite.config.ts).
 */
export type Catalog<K extends string = string> = Record<K, string>;
/** A catalog parsed to FormatJS's message ASTs (what the store's document carries). */
export type ParsedCatalog<K extends string = string> = Record<K, MessageFormatElement[]>;
export type MessageValues = Record<string, string | number | Date | null | undefined>;

export interface Translate<K extends string = string> {
  (key: K, values?: MessageValues): string;
  readonly language: Language;
  /** The locale for Intl (dates, numbers, money). */
  readonly locale: string;
}

/**
 * A translate function for `language` over `messages`, falling back message by message to
 * `fallback` (English's). Each message is compiled once, when first used.
 */
export function createTranslate<K extends string>(
  language: Language,
  messages: Partial<Record<K, string | MessageFormatElement[]>>,
  fallback: Record<K, string | MessageFormatElement[]>,
): Translate<K> {
  const locale = LANGUAGE_LOCALES[language];
  const compiled = new Map<K, IntlMessageFormat>();
  const format = (key: K, values?: MessageValues) => {
    let message = compiled.get(key);
    if (!message) {
      const own = messages[key];
      const source = own ?? fallback[key];
      if (source === undefined) return key;
      message = new IntlMessageFormat(source, own === undefined ? LANGUAGE_LOCALES.en : locale, undefined, { ignoreTag: true });
      compiled.set(key, message);
    }
    const out = message.format(values as Record<string, string | number | Date>);
    return Array.isArray(out) ? out.join('') : String(out);
  };
  return Object.assign(format, { language, locale });
}

/** Parses every message of a catalog (server side) for a browser that has no parser. */
export function parseCatalog<K extends string>(catalog: Catalog<K>): ParsedCatalog<K> {
  const out = {} as ParsedCatalog<K>;
  for (const key of Object.keys(catalog) as K[]) {
    out[key] = new IntlMessageFormat(catalog[key], 'en', undefined, { ignoreTag: true }).getAst();
  }
  return out;
}
