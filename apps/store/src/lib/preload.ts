import type { TWebDay, TWebMonth, TWebOffer, TWebOfferSummary, TWebStore } from '@tourdesk/contracts';
import type { Language } from '@tourdesk/contracts/i18n';
import type { ApiErrorItem, Page } from './api';
import { addMonths } from './calendar';

/**
 * What the server read for the page it rendered, handed to the browser in the document
 * (<script type="application/json" id="td-preload">) so that hydration draws exactly what the
 * server drew, without asking again. Each entry is taken by the component that renders it, once:
 * a later visit to the same page (client-side navigation) asks the API as usual.
 */
export const PRELOAD_ELEMENT_ID = 'td-preload';

/** An answer the server could not give (a 404 offer), kept as the API's error envelope. */
export interface PreloadedError {
  $error: { status: number; errors: ApiErrorItem[] };
}

/** The store page's offers: those drawn, and whether there are more. */
export interface OfferList {
  all: TWebOfferSummary[];
  more: boolean;
}

/** The first month an offer page shows, with the day it was computed on in the offer's zone. */
export interface FirstMonth {
  today: string;
  month: TWebMonth;
}

export interface Preload {
  slug: string;
  /** The page's language (its address's: one of the organisation's, or the pseudo-locale) and the store's base path in it. */
  language: string;
  base: string;
  /** The languages the organisation sells in, its first the default (unprefixed). */
  languages: Language[];
  /** The organisation's 12-hour clock (else 24-hour): the store's times follow it. */
  hour12: boolean;
  /** Absolute origin of the organisation's host: canonical links, Open Graph and JSON-LD. */
  origin: string;
  /** The store, or null when this host has no such store (the page says it is closed). */
  store: TWebStore | null;
  /** Keyed by preloadKey.*: each one component's data. */
  data: Record<string, unknown>;
}

export const preloadKey = {
  offers: (page: number) => `offers:${page}`,
  offer: (id: string) => `offer:${id}`,
  month: (offer: string) => `month:${offer}`,
  day: (offer: string, date: string) => `day:${offer}:${date}`,
};

export type { TWebDay, TWebMonth, TWebOffer, TWebOfferSummary, Page };

export const isPreloadedError = (v: unknown): v is PreloadedError => typeof v === 'object' && v !== null && '$error' in v;

const MONTH = /^\d{4}-(0[1-9]|1[0-2])$/;
const DATE = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/;
/** How far ahead an address may ask (a calendar goes no further): today's year + 5. */
const lastYear = (today: string) => String(Number(today.slice(0, 4)) + 5);
/** A YYYY-MM from the address (?month=), or null when it is not one, lies before this month or too far ahead. */
export function monthParam(value: string | null | undefined, today: string) {
  return value && MONTH.test(value) && value >= today.slice(0, 7) && value.slice(0, 4) <= lastYear(today) ? value : null;
}
/** A real YYYY-MM-DD from the address (?date=; not 2027-02-31), or null when it is not one, lies before today or too far ahead. */
export function dateParam(value: string | null | undefined, today: string) {
  if (!value || !DATE.test(value) || value < today || value.slice(0, 4) > lastYear(today)) return null;
  const [y, m, d] = value.split('-').map(Number);
  return new Date(Date.UTC(y!, m! - 1, d!)).toISOString().slice(0, 10) === value ? value : null;
}

/** Whether a month has a day from `today` on with seats left. */
export const hasSeats = (m: TWebMonth, today: string) => m.days.some((d) => d.seats_left > 0 && d.date >= today);

/**
 * The month an offer's calendar opens on: the month asked for (?month=, or the chosen ?date='s),
 * else this month, or the next or the one after when this one has no seats left. One rule for the
 * server's first drawing and the browser's (a page reached without a reload).
 */
export async function firstMonth(today: string, asked: string | null, load: (month: string) => Promise<TWebMonth>): Promise<TWebMonth> {
  if (asked) return load(asked);
  const thisMonth = today.slice(0, 7);
  let month = await load(thisMonth);
  for (let i = 1; i <= 2 && !hasSeats(month, today); i += 1) month = await load(addMonths(thisMonth, i));
  return month;
}
