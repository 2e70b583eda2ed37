import { createHash, randomUUID } from 'node:crypto';
import { HOLD_MINUTES, type TSlot } from '@tourdesk/contracts';
import { localize, negotiateLanguage, type Language } from '@tourdesk/contracts/i18n';
import type { Db } from '../../db/client';
import type { Jobs } from '../../lib/jobs';
import type { octoBooking } from '../../db/schema';
import type { TenantCtx } from '../../lib/crud';
import { AppError } from '../../lib/errors';
import { inTenant } from '../../lib/tenancy';
import type { HoldQueue } from '../availability/holds';
import { releaseLine } from '../availability/holds';
import { lockSlot } from '../availability/slots';
import { answerQuestions, questionsOwed } from '../orders/answers';
import { checkout } from '../orders/bookings';
import { linkStoreOf } from '../orders/queries/orders';
import { checkAnswers } from '../orders/records';
import { renewManageSecret } from '../orders/web-order';
import { openBookingTerms, termsOf } from '../orders/cancellation';
import { recordAudit } from '../orders/order-basics';
import { orderEvent } from '../orders/records';
import { cancelOrder } from '../orders/service';
import { commissionOf, netRatesOf, sharedOffer } from '../partners/contract';
import { markResale } from '../partners/resale';
import type { Partner } from './auth';
import { OctoError } from './errors';
import * as q from './queries';
import type { UnitRow } from './queries';

/**
 * What a partner's API key can do, once, for both shapes (OCTO at /octo/v1 and the public booking
 * API at /api/public/): the products its contract shares, their availability (the one definition
 * of open for sale and seats left: tourdesk_availability), a reservation (a hold in a cart of the
 * supplier's, expiring as every cart does), its confirmation (checkout of that cart: an order in
 * the supplier's tenant marked as the partner's resale, the commission fixed at sale), extension,
 * change and cancellation (the orders module's one cancel rule).
 */

export const DEFAULT_OPTION = 'DEFAULT';
export interface Deps {
  db: Db;
  holds: HoldQueue;
  /** The job queue: a partner's cancellation gives its seats to the departure's waiting list in its transaction. */
  jobs?: Jobs;
  /**
   * Asks a partner's customer for the answers their booking still owes (a booking confirmed without
   * the questions capability): queues the e-mail in the confirm's transaction, with the booking page
   * of `store` (the organisation's first active store) when it has one.
   */
  askForAnswers?: (tx: Db, job: { account: string; order: string; to: string; store: string | null; manage?: string }) => Promise<void>;
}
export type UnitType = 'ADULT' | 'YOUTH' | 'CHILD' | 'INFANT' | 'SENIOR' | 'OTHER';
const UNIT_TYPES: Record<string, UnitType> = { Adult: 'ADULT', Child: 'CHILD', Infant: 'INFANT', Teenager: 'YOUTH', Senior: 'SENIOR' };
export const unitTypeOf = (type: string): UnitType => UNIT_TYPES[type] ?? 'OTHER';

export type { UnitRow };

/** A departure for a partner (octo/availability.ts): a Slot, with whether the units asked for fit and its cut-off. */
export interface SlotView extends TSlot {
  /** Whether the units asked for fit (the seats they take: categories that occupy a seat). */
  fits: boolean;
  cutoffAt: string;
  /** The net price of each category's pricing rate on the departure's date (categories whose rate has none are absent). */
  rateNet: Record<string, number>;
}
export interface ProductView {
  product: Partner['products'] extends Map<string, infer P> ? P : never;
  /** Units, each with its `title` in the language asked for (its `label` the supplier's own). */
  units: (UnitRow & { title: string })[];
  policy: { hours_before: number; refund_percent: number }[] | null;
  startTimes: string[];
  /** The language the texts are in (Accept-Language among the supplier's languages). */
  language: Language;
  /** The offer's texts in that language, field by field from the main language (localize()), for OCTO's content capability. */
  texts: Omit<q.ProductTexts, 'translations'>;
  /** The cancellation policy's name and description in that language. */
  policyTexts: { name: string; description: string } | null;
  /** Its ready pictures (storage keys, in order) and meeting points, for octo/content's media and locations. */
  images: { key: string; type: string; name: string }[];
  points: { name: string; address: string; latitude: number | null; longitude: number | null; instructions: string }[];
  /** The offer's booking questions in that language (octo/questions): `choices` as answered, `labels` as shown. */
  questions: { id: string; question: string; answer_type: q.ProductQuestion['answer_type']; choices: string[]; labels: string[]; required: boolean }[];
}

