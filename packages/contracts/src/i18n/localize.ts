import type { Language } from './languages';

/**
 * A row's texts per language (issue 30): `{ de: { title: '…' }, fr: { … } }`, each language with
 * only the fields it translates. The row's own fields are its organisation's main language.
 */
export type Translations<T> = Partial<Record<Language, Partial<T>>>;

/** Whether a translated value says something: a non-blank text, a non-empty list. */
export const hasText = (value: unknown) => (Array.isArray(value) ? value.length > 0 : typeof value === 'string' ? value.trim() !== '' : value !== undefined && value !== null);

/**
 * THE rule for serving offer content in a language (web store, OCTO, e-mails, documents): field by
 * field, the value in `language`, else in `fallback` (the organisation's first language, when it
 * has a text of its own there), else the row's own column. Only fields the row has are replaced;
 * the answer is the row without its `translations`.
 */
export function localize<T extends object>(row: T & { translations?: Translations<Partial<T>> | null }, language: Language, fallback: Language): Omit<T, 'translations'> {
  const { translations, ...base } = row as T & { translations?: Translations<Record<string, unknown>> | null };
  const out = base as Record<string, unknown>;
  const wanted = translations?.[language] ?? {};
  const spare = translations?.[fallback] ?? {};
  for (const field of new Set([...Object.keys(wanted), ...Object.keys(spare)])) {
    if (!(field in out)) continue;
    const value = hasText(wanted[field]) ? wanted[field] : hasText(spare[field]) ? spare[field] : undefined;
    if (value !== undefined) out[field] = value;
  }
  return out as Omit<T, 'translations'>;
}

/** The fields of `fields` that say something in the row's own language but nothing in `language`'s translation (the editor's "missing" marker). */
export function missingTranslations<T extends object, K extends keyof T & string>(row: T, translations: Translations<Partial<T>> | null | undefined, language: Language, fields: readonly K[]): K[] {
  const t = (translations?.[language] ?? {}) as Partial<T>;
  return fields.filter((f) => hasText(row[f]) && !hasText(t[f]));
}
