import { seatsForSale, type TSlot, type TWebDay, type TWebMonth, type TWebOffer, type TWebOfferSummary, type TWebStore } from '@tourdesk/contracts';
import { isLanguage, localize, negotiateLanguage, type Language, type Translations } from '@tourdesk/contracts/i18n';
import type { experience } from '../../db/schema';
import type { Db } from '../../db/client';
import type { TenantCtx } from '../../lib/crud';
import { notFound } from '../../lib/errors';
import { addDays, todayIn } from '../../lib/local-time';
import { availabilityJson } from '../availability/slots';
import { mediaUrl } from '../media/images';
import { sellingLanguages } from '../organization/queries';
import { contractRefusal } from '../partners/contract';
import { type FoundStore, type WebCtx } from '../stores/scope';
import * as q from './queries';
import { type PublicStore } from './scope';

/**
 * What the store shows: the store itself, its offers (its own and its partners'), an offer's page, a month and a day of times from tourdesk_availability(), and the visits counted for its analytics.
 */

export function presentWebStore(ctx: WebCtx, logoKey: string | null, onlineReady: boolean, language?: Language, main?: Language): TWebStore {
  // Its name and intro in the customer's language, field by field from the main language (localize()).
  const s = language && main ? { ...ctx.store, ...localize({ name: ctx.store.name, intro: ctx.store.intro, translations: ctx.store.translations }, language, main) } : ctx.store;
  return {
    slug: s.slug,
    name: s.name,
    organisation: ctx.organisation,
    intro: s.intro,
    logo_url: mediaUrl(logoKey),
    primary_color: s.primary_color,
    currency: s.currency,
    terms_url: s.terms_url,
    contact_email: s.contact_email,
    contact_phone: s.contact_phone,
    // Online payment only while the platform has Stripe and the organisation's account can charge.
    payment_options: (s.payment_options as TWebStore['payment_options']).filter((o) => o !== 'online' || onlineReady),
    // Gift vouchers are paid online only (modules/gift-vouchers).
    sells_vouchers: s.sells_vouchers && s.payment_options.includes('online') && onlineReady && !ctx.partner,
  };
}

/** Whether this organisation can take online payments now. */
export async function onlineReady(ctx: TenantCtx, platformHasStripe: boolean) {
  if (!platformHasStripe) return false;
  return q.chargesEnabled(ctx);
}

export async function webStore(ctx: WebCtx, platformHasStripe: boolean, language?: Language): Promise<TWebStore> {
  const logo = ctx.store.logo_image_id ? await q.imageKey(ctx, ctx.store.logo_image_id) : null;
  const main = language ? (await sellingLanguages(ctx.tx, { id: ctx.store.account_id }))[0] : undefined;
  return presentWebStore(ctx, logo, await onlineReady(ctx, platformHasStripe), language, main);
}

/**
 * The language a store's offers are served in: Accept-Language among the languages the store's
 * organisation sells in (its first when none fits). The texts themselves come through localize(),
 * field by field, falling back to the seller's main language.
 */
export async function storeLanguage(db: Db, subdomain: string | null, acceptLanguage: string | undefined): Promise<Language> {
  return negotiateLanguage(acceptLanguage, (subdomain ? await sellingLanguages(db, { subdomain }) : null) ?? ['en']);
}
const mainOf = (value: string | null | undefined): Language => (isLanguage(value) ? value : 'en');
/** A row's texts in `language` (undefined: the row's own, its main language's). */
const inLanguage = <T extends { translations?: unknown }>(row: T, language: Language | undefined, main: Language) =>
  language ? localize(row as T & { translations?: Translations<Partial<T>> }, language, main) : row;

/** How many offers the store sells now (tourdesk_store_offers, on the server's connection). */
export const countOffers = (db: Db, storeId: string) => q.countOffers(db, storeId);

/**
 * A page of the offers the store sells, in its order, its own and its partners' alike: one query
 * on the server's connection over tourdesk_store_offers (which filters every row by the store, its
 * organisation and its contracts), each offer's cover and from price read in its seller's rows.
 */
export async function offers(db: Db, found: Pick<FoundStore, 's'>, limit: number, offset: number, language?: Language): Promise<TWebOfferSummary[]> {
  const rows = (await q.storeOfferPage(db, found.s.id, limit, offset)).map((r) => inLanguage(r, language, mainOf(r.seller_language)));
  return rows.map((r) => ({
    id: r.id,
    title: r.title,
    short_description: r.short_description,
    image_url: mediaUrl(r.cover),
    duration_minutes: r.duration_minutes,
    from_price: r.from_price === null ? null : Number(r.from_price),
    currency: found.s.currency,
    time_zone: r.time_zone,
    operated_by: r.partnership ? r.seller : null,
  }));
}

export function summary(ctx: WebCtx, e: typeof experience.$inferSelect, cover: string | null, from: number | string | null): TWebOfferSummary {
  return {
    id: e.id,
    title: e.title,
    short_description: e.short_description,
    image_url: mediaUrl(cover),
    duration_minutes: e.duration_minutes,
    from_price: from === null ? null : Number(from),
    currency: ctx.currency,
    time_zone: ctx.timeZone,
    operated_by: ctx.partner?.supplier ?? null,
  };
}

/**
 * One offer with everything its page shows, read in its seller's books (ctx from inOfferSeller,
 * which found it among what the store sells); 404 unless it is still on sale.
 */
