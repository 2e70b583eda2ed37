import { dayText } from '@tourdesk/contracts/date-format';
import { createTranslate, isLanguage, type Language, type Translate } from '@tourdesk/contracts/i18n';
import type { CustomerKey } from '@tourdesk/contracts/i18n/catalogs/customer/en';
import { en } from '@tourdesk/contracts/i18n/catalogs/customer/en';
import { useEffect, useState } from 'react';

/**
 * The words of an issued invoice or credit note, in the language it was issued in (invoice.language),
 * from the customer catalogs its PDF is drawn from (packages/contracts/src/i18n/catalogs/customer,
 * the API's translateFor()): the sheet on screen reads as the PDF the customer got, whatever the
 * user's own language. The catalogs arrive parsed (vite-catalogs.ts). English is in the orders
 * page's chunk (it is also every message's fallback); each other language is its own chunk, fetched
 * when a document in it is first shown.
 */
export type InvoiceTranslate = Translate<CustomerKey>;
type Messages = Partial<Record<CustomerKey, string>>;

const LOADERS: Record<Exclude<Language, 'en'>, () => Promise<Messages>> = {
  de: () => import('@tourdesk/contracts/i18n/catalogs/customer/de').then((m) => m.de),
  fr: () => import('@tourdesk/contracts/i18n/catalogs/customer/fr').then((m) => m.fr),
  it: () => import('@tourdesk/contracts/i18n/catalogs/customer/it').then((m) => m.it),
  es: () => import('@tourdesk/contracts/i18n/catalogs/customer/es').then((m) => m.es),
};

const made = new Map<Language, InvoiceTranslate>();
const make = (language: Language, messages: Messages) => {
  const t = createTranslate<CustomerKey>(language, messages, en);
  made.set(language, t);
  return t;
};

/** The translate function of `language` ('en' for a value that is no language), loading its catalog first. */
export function loadInvoiceTexts(language: string): Promise<InvoiceTranslate> {
  const lang: Language = isLanguage(language) ? language : 'en';
  const known = made.get(lang);
  if (known) return Promise.resolve(known);
  if (lang === 'en') return Promise.resolve(make('en', en));
  return LOADERS[lang]().then((messages) => made.get(lang) ?? make(lang, messages));
}

/** The document's words in `language`; null while its catalog loads (English never waits). */
export function useInvoiceT(language: string): InvoiceTranslate | null {
  const lang: Language = isLanguage(language) ? language : 'en';
  const [loaded, setLoaded] = useState<InvoiceTranslate | null>(() => made.get(lang) ?? (lang === 'en' ? make('en', en) : null));
  useEffect(() => {
    let live = true;
    // A translate function is a function: given as is, setState would call it as an updater.
    void loadInvoiceTexts(lang).then((t) => live && setLoaded(() => t));
    return () => {
      live = false;
    };
  }, [lang]);
  return loaded?.language === lang ? loaded : null;
}

/** A local day ("2026-11-27") as the PDF writes it: "27 November 2026", "27. November 2026". */
export const documentDate = (t: Pick<InvoiceTranslate, 'locale'>, day: string) => dayText(day, t.locale);
