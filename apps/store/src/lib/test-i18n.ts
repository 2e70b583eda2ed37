import type { Language } from '@tourdesk/contracts/i18n';
import { STORE_CATALOGS } from '@tourdesk/contracts/i18n/catalogs';
import { translator, type T } from '../i18n';

/** The store's translate function in `language` for unit tests (the tests keep FormatJS's parser; the browser's build has none). */
export const testT = (language: Language = 'en'): T => translator(language, STORE_CATALOGS[language]);