const inSupplier = <T>(deps: Deps, p: Partner, fn: (ctx: TenantCtx) => Promise<T>) =>
  inTenant(deps.db, p.supplierId, (tx) => fn({ tx, accountId: p.supplierId, currency: p.currency, jobs: deps.jobs }));

/**
 * The net of a reservation's items: once booked, its gross less the commission fixed at sale (what
 * statements count); while held, per unit by the contract as it reads now, at the net prices of its
 * departure's date.
 */
export function netOfView(p: Partner, v: Pick<BookingView, 'items' | 'commission' | 'row' | 'rateNet'>) {
  if (v.commission !== null) return v.items.reduce((n, i) => n + i.unit_price * i.quantity, 0) - v.commission;
  return v.items.reduce((n, i) => n + netOf(p, v.row.experience_id, i.id, i.unit_price, v.rateNet[i.id]) * i.quantity, 0);
}

/**
 * The net a partner owes per unit sold at `retail` by the rate whose net price is `rateNet` (the
 * contract's one rule, as the sale fixes it: commissionOf, a category the contract leaves blank at
 * that net price, netRatesOf).
 */
export function netOf(p: Partner, productId: string, unitId: string, retail: number, rateNet: number | null | undefined) {
  const netRates = netRatesOf(p.products.get(productId)?.netRates, { [unitId]: rateNet });
  return retail - commissionOf(p.contract, [{ kind: 'category', id: unitId, quantity: 1, unit_price: retail }], netRates);
}

export function sharedProduct(p: Partner, productId: unknown) {
  const product = typeof productId === 'string' ? p.products.get(productId) : undefined;
  if (!product) throw new OctoError('INVALID_PRODUCT_ID', 'The product does not exist or is not shared with you.', String(productId ?? ''), 'productId');
  return product;
}
export function defaultOption(optionId: unknown) {
  if (optionId !== DEFAULT_OPTION) throw new OctoError('INVALID_OPTION_ID', `The option does not exist: every product has one option, ${DEFAULT_OPTION}.`, String(optionId ?? ''), 'optionId');
}

// --- products --------------------------------------------------------------------------------

/** The language of a partner's call: Accept-Language (or a contact's locales) among the supplier's languages, else its main one. */
export const partnerLanguage = (p: Partner, acceptLanguage: string | null | undefined) => negotiateLanguage(acceptLanguage, p.languages);

async function productViews(deps: Deps, p: Partner, ids: string[], language: Language): Promise<ProductView[]> {
  if (ids.length === 0) return [];
  const main = p.languages[0]!;
  return inSupplier(deps, p, async (ctx) => {
    const units = (await q.productUnits(ctx, ids)).map((u) => ({ ...u, title: localize(u, language, main).label }));
    const extra = await q.productTerms(ctx, ids);
    const rank = (type: string) => ['Adult', 'Senior', 'Teenager', 'Child', 'Infant'].indexOf(type) >>> 0;
    return ids.map((id) => {
      const e = extra.find((r) => r.id === id);
      const texts = e ? localize(e.texts, language, main) : null;
      const policy = e?.policy ? localize(e.policy, language, main) : null;
      return {
        product: p.products.get(id)!,
        units: units.filter((u) => u.experience_id === id).sort((a, b) => rank(a.type) - rank(b.type) || a.label.localeCompare(b.label)),
        policy: e?.rules ?? null,
        startTimes: (e?.times ?? []).map((t) => String(t).slice(0, 5)),
        language,
        texts: texts ?? { title: p.products.get(id)!.title, short_description: '', long_description: '', highlights: [], inclusions: [], exclusions: [], what_to_bring: [], important_information: '', meeting_instructions: '', voucher_text: '' },
        policyTexts: policy ? { name: policy.name, description: policy.description } : null,
        images: e?.images ?? [],
        points: e?.points ?? [],
        questions: (e?.questions ?? []).map((x) => {
          const shown = localize(x, language, main);
          return { id: x.id, question: shown.question, answer_type: x.answer_type, choices: x.choices, labels: shown.choices.length === x.choices.length ? shown.choices : x.choices, required: x.required };
        }),
      };
    });
  });
}

export const listProducts = (deps: Deps, p: Partner, language: Language = p.languages[0]!) => productViews(deps, p, [...p.products.keys()], language);
export async function getProduct(deps: Deps, p: Partner, id: unknown, language: Language = p.languages[0]!) {
  const product = sharedProduct(p, id);
  return (await productViews(deps, p, [product.id], language))[0]!;
}

// --- bookings --------------------------------------------------------------------------------

