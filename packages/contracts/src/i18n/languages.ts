/**
 * The languages customers are served in (the web store, e-mails, tickets, documents, OCTO) and,
 * for English and German, the back office. An organisation sells in some of them; its first is
 * the fallback of every translated text.
 */
export const LANGUAGES = ['en', 'de', 'fr', 'it', 'es'] as const;
export type Language = (typeof LANGUAGES)[number];

/** The back office's languages (a user's profile, else the browser's). */
export const BACK_OFFICE_LANGUAGES = ['en', 'de'] as const satisfies readonly Language[];
export type BackOfficeLanguage = (typeof BACK_OFFICE_LANGUAGES)[number];

/** Each language in its own words (a language switch shows these). */
export const LANGUAGE_NAMES: Record<Language, string> = { en: 'English', de: 'Deutsch', fr: 'Français', it: 'Italiano', es: 'Español' };

/** The locale Intl formats dates, numbers and money in for each language. */
export const LANGUAGE_LOCALES: Record<Language, string> = { en: 'en-GB', de: 'de-DE', fr: 'fr-FR', it: 'it-IT', es: 'es-ES' };

export const isLanguage = (value: unknown): value is Language => typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);

/**
 * The language to serve from an Accept-Language header (RFC 9110: tags with q weights), among
 * `available` (the organisation's, its first the fallback): the first acceptable language by
 * weight, a region matching its language ("de-CH" is "de"), else `available[0]`.
 */
export function negotiateLanguage<L extends Language>(header: string | null | undefined, available: readonly L[]): L {
  const fallback = available[0]!;
  if (!header) return fallback;
  const wanted = header
    .split(',')
    .map((part, index) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
      const weight = q ? Number(q.slice(2)) : 1;
      return { tag: tag.trim().toLowerCase(), weight: Number.isFinite(weight) ? weight : 0, index };
    })
    .filter((w) => w.tag && w.weight > 0)
    .sort((a, b) => b.weight - a.weight || a.index - b.index);
  for (const { tag } of wanted) {
    if (tag === '*') return fallback;
    const language = tag.split('-')[0]!;
    const found = available.find((l) => l === language);
    if (found) return found;
  }
  return fallback;
}

/** The language a request asked for, when it is one of `available`; else null (no fallback here). */
export const pickLanguage = <L extends Language>(value: unknown, available: readonly L[]): L | null =>
  typeof value === 'string' && (available as readonly string[]).includes(value) ? (value as L) : null;
