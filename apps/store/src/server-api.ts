/**
 * What the API server imports from the web store (`@tourdesk/store/server`): one function that
 * draws a store page to HTML with React, asking the server for the data the page shows. Types
 * only, with no JSX or DOM in them, so the API type-checks against this file; server.tsx
 * implements it (and `tsc -p apps/store` holds it to this shape).
 */
import type { Readable } from 'node:stream';
import type { TWebDay, TWebMonth, TWebOffer, TWebOfferSummary, TWebStore } from '@tourdesk/contracts';
import type { Language } from '@tourdesk/contracts/i18n';

/** The store's built files for the document: its entry script, the chunks it imports, its styles. */
export interface StoreAssets {
  script: string | null;
  modules: string[];
  styles: string[];
}

/** The data a page may show, read by the server in the books of the organisation that sells it. */
export interface StoreData {
  /** The store of this host and address; null when there is none (the page says it is closed). */
  store(): Promise<TWebStore | null>;
  /** A page of the store's offers (50 a page, as the browser asks). */
  offers(page: number): Promise<{ results: TWebOfferSummary[]; total_pages: number }>;
  /** An offer the store sells; null when it sells no such offer. */
  offer(id: string): Promise<TWebOffer | null>;
  month(offer: string, month: string): Promise<TWebMonth>;
  day(offer: string, date: string): Promise<TWebDay>;
}

export interface StorePageRequest {
  /** The request's path and query ("/s/kayak/offers/…?date=2026-12-03"). */
  url: string;
  slug: string;
  /**
   * The page's language, as its address names it: one of `languages`, or the pseudo-locale
   * ('en-XA', where the server allows it). The server decides it (redirects, 404) before drawing.
   */
  language: Language | 'en-XA';
  /** The languages the organisation sells in, its first the default (at /s/{slug}/; each other at /s/{slug}/{lang}/). */
  languages: Language[];
  /** The organisation's 12/24-hour setting: the store's times follow it. */
  timeFormat: '24h' | '12h';
  /** The organisation's origin, for canonical links, link previews and JSON-LD. */
  origin: string;
  assets: StoreAssets;
  data: StoreData;
}

export interface RenderedStorePage {
  /** 200, or 404 for a store, offer or page that does not exist. */
  status: number;
  /** The whole HTML document. */
  html: Readable;
}

export type RenderStorePage = (request: StorePageRequest) => Promise<RenderedStorePage>;

export declare const renderStorePage: RenderStorePage;