export interface UnitItemInput {
  uuid?: string;
  unitId: string;
  resellerReference?: string;
}
export interface ContactInput {
  fullName?: string | null;
  firstName?: string | null;
  lastName?: string | null;
  emailAddress?: string | null;
  phoneNumber?: string | null;
  locales?: string[];
  postalCode?: string | null;
  country?: string | null;
  notes?: string | null;
}
export interface ReserveInput {
  uuid?: string;
  productId: string;
  optionId: string;
  availabilityId?: string;
  expirationMinutes?: number;
  notes?: string | null;
  /** Missing or empty: UNPROCESSABLE_ENTITY, as OCTO asks (a well-formed request that books nothing). */
  unitItems?: UnitItemInput[];
  resellerReference?: string;
  contact?: ContactInput;
  /** octo/questions: answers to the offer's booking questions, kept with the reservation until the confirm books them. */
  questionAnswers?: QuestionAnswerInput[];
}
export interface QuestionAnswerInput {
  questionId: string;
  value: string;
}
/** OCTO's answers as the orders module keeps them: by question id (a later answer to the same question wins). */
export const answersOf = (list: QuestionAnswerInput[] | undefined): Record<string, string> => Object.fromEntries((list ?? []).map((a) => [a.questionId, a.value]));

/** An answer refused by the booking questions' rule, as OCTO says it (the question named, so the partner can answer it). */
function answerRefusal(error: unknown): never {
  const first = error instanceof AppError ? error.items[0] : undefined;
  if (first?.attr?.startsWith('answers.')) throw new OctoError('BAD_REQUEST', `questionAnswers: ${first.detail}`, undefined, 'questionAnswers').as('invalid');
  throw error;
}

type Row = typeof octoBooking.$inferSelect;
export interface BookingView {
  row: Row;
  /**
   * ON_HOLD (seats held) → CONFIRMED (booked); PENDING when the offer is confirmed by hand and the
   * supplier has not yet confirmed the order (its bookings wait as Created, seats reserved);
   * REJECTED when the supplier cancelled it before confirming it; CANCELLED, EXPIRED.
   */
  status: 'ON_HOLD' | 'PENDING' | 'CONFIRMED' | 'REJECTED' | 'CANCELLED' | 'EXPIRED';
  slot: { id: string; starts_at: Date; ends_at: Date; local_date: string; local_time: string };
  items: { id: string; quantity: number; unit_price: number }[];
  orderReference: string | null;
  orderStatus: string | null;
  ticketCode: string | null;
  confirmedAt: Date | null;
  /** The commission fixed at sale (booking.commission) once booked; null while only held. */
  commission: number | null;
  /** The net price of each category's pricing rate on the departure's date (categories whose rate has none are absent). */
  rateNet: Record<string, number>;
  cancellable: boolean;
  timeZone: string;
  /** The answers to the offer's booking questions: the booking's once confirmed, the reservation's while held. */
  answers: Record<string, string>;
}

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');
const clampMinutes = (m: number | undefined) => (m === undefined ? undefined : Math.max(1, Math.min(HOLD_MINUTES.MAX, Math.floor(m))));

function quantitiesOf(items: { unitId: string }[]) {
  const q: Record<string, number> = {};
  for (const i of items) q[i.unitId] = (q[i.unitId] ?? 0) + 1;
  return q;
}

async function assertUnits(ctx: TenantCtx, productId: string, items: UnitItemInput[]) {
  if (items.length === 0) throw new OctoError('UNPROCESSABLE_ENTITY', 'A booking needs at least one unit item.', undefined, 'unitItems');
  const ids = [...new Set(items.map((i) => i.unitId))];
  const known = new Set((await q.pricedUnitIds(ctx, productId, ids)).map((r) => r.id));
  const unknown = ids.find((id) => !known.has(id));
  if (unknown) throw new OctoError('INVALID_UNIT_ID', 'The unit does not exist for this product.', unknown, 'unitId');
}

/** The contract's refusal as OCTO says it. */
async function contractFor(ctx: TenantCtx, p: Partner, productId: string, day: string) {
  try {
    return await sharedOffer(ctx, p.partnershipId, productId, day);
  } catch (error) {
    if (error instanceof AppError && error.status === 404) throw new OctoError('INVALID_PRODUCT_ID', 'The product does not exist or is not shared with you.', productId, 'productId');
    if (error instanceof AppError) throw new OctoError('BAD_REQUEST', error.message);
    throw error;
  }
}

/** A hold's refusal as OCTO says it: sold out is UNPROCESSABLE_ENTITY, a unit not sold that day INVALID_UNIT_ID. */
function holdRefusal(error: unknown): never {
  if (error instanceof AppError) {
    const first = error.items[0];
    if (error.status === 409) throw new OctoError('UNPROCESSABLE_ENTITY', first?.detail ?? error.message, undefined, 'availabilityId').as('sold_out');
    if (first?.attr?.startsWith('quantities')) throw new OctoError('INVALID_UNIT_ID', first.detail, first.attr.split('.')[1], 'unitId');
    throw new OctoError('BAD_REQUEST', first?.detail ?? error.message);
  }
  throw error;
}

