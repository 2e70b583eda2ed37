import type { MessageFormatElement } from '@formatjs/icu-messageformat-parser';
import { BACK_OFFICE_LANGUAGES, LANGUAGE_LOCALES, negotiateLanguage, type BackOfficeLanguage } from '@tourdesk/contracts/i18n';

/**
 * The back office's language, outside React: which language is shown, each domain's English catalog
 * (registered by the module that uses it, see texts.ts) and the other languages' catalogs, fetched
 * only for a user who reads them. Catalogs arrive parsed (vite-catalogs.ts).
 *
 * The language is the user's (their profile, `users.language`), or when they chose none or nobody
 * is signed in, the browser's (navigator.languages negotiated among BACK_OFFICE_LANGUAGES).
 */
export type Parsed = Record<string, MessageFormatElement[]>;

/** One lazy chunk per domain and language: a German catalog is fetched only for a German user. */
const OTHER_LANGUAGES: Record<Exclude<BackOfficeLanguage, 'en'>, Record<string, () => Promise<Parsed>>> = {
  de: import.meta.glob<Parsed>('../../../../../packages/contracts/src/i18n/catalogs/backoffice/*/de.ts', { import: 'de' }),
};
const domainOf = (file: string) => file.split('/').at(-2)!;
const loaders = Object.fromEntries(
  Object.entries(OTHER_LANGUAGES).map(([language, files]) => [language, Object.fromEntries(Object.entries(files).map(([file, load]) => [domainOf(file), load]))]),
) as Record<Exclude<BackOfficeLanguage, 'en'>, Record<string, () => Promise<Parsed>>>;

const english = new Map<string, Parsed>();
const others = new Map<string, Parsed>(); // `${language}:${domain}`
const pending = new Map<string, Promise<void>>();

/** The browser's choice among the back office's languages. */
export function browserLanguage(): BackOfficeLanguage {
  const tags = typeof navigator === 'undefined' ? [] : navigator.languages?.length ? navigator.languages : [navigator.language];
  return negotiateLanguage(tags.filter(Boolean).join(','), BACK_OFFICE_LANGUAGES);
}

let current: BackOfficeLanguage = browserLanguage();
let version = 0;
const listeners = new Set<() => void>();
const changed = () => {
  version += 1;
  for (const listener of listeners) listener();
};

export const subscribeLanguage = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};
/** Changes whenever the language or a loaded catalog does (what React re-renders on). */
export const languageVersion = () => version;
export const currentLanguage = () => current;
/** The Intl locale of the language shown (dates, numbers, money). */
export const currentLocale = () => LANGUAGE_LOCALES[current];

/** Makes a domain's English catalog known (once, when the module that uses it is imported). */
export function registerCatalog(domain: string, en: Parsed) {
  english.set(domain, en);
}

/** The domain's catalog in `language`, when it is loaded (English always is, once registered). */
export function catalogOf(domain: string, language: BackOfficeLanguage): Parsed | undefined {
  return language === 'en' ? english.get(domain) : others.get(`${language}:${domain}`);
}

function loadOne(domain: string, language: BackOfficeLanguage): Promise<void> {
  if (language === 'en' || others.has(`${language}:${domain}`)) return Promise.resolve();
  const key = `${language}:${domain}`;
  const load = loaders[language]?.[domain];
  if (!load) return Promise.resolve();
  let promise = pending.get(key);
  if (!promise) {
    promise = load()
      .then((catalog) => {
        others.set(key, catalog);
      })
      // A catalog that cannot be fetched (offline, a new deployment): its texts stay English.
      .catch(() => undefined)
      .finally(() => pending.delete(key));
    pending.set(key, promise);
  }
  return promise;
}

/**
 * Fetches `language`'s catalog of every registered domain not loaded yet. A page's route awaits it
 * after importing the page (routes.tsx), so a page never shows its English first.
 */
export async function loadCatalogs(language: BackOfficeLanguage = current) {
  const missing = [...english.keys()].filter((domain) => !catalogOf(domain, language));
  if (missing.length === 0) return;
  await Promise.all(missing.map((domain) => loadOne(domain, language)));
  if (language === current) changed();
}

/** Loads one domain's catalog that was registered after its language was chosen, then re-renders. */
export function loadLate(domain: string, language: BackOfficeLanguage) {
  void loadOne(domain, language).then(() => {
    if (language === current && catalogOf(domain, language)) changed();
  });
}

let asked = 0;
/**
 * Shows the back office in `language` (null: the browser's), once the catalogs of every domain in
 * use are loaded, so the page changes at once and as a whole; `<html lang>` follows.
 */
export async function setLanguage(language: BackOfficeLanguage | null | undefined) {
  const next = language ?? browserLanguage();
  const ask = ++asked;
  await loadCatalogs(next);
  if (ask !== asked) return;
  if (typeof document !== 'undefined') document.documentElement.lang = next;
  if (next !== current) {
    current = next;
    changed();
  }
}

/**
 * The language to start in, before the session is known: the one this host's last user chose
 * (offline-session.ts keeps the user), else the browser's. The session check then applies the
 * user's own (use-session-bootstrap.ts).
 */
export function startLanguage(language: BackOfficeLanguage | null | undefined) {
  current = language ?? browserLanguage();
  if (typeof document !== 'undefined') document.documentElement.lang = current;
  void loadCatalogs(current);
}