export async function offer(ctx: WebCtx, id: string, language?: Language): Promise<TWebOffer> {
  const row = await q.activeOffer(ctx, id);
  if (!row) throw notFound('This offer is not sold in this store.');
  const main = mainOf(row.main);
  const e = { ...row.e, ...inLanguage(row.e, language, main) };
  const [images, points, policy, categories, extras, questions] = await Promise.all([
    q.readyImages(ctx, id),
    e.meeting_point_ids.length ? q.meetingPointsByIds(ctx, e.meeting_point_ids) : [],
    e.cancellation_policy_id ? q.cancellationPolicyById(ctx, e.cancellation_policy_id) : [],
    q.offerCategories(ctx, id),
    e.extra_item_ids.length ? q.inventoryItemsByIds(ctx, e.extra_item_ids) : [],
    e.booking_question_ids.length ? q.bookingQuestionsByIds(ctx, e.booking_question_ids) : [],
  ]);
  // Adults first, then by age, then by name: the order people read a price list in.
  const rank = (type: string) => ['Adult', 'Senior', 'Teenager', 'Child', 'Infant'].indexOf(type) >>> 0;
  const texts = <T extends { translations?: unknown }>(list: T[]) => list.map((x) => ({ ...x, ...inLanguage(x, language, main) }));
  const cats = texts(categories).sort((a, b) => rank(a.type) - rank(b.type) || a.label.localeCompare(b.label));
  const byIdOrder = <T extends { id: string }>(list: T[], ids: string[]) => [...list].sort((a, b) => ids.indexOf(a.id) - ids.indexOf(b.id));
  const p = texts(policy)[0];
  return {
    ...summary(ctx, e, row.cover, row.from),
    long_description: e.long_description,
    highlights: e.highlights,
    inclusions: e.inclusions,
    exclusions: e.exclusions,
    what_to_bring: e.what_to_bring,
    important_information: e.important_information,
    meeting_instructions: e.meeting_instructions,
    images: images.map((i) => ({ url: mediaUrl(i.storage_key)!, thumbnail_url: mediaUrl(i.thumbnail_key), width: i.width, height: i.height })),
    meeting_points: byIdOrder(points, e.meeting_point_ids).map((m) => ({ name: m.name, address: m.address, latitude: m.latitude, longitude: m.longitude })),
    cancellation_policy: p ? { name: p.name, description: p.description, rules: p.rules } : null,
    categories: cats.map((c) => ({ id: c.id, label: c.label, type: c.type, occupies_seat: c.occupies_seat, min_age: c.min_age, max_age: c.max_age })),
    extras: byIdOrder(texts(extras), e.extra_item_ids).map((x) => ({ id: x.id, name: x.name, description: x.description, price: x.price })),
    // An answer is stored as the main language's option (what the order checks): the page shows the option's label in its language.
    questions: byIdOrder(questions, e.booking_question_ids).map((q) => {
      const shown = { ...q, ...inLanguage(q, language, main) };
      return { id: q.id, question: shown.question, answer_type: q.answer_type, required: q.required, options: q.choices, option_labels: shown.choices.length === q.choices.length ? shown.choices : q.choices };
    }),
    min_participants: e.min_participants,
    max_participants: e.max_participants,
  };
}

/**
 * The offer's slots between two local dates, from the one definition of seats and open for sale,
 * in its seller's books; a partner's offer only on the days its contract is valid (contractRefusal).
 */
export async function slotsBetween(db: Db, shop: PublicStore, id: string, from: string, to: string) {
  const o = shop.offers.get(id);
  if (!o) throw notFound('This offer is not sold in this store.');
  const slots = JSON.parse(await availabilityJson(db, o.seller, id, from, to)) as TSlot[];
  return o.seller === shop.accountId ? slots : slots.filter((s) => contractRefusal({ status: 'Active', valid_from: o.validFrom, valid_to: o.validTo }, s.local_date) === null);
}

/** A month: each day with times customers can book, and how many seats they have in all. */
export async function month(db: Db, shop: PublicStore, id: string, monthKey: string): Promise<TWebMonth> {
  const o = shop.offers.get(id);
  if (!o) throw notFound('This offer is not sold in this store.');
  const first = `${monthKey}-01`;
  const last = addDays(addDays(first, 31).slice(0, 7) + '-01', -1);
  const today = todayIn(o.zone);
  const days = new Map<string, { date: string; seats_left: number; times: number }>();
  if (last >= today) {
    for (const s of await slotsBetween(db, shop, id, first < today ? today : first, last)) {
      if (!s.bookable && s.status !== 'sold_out') continue;
      const day = days.get(s.local_date) ?? { date: s.local_date, seats_left: 0, times: 0 };
      day.seats_left += seatsForSale(s);
      day.times += 1;
      days.set(s.local_date, day);
    }
  }
  return { month: monthKey, time_zone: o.zone, days: [...days.values()] };
}

/** A day's start times with their seats left and prices (sold-out times included, to be shown as such). */
export async function day(db: Db, shop: PublicStore, id: string, date: string): Promise<TWebDay> {
  const slots = (await slotsBetween(db, shop, id, date, date)).filter((s) => s.bookable || s.status === 'sold_out');
  return {
    date,
    time_zone: shop.offers.get(id)!.zone,
    slots: slots.map((s) => ({
      id: s.id,
      starts_at: s.starts_at,
      local_time: s.local_time,
      seats_left: seatsForSale(s),
      prices: s.prices.map((p) => ({ category: p.pricing_category, price: p.retail_price })),
    })),
  };
}

/** A visit (one browser session's), counted once per day. */
export async function recordVisit(ctx: WebCtx, visitId: string) {
  await q.insertVisit(ctx, ctx.store.id, visitId, todayIn(ctx.timeZone));
}

// --- the guest cart --------------------------------------------------------------------------