async function findRow(ctx: TenantCtx, p: Partner, uuid: string, lock: boolean) {
  const row = lock ? await q.lockReservation(ctx, uuid) : await q.findReservation(ctx, uuid);
  if (!row || row.partnership_id !== p.partnershipId) throw new OctoError('INVALID_BOOKING_UUID', 'No booking with this UUID.', uuid, 'uuid');
  return row;
}

/**
 * Whether a partner may cancel a booked order now: cancelling is free of charge (cancelOrder), so
 * only while the offer's policy still refunds all of the sale — OCTO's cancellation cut-off, as
 * productOf() advertises it. Past it the policy keeps money that a free cancellation would take
 * from the supplier (the reseller collected it; the statement would count nothing).
 */
async function partnerCancelTerms(ctx: TenantCtx, orderId: string): Promise<{ allowed: boolean; reason: string }> {
  const sale = (await q.orderTotal(ctx, orderId)) ?? 0;
  const terms = termsOf(await openBookingTerms(ctx, orderId), sale, sale);
  if (terms.allowed && terms.fee > 0) return { allowed: false, reason: `the cancellation policy no longer refunds all of it (${terms.reason})` };
  return terms;
}

/** A booking as both APIs present it: its status settled (an ON_HOLD whose hold ran out is EXPIRED). */
async function view(ctx: TenantCtx, p: Partner, row: Row): Promise<BookingView> {
  const s = await q.departureOf(ctx, row.slot_id);
  let status = row.status as BookingView['status'];
  let items: BookingView['items'] = [];
  let orderReference: string | null = null;
  let orderStatus: string | null = null;
  let ticketCode: string | null = null;
  let commission: number | null = null;
  let cancellable = false;
  let answers = row.answers;
  if (row.booking_id) {
    const b = await q.bookingWithOrder(ctx, row.booking_id);
    if (b) {
      answers = b.answers;
      items = b.items.filter((i) => i.kind === 'category').map((i) => ({ id: i.id, quantity: i.quantity, unit_price: i.unit_price }));
      orderReference = b.reference;
      orderStatus = b.orderStatus;
      ticketCode = b.ticket;
      commission = b.commission;
      if (b.status === 'Created' && status === 'CONFIRMED') status = 'PENDING';
      // Whether the supplier confirmed the order at some point: at sale (an offer confirmed at once: its
      // `created` entry says Confirmed) or later by hand. Cancelled by the supplier before that: rejected.
      if (b.status === 'Canceled') status = row.status === 'CONFIRMED' && !(await q.everConfirmed(ctx, row.order_id!)) ? 'REJECTED' : 'CANCELLED';
      if (status === 'CONFIRMED' || status === 'PENDING') cancellable = (await partnerCancelTerms(ctx, row.order_id!)).allowed;
    }
  } else if (row.cart_line_id) {
    const line = await q.heldLine(ctx, row.cart_line_id);
    if (line) items = line.items.filter((i) => i.kind === 'category').map((i) => ({ id: i.id, quantity: i.quantity, unit_price: i.unit_price }));
    if (status === 'ON_HOLD' && (!line || line.expires.getTime() <= Date.now())) status = 'EXPIRED';
    if (status === 'ON_HOLD') cancellable = true;
  }
  return {
    row,
    status,
    slot: { id: s!.id, starts_at: s!.starts_at, ends_at: s!.ends_at, local_date: String(s!.local_date), local_time: String(s!.local_time).slice(0, 5) },
    items,
    orderReference,
    orderStatus,
    ticketCode,
    confirmedAt: status === 'CONFIRMED' || (status === 'CANCELLED' && row.order_id) ? row.updated_at : null,
    commission,
    rateNet: s!.rate_net ?? {},
    cancellable,
    timeZone: p.timeZone,
    answers,
  };
}

/**
 * A reservation: the seats held in a cart of the supplier's own (through the same hold queue as
 * every cart), ON_HOLD until the hold runs out. Idempotent by UUID: the same UUID answers the
 * booking it made; a UUID another partner or organisation used is refused.
 */
