import type { TWebCart, TWebStore } from '@tourdesk/contracts';
import type { Language } from '@tourdesk/contracts/i18n';
import type { PageLanguage } from './i18n';
import { createContext, useContext } from 'react';
import type { Api } from './lib/api';

export type ToastKind = 'success' | 'error' | 'info';

export interface StoreCtx {
  slug: string;
  /** The store's base path, "/s/{slug}/". */
  base: string;
  /** The organisation's origin ("https://demo.example.com"): canonical links and link previews. */
  origin: string;
  api: Api;
  store: TWebStore;
  /** The page's language (its address's) and the organisation's languages, its first the default. */
  language: PageLanguage;
  languages: Language[];
  /** The organisation's 12-hour clock (else 24-hour): every time the store shows follows it. */
  hour12: boolean;
  /** A path of the store ("offers/…") in another language: the switch and the hreflang links. */
  inLanguage: (language: PageLanguage, path: string) => string;
  /** Shown in a frame on another site (?embed=1): no header or footer, the frame told our height. */
  embed: boolean;
  /** The address's query (?date=, ?month= of an offer page), as drawn now. */
  search: URLSearchParams;
  /** Replaces the query in place (no new history entry, no scroll): the offer's chosen day and month. */
  setSearch: (params: URLSearchParams) => void;
  /** A path of the store ("offers/…") as a link (keeps ?embed=1 in a frame). */
  link: (path: string) => string;
  navigate: (path: string, options?: { replace?: boolean }) => void;
  cart: TWebCart | null;
  setCart: (cart: TWebCart | null) => void;
  refreshCart: () => Promise<TWebCart | null>;
  toast: (kind: ToastKind, text: string) => void;
  /** True once after a navigation: the page's heading takes the focus. */
  takeFocus: () => boolean;
}

export const Ctx = createContext<StoreCtx | null>(null);

export function useStore(): StoreCtx {
  const ctx = useContext(Ctx);
  if (!ctx) throw new Error('useStore outside the store');
  return ctx;
}

/**
 * What the server read for the page it drew (lib/preload.ts), by key; a component takes its entry
 * once it has drawn with it. Empty on a page the server did not draw.
 */
export const PreloadCtx = createContext<Map<string, unknown>>(new Map());
