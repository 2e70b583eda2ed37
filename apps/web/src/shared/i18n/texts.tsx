import { createTranslate, type BackOfficeLanguage, type Translate } from '@tourdesk/contracts/i18n';
import { createContext, useContext, useMemo, useSyncExternalStore, type ReactNode } from 'react';
import { catalogOf, currentLanguage, languageVersion, loadLate, registerCatalog, subscribeLanguage, type Parsed } from './language';

interface LanguageState {
  language: BackOfficeLanguage;
  /** Changes when a catalog arrives, so translations made before it are made again. */
  version: number;
}
const LanguageContext = createContext<LanguageState>({ language: 'en', version: 0 });

/** Gives every component below the back office's language (language.ts), re-rendering them when it changes. */
export function LanguageProvider({ children }: { children: ReactNode }) {
  const version = useSyncExternalStore(subscribeLanguage, languageVersion, languageVersion);
  const language = currentLanguage();
  const value = useMemo(() => ({ language, version }), [language, version]);
  return <LanguageContext.Provider value={value}>{children}</LanguageContext.Provider>;
}

/** The language shown (for a component that formats dates or money itself). */
export const useLanguage = () => useContext(LanguageContext).language;

/**
 * A domain's texts: `const useT = texts('bookings', en)` in a feature's texts.ts (en imported from
 * `@tourdesk/contracts/i18n/catalogs/backoffice/bookings/en`), then `const t = useT()` in a
 * component and `t('key', { values })`. A message missing in the user's language falls back to
 * English, never to its key. `en` is typed as the catalog's source, but arrives parsed.
 */
export function texts<K extends string>(domain: string, en: Readonly<Record<K, string>>) {
  const parsedEnglish = en as unknown as Parsed;
  registerCatalog(domain, parsedEnglish);
  return function useT(): Translate<K> {
    const { language, version } = useContext(LanguageContext);
    return useMemo(() => {
      const own = catalogOf(domain, language);
      if (!own) loadLate(domain, language);
      return createTranslate<K>(language, (own ?? {}) as Record<K, never>, parsedEnglish as Record<K, never>);
      // `version`: a catalog that arrived since.
      // eslint-disable-next-line react-hooks/exhaustive-deps
    }, [language, version]);
  };
}