export async function reserve(deps: Deps, p: Partner, asked: ReserveInput): Promise<BookingView> {
  const input = { ...asked, unitItems: asked.unitItems ?? [] };
  const uuid = input.uuid ?? randomUUID();
  const product = sharedProduct(p, input.productId);
  defaultOption(input.optionId);
  const prepared = await inSupplier(deps, p, async (ctx) => {
    const existing = await q.findReservation(ctx, uuid);
    if (existing) {
      if (existing.partnership_id !== p.partnershipId) throw new OctoError('INVALID_BOOKING_UUID', 'This UUID is already used by another booking.', uuid, 'uuid');
      return { existing: await view(ctx, p, existing) };
    }
    if (!input.availabilityId) throw new OctoError('INVALID_AVAILABILITY_ID', 'availabilityId is required: this product is sold by start time.', '', 'availabilityId');
    const s = await q.productDeparture(ctx, product.id, input.availabilityId);
    if (!s) throw new OctoError('INVALID_AVAILABILITY_ID', 'No availability with this id for this product.', input.availabilityId, 'availabilityId');
    await contractFor(ctx, p, product.id, String(s.day));
    await assertUnits(ctx, product.id, input.unitItems);
    await checkAnswers(ctx, [s.id], answersOf(input.questionAnswers), { allowMissing: true }).catch(answerRefusal);
    const c = await q.insertCart(ctx, sha256(`octo:${uuid}`));
    return { slotId: s.id, cartId: c!.id };
  });
  if ('existing' in prepared) return prepared.existing!;
  const { slotId, cartId } = prepared;
  const dropCart = () => inSupplier(deps, p, (ctx) => q.deleteCart(ctx, cartId));
  let lineId: string;
  try {
    lineId = (await deps.holds.hold({ accountId: p.supplierId, cartId }, slotId, { quantities: quantitiesOf(input.unitItems), extras: {} })).id;
  } catch (error) {
    await dropCart();
    holdRefusal(error);
  }
  const made = await inSupplier(deps, p, async (ctx) => {
    const minutes = clampMinutes(input.expirationMinutes);
    if (minutes !== undefined) {
      await lockSlot(ctx, slotId);
      await q.setLineExpiry(ctx, lineId, minutes);
    }
    const line = await q.lineExpiry(ctx, lineId);
    const row = await q.insertReservation(ctx, {
      uuid,
      account_id: ctx.accountId,
      partnership_id: p.partnershipId,
      api_key_id: p.keyId,
      status: 'ON_HOLD',
      experience_id: product.id,
      slot_id: slotId,
      cart_id: cartId,
      cart_line_id: lineId,
      reseller_reference: input.resellerReference ?? null,
      unit_items: input.unitItems.map((i) => ({ uuid: i.uuid ?? randomUUID(), unitId: i.unitId, resellerReference: i.resellerReference ?? null })),
      contact: (input.contact ?? {}) as Record<string, unknown>,
      answers: answersOf(input.questionAnswers),
      notes: input.notes ?? null,
      expires_at: line?.expires ?? new Date(),
    });
    return row ? view(ctx, p, row) : null;
  });
  if (made) return made;
  // The same UUID reserved at the same moment: this hold goes back, the first one answers.
  await inSupplier(deps, p, async (ctx) => {
    await releaseLine(ctx, cartId, lineId).catch(() => undefined);
    await q.deleteCart(ctx, cartId);
  });
  return inSupplier(deps, p, async (ctx) => {
    const existing = await q.findReservation(ctx, uuid);
    if (!existing || existing.partnership_id !== p.partnershipId) throw new OctoError('INVALID_BOOKING_UUID', 'This UUID is already used by another booking.', uuid, 'uuid');
    return view(ctx, p, existing);
  });
}

export async function getBooking(deps: Deps, p: Partner, uuid: string) {
  return inSupplier(deps, p, async (ctx) => view(ctx, p, await findRow(ctx, p, uuid, false)));
}

export async function listBookings(deps: Deps, p: Partner, refs: { resellerReference?: string; supplierReference?: string }) {
  if (!refs.resellerReference && !refs.supplierReference) throw new OctoError('BAD_REQUEST', 'Send resellerReference or supplierReference.', undefined, 'resellerReference');
  return inSupplier(deps, p, async (ctx) => {
    const rows = await q.reservationsByReference(ctx, p.partnershipId, refs);
    const out: BookingView[] = [];
    for (const r of rows) out.push(await view(ctx, p, r.b));
    return out;
  });
}

