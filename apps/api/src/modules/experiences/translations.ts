import { hasText, type Translations } from '@tourdesk/contracts/i18n';

/**
 * Writing texts per language (issue 30), for offers and what they refer to (pricing categories,
 * extras, booking questions, cancellation policies): each language given replaces that language's
 * texts, the others stay (also those of a language the organisation no longer sells in: kept, not
 * served); blank fields are not stored (the main language's text is served for them), nor a
 * language left with none. `clean` rewrites a language's texts before they are kept (the long
 * description goes through the rich-text sanitizer in every language).
 */
export function mergeTranslations<T extends object>(
  existing: Translations<T> | null | undefined,
  given: Translations<T> | undefined,
  clean: (texts: Partial<T>) => Partial<T> = (t) => t,
): Translations<T> {
  const out: Translations<T> = { ...(existing ?? {}) };
  for (const [language, texts] of Object.entries(given ?? {}) as [keyof Translations<T>, Partial<T> | undefined][]) {
    const kept = Object.fromEntries(Object.entries(clean({ ...(texts ?? {}) })).filter(([, v]) => hasText(v))) as Partial<T>;
    if (Object.keys(kept).length) out[language] = kept;
    else delete out[language];
  }
  return out;
}
