import { de } from './de';
import { en } from './en';
import { es } from './es';
import { fr } from './fr';
import { it } from './it';

export type { StoreKey } from './en';
/** The web store's catalogs by language (apps/store: the server embeds the page's one, parsed). */
export const STORE_CATALOGS = { en, de, fr, it, es };