/** Changes a reservation's unit items (a new hold first, then the old one goes) or its contact. */
export async function updateBooking(
  deps: Deps,
  p: Partner,
  uuid: string,
  patch: {
    unitItems?: UnitItemInput[];
    contact?: ContactInput;
    resellerReference?: string;
    notes?: string | null;
    expirationMinutes?: number;
    productId?: string;
    optionId?: string;
    availabilityId?: string;
    questionAnswers?: QuestionAnswerInput[];
  },
) {
  const current = await getBooking(deps, p, uuid);
  if (patch.optionId !== undefined) defaultOption(patch.optionId);
  // Another product or departure (OCTO's "change date", "change product"): a new hold there first, then the old one goes.
  const productId = patch.productId ?? current.row.experience_id;
  const slotId = patch.availabilityId ?? current.row.slot_id;
  const moving = productId !== current.row.experience_id || slotId !== current.row.slot_id;
  let newLine: string | null = null;
  let items: UnitItemInput[] | undefined = patch.unitItems;
  if (patch.unitItems || moving) {
    if (current.status !== 'ON_HOLD') throw new OctoError('BAD_REQUEST', 'Unit items, product and date change only while the booking is ON_HOLD: cancel this booking and reserve again.', undefined, patch.unitItems ? 'unitItems' : 'availabilityId');
    const product = sharedProduct(p, productId);
    if (!items && productId !== current.row.experience_id) throw new OctoError('UNPROCESSABLE_ENTITY', 'unitItems are required when the product changes (its units are its own).', undefined, 'unitItems');
    items ??= current.row.unit_items.map((u) => ({ uuid: u.uuid ?? undefined, unitId: u.unitId, resellerReference: u.resellerReference ?? undefined }));
    const target = await inSupplier(deps, p, async (ctx) => {
      const s = await q.productDeparture(ctx, product.id, slotId);
      if (!s) throw new OctoError('INVALID_AVAILABILITY_ID', 'No availability with this id for this product.', slotId, 'availabilityId');
      await contractFor(ctx, p, product.id, String(s.day));
      await assertUnits(ctx, product.id, items!);
      return s.id;
    });
    try {
      newLine = (await deps.holds.hold({ accountId: p.supplierId, cartId: current.row.cart_id! }, target, { quantities: quantitiesOf(items), extras: {} })).id;
    } catch (error) {
      holdRefusal(error);
    }
  } else if (current.status !== 'ON_HOLD' && current.status !== 'CONFIRMED' && current.status !== 'PENDING') {
    throw new OctoError('BAD_REQUEST', `A ${current.status} booking cannot change.`);
  }
  // The new hold was made in its own transaction: if this one is refused (the booking left ON_HOLD
  // meanwhile) or fails, the hold is released on its own too — released inside, it would roll back.
  try {
    return await changeReservation(deps, p, uuid, { ...patch, unitItems: items, productId, availabilityId: slotId }, newLine);
  } catch (error) {
    if (newLine) await inSupplier(deps, p, (ctx) => releaseLine(ctx, current.row.cart_id!, newLine)).catch(() => undefined);
    throw error;
  }
}

async function changeReservation(deps: Deps, p: Partner, uuid: string, patch: Parameters<typeof updateBooking>[3], newLine: string | null) {
  return inSupplier(deps, p, async (ctx) => {
    const row = await findRow(ctx, p, uuid, true);
    const set: Partial<Row> = { updated_at: new Date() };
    if (patch.contact) set.contact = { ...row.contact, ...patch.contact };
    if (patch.resellerReference !== undefined) set.reseller_reference = patch.resellerReference;
    if (patch.notes !== undefined) set.notes = patch.notes;
    if (patch.questionAnswers?.length) {
      const given = answersOf(patch.questionAnswers);
      if (row.order_id) {
        // Booked: the order's answers, by the orders module's rule (what the manifest shows and the customer is asked for).
        await answerQuestions(ctx, row.order_id, given, { api_key: p.prefix, booking_uuid: uuid }).catch(answerRefusal);
      } else {
        set.answers = { ...row.answers, ...given };
        await checkAnswers(ctx, [row.slot_id], set.answers, { allowMissing: true }).catch(answerRefusal);
      }
    }
    if (newLine) {
      if (row.status !== 'ON_HOLD') throw new OctoError('BAD_REQUEST', 'Unit items change only while the booking is ON_HOLD.', undefined, 'unitItems');
      if (row.cart_line_id) await releaseLine(ctx, row.cart_id!, row.cart_line_id).catch(() => undefined);
      set.cart_line_id = newLine;
      set.experience_id = patch.productId!;
      set.slot_id = patch.availabilityId!;
      set.unit_items = patch.unitItems!.map((i) => ({ uuid: i.uuid ?? randomUUID(), unitId: i.unitId, resellerReference: i.resellerReference ?? null }));
      const line = await q.newLineExpiry(ctx, newLine);
      set.expires_at = line!.expires;
    }
    const updated = await q.updateReservation(ctx, uuid, set);
    if (row.order_id && (patch.resellerReference !== undefined)) {
      await q.setOrderResellerReference(ctx, row.order_id, patch.resellerReference);
    }
    const result = await view(ctx, p, updated!);
    if (patch.expirationMinutes !== undefined && result.status === 'ON_HOLD') return extendIn(ctx, p, updated!, patch.expirationMinutes);
    return result;
  });
}

async function extendIn(ctx: TenantCtx, p: Partner, row: Row, minutes: number | undefined) {
  const m = clampMinutes(minutes) ?? HOLD_MINUTES.MAX;
  await lockSlot(ctx, row.slot_id);
  const line = await q.extendLiveLine(ctx, row.cart_line_id!, m);
  if (!line) throw new OctoError('BAD_REQUEST', 'The reservation expired: its seats were released. Reserve again.', undefined, 'uuid');
  const updated = await q.updateReservation(ctx, row.uuid, { expires_at: line.expires, updated_at: new Date() });
  return view(ctx, p, updated!);
}

/** Holds the reservation's seats longer (at most HOLD_MINUTES.MAX from now), while it is still held. */
export async function extendBooking(deps: Deps, p: Partner, uuid: string, minutes: number | undefined) {
  return inSupplier(deps, p, async (ctx) => {
    const row = await findRow(ctx, p, uuid, true);
    if (row.status !== 'ON_HOLD') throw new OctoError('BAD_REQUEST', `Only a booking ON_HOLD can be extended; this one is ${row.status}.`, undefined, 'uuid');
    return extendIn(ctx, p, row, minutes);
  });
}

/**
 * The order's customer from a booking's contact. A contact without an e-mail address (OCTO lets a
 * reseller keep its guest's) is booked under the reseller's address: the reseller is the customer of
 * record and gets the booking's e-mails; the guest's name stays on the order.
 */
function customerOf(contact: ContactInput, resellerEmail: string | null) {
  const email = contact.emailAddress?.trim() || resellerEmail || undefined;
  const [first, ...rest] = (contact.fullName ?? '').trim().split(/\s+/);
  const firstName = contact.firstName?.trim() || first || '';
  if (!email || !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) throw new OctoError('BAD_REQUEST', 'contact.emailAddress is required (a valid e-mail address).', undefined, 'contact.emailAddress');
  if (!firstName) throw new OctoError('BAD_REQUEST', 'contact.firstName (or contact.fullName) is required.', undefined, 'contact.firstName');
  const country = contact.country && /^[A-Z]{2}$/.test(contact.country) ? contact.country : null;
  return {
    email: email.toLowerCase(),
    first_name: firstName.slice(0, 100),
    last_name: (contact.lastName?.trim() || rest.join(' ')).slice(0, 100),
    phone: (contact.phoneNumber ?? '').trim().slice(0, 40),
    country,
    marketing_consent: false,
  };
}

/**
 * Confirms a reservation: under the reservation's row lock (so two confirms of one UUID make one
 * order), the contract read again under its lock, then checkout of the reservation's cart line — an
 * order in the supplier's tenant, marked as the partner's resale, each booking's commission fixed.
 */
export async function confirmBooking(
  deps: Deps,
  p: Partner,
  uuid: string,
  input: { contact?: ContactInput; resellerReference?: string; unitItems?: UnitItemInput[]; answers?: Record<string, string>; questionAnswers?: QuestionAnswerInput[] },
  acceptLanguage?: string,
  /**
   * Whether the partner declared OCTO's questions capability (or is the public booking API, which
   * names each question): then every required question must be answered now. Without it the booking
   * is confirmed with what is missing, and its customer is asked for it by e-mail (deps.askForAnswers).
   */
  asksQuestions = true,
) {
  if (input.unitItems) {
    const current = await getBooking(deps, p, uuid);
    const same = JSON.stringify(quantitiesOf(input.unitItems)) === JSON.stringify(quantitiesOf(current.row.unit_items));
    if (!same && current.status === 'ON_HOLD') await updateBooking(deps, p, uuid, { unitItems: input.unitItems });
  }
  const done = await inSupplier(deps, p, async (ctx) => {
    const row = await findRow(ctx, p, uuid, true);
    if (row.status === 'CONFIRMED') return view(ctx, p, row);
    if (row.status !== 'ON_HOLD') throw new OctoError('BAD_REQUEST', `This booking is ${row.status}: it cannot be confirmed.`, undefined, 'uuid');
    // A reservation past utcExpiresAt is over (OCTO's EXPIRED), even while its line still waits for
    // the sweep: its seats go back now and it is never booked (checkout would re-hold a cart's line).
    if ((await view(ctx, p, row)).status === 'EXPIRED') {
      if (row.cart_line_id) await releaseLine(ctx, row.cart_id!, row.cart_line_id).catch(() => undefined);
      await q.updateReservation(ctx, uuid, { status: 'EXPIRED', expires_at: null, updated_at: new Date() });
      return null;
    }
    const contact = { ...(row.contact as ContactInput), ...(input.contact ?? {}) };
    const customer = customerOf(contact, p.resellerEmail);
    const s = await q.departureDay(ctx, row.slot_id);
    const shared = await contractFor(ctx, p, row.experience_id, String(s!.day));
    let orderId: string;
    try {
      // The customer's language (later e-mails and documents, and the invoice's words): the contact's locales, else the call's Accept-Language, among the supplier's.
      const language = partnerLanguage(p, contact.locales?.length ? contact.locales.join(',') : acceptLanguage);
      const answers = { ...row.answers, ...(input.answers ?? {}), ...answersOf(input.questionAnswers) };
      orderId = await checkout(ctx, row.cart_id!, null, { customer, answers, lines: [row.cart_line_id!], language, answersLater: !asksQuestions, now: true });
    } catch (error) {
      if (error instanceof AppError && error.items[0]?.code === 'hold_expired') throw new OctoError('BAD_REQUEST', 'The reservation expired: its seats were released. Reserve again.', undefined, 'uuid');
      // The offer's booking questions: named by their field (answers.<question id>), so the partner can answer them.
      const first = error instanceof AppError ? error.items[0] : undefined;
      if (first?.attr?.startsWith('answers.')) throw new OctoError('BAD_REQUEST', `${first.attr}: ${first.detail}`, undefined, first.attr);
      throw error;
    }
    // Confirmed without some required answers: the customer is asked for them (their booking page, when the organisation has a store).
    if (customer.email && deps.askForAnswers && (await questionsOwed(ctx, orderId)).length > 0) {
      const store = await linkStoreOf(ctx);
      const manage = store ? await renewManageSecret(ctx, orderId) : undefined;
      await deps.askForAnswers(ctx.tx, { account: ctx.accountId, order: orderId, to: customer.email, store: store?.id ?? null, manage });
    }
    const reference = input.resellerReference ?? row.reseller_reference;
    await markResale(ctx, orderId, shared.contract, { [row.experience_id]: shared.netRates }, reference, { api_key: p.prefix, booking_uuid: uuid });
    const sold = await q.firstBookingOf(ctx, orderId);
    const updated = await q.updateReservation(ctx, uuid, {
      status: 'CONFIRMED',
      order_id: orderId,
      booking_id: sold!.id,
      contact: contact as Record<string, unknown>,
      reseller_reference: reference,
      expires_at: null,
      cart_line_id: null,
      updated_at: new Date(),
    });
    await q.deleteCart(ctx, row.cart_id!);
    await orderEvent(ctx, 'partner_booking.confirmed', orderId);
    return view(ctx, p, updated!);
  });
  if (!done) throw new OctoError('BAD_REQUEST', 'The reservation expired: its seats were released. Reserve again.', undefined, 'uuid');
  return done;
}

/**
 * Cancels: a reservation gives its seats back; a confirmed booking is cancelled by the orders
 * module's one rule (cancelOrder), only while its cancellation policy allows it (termsOf). A
 * repeated cancel answers the cancelled booking.
 */
export async function cancelBooking(deps: Deps, p: Partner, uuid: string, reason: string | null | undefined) {
  return inSupplier(deps, p, async (ctx) => {
    const row = await findRow(ctx, p, uuid, true);
    if (row.status === 'CANCELLED') return view(ctx, p, row);
    if (row.status === 'CONFIRMED' && row.order_id) {
      const current = await view(ctx, p, row);
      // Rejected by the supplier: nothing left to cancel, and it stays what the supplier made it.
      if (current.status === 'REJECTED') return current;
      if (current.status !== 'CANCELLED') {
        const terms = await partnerCancelTerms(ctx, row.order_id);
        if (!terms.allowed) throw new OctoError('BAD_REQUEST', `This booking can no longer be cancelled: ${terms.reason}`, undefined, 'uuid');
        await cancelOrder(ctx, row.order_id);
        await recordAudit(ctx, { order: row.order_id, subject: 'order', subjectId: row.order_id, action: 'cancelled by partner', changes: { api_key: p.prefix, booking_uuid: uuid, reason: reason ?? null } });
      }
    } else if (row.cart_line_id) {
      await releaseLine(ctx, row.cart_id!, row.cart_line_id).catch(() => undefined);
    }
    const updated = await q.updateReservation(ctx, uuid, { status: 'CANCELLED', cancellation_reason: reason ?? null, updated_at: new Date(), expires_at: null });
    if (row.status === 'CONFIRMED' && row.order_id) await orderEvent(ctx, 'partner_booking.cancelled', row.order_id);
    return view(ctx, p, updated!);
  });
}

/** The slot a booking view came from, as its OCTO availability id. */
export const bookingUuidOk = (uuid: string) => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(uuid);
