import { randomBytes, randomUUID } from 'node:crypto';
import { LANGUAGE_LOCALES, type Language } from '@tourdesk/contracts/i18n';
import { missingAnswers, type TCustomerDetails, type TOrder, type TOrderSummary, type WebhookEventType } from '@tourdesk/contracts';
import type { HeldItem, order } from '../../db/schema';
import type { TenantCtx } from '../../lib/crud';
import { AppError, notFound } from '../../lib/errors';
import type { TInvoice } from '@tourdesk/contracts';
import { getBooking, listBookings } from './booking-rows';
import { checkSellerDetails, isInvoiced, issueInvoice, listDocuments, reconcileInvoice } from './invoices';
import { lockOrder, personName, recordAudit } from './order-basics';
import { insertBookings, orderReference, pendingRateBookings, sellSeats, updateBookingSale, type SaleAtCommit } from './queries/bookings';
import { findOrInsertCustomer, upsertCustomer } from './queries/customers';
import { experienceTitles, manualExperiences, questionsOfSlots } from './queries/experiences';
import { insertOrder, orderWithParties, sumOfLineTotals, writeOrderTotals } from './queries/orders';
import { cancellationFeeByRate, lineDescription, orderDiscount, rateOf, sellLine, vatRates } from './sale';
import { applyPromo, takePromoUse } from '../promo-codes/apply';
import { departuresOf } from './queries/sale';
import { assertWithinLimit } from '../plans/service';
import { sellingLanguages } from '../organization/queries';
import { wordsIn } from './words-in';
import { emitEvent, typesListenedTo } from '../webhooks/events';
import { ordersWritten } from '../../lib/metrics';

export { lockOrder, personName, recordAudit } from './order-basics';
export { vatOf } from './sale';

/**
 * Orders as records: writing one from booked lines, keeping its totals and payment status (only
 * ever computed here, from its lines and payments), presenting it, and the audit trail.
 */

export type CustomerDetails = TCustomerDetails;

/** An unguessable ticket code, readable from a QR code or over the phone. */
const ticketCode = () => randomBytes(10).toString('base64url').replace(/[-_]/g, 'X').toUpperCase().slice(0, 12);

/**
 * The answers to the booking questions of the experiences being booked: every required question
 * answered, nothing answered that was not asked, a number for a number, yes or no for yes/no, one
 * of the choices for a choice. One query for the questions of all the cart's experiences.
 * `allowMissing`: a required question may stay unanswered (missingAnswers() lists it later).
 */
export async function checkAnswers(ctx: TenantCtx, slotIds: string[], answers: Record<string, string>, options: { allowMissing?: boolean } = {}) {
  validateAnswers((await questionsOfSlots(ctx, slotIds)).map(({ q }) => q), answers, options);
}

/** checkAnswers()'s rule on questions already read (answers.ts passes each booking's own). */
export function validateAnswers(
  questions: readonly { id: string; question: string; answer_type: string; choices: string[]; required: boolean }[],
  answers: Record<string, string>,
  { allowMissing = false }: { allowMissing?: boolean } = {},
) {
  const asked = new Map(questions.map((q) => [q.id, q]));
  for (const id of Object.keys(answers)) {
    if (!asked.has(id)) throw new AppError('invalid', 'This question is not asked for these bookings.', `answers.${id}`);
  }
  const unanswered = new Set(missingAnswers([...asked.values()], answers).map((q) => q.id));
  for (const q of asked.values()) {
    const answer = (answers[q.id] ?? '').trim();
    const attr = `answers.${q.id}`;
    if (unanswered.has(q.id) && !allowMissing) throw new AppError('required', `Please answer: ${q.question}`, attr);
    if (!answer) continue;
    if (q.answer_type === 'number' && !/^-?\d+(\.\d+)?$/.test(answer)) throw new AppError('invalid', `Answer with a number: ${q.question}`, attr);
    if (q.answer_type === 'yes_no' && !['yes', 'no'].includes(answer)) throw new AppError('invalid', `Answer yes or no: ${q.question}`, attr);
    if (q.answer_type === 'choice' && !q.choices.includes(answer)) throw new AppError('invalid', `Choose one of the options: ${q.question}`, attr);
  }
}


/** The largest amount an order can hold, in minor units (a 32-bit integer). */
const MAX_AMOUNT = 2_147_483_647;


/**
 * An order's totals and payment status, in one statement, from the figures stored on its lines when
 * they were sold (never from today's rates or prices): total and VAT of the lines not cancelled plus
 * the cancellation fee kept for cancelled ones (its VAT at their rates, cancellationFeeByRate()),
 * sold_total of every line ever sold (what a cancelled order was worth), and the payment status,
 * which follows the money — Refund due when more was paid than is owed (a cancelled paid order),
 * Fully paid when paid equals what is owed (a cancelled order whose fee is paid and the rest
 * refunded), Refunded when everything paid was given back and nothing is owed, Not paid, or
 * Partially paid. A negative balance is never "Fully paid".
 */
export async function recomputeOrder(ctx: TenantCtx, orderId: string, { fresh = false } = {}) {
  // An invoiced order is invoiced again when it changes: a line sold meanwhile without a VAT rate
  // takes today's, and without one set the change is refused (never a 0 % invoice). An order
  // written in this transaction (`fresh`, writeOrder()) has no invoice yet: nothing to read.
  if (!fresh && (await isInvoiced(ctx, orderId))) await applyPendingRates(ctx, orderId);
  if ((await sumOfLineTotals(ctx, orderId)) > MAX_AMOUNT) throw new AppError('invalid', `An order's total cannot exceed ${MAX_AMOUNT} minor units: split it into several orders.`, 'quantities');
  const feeTax = (await cancellationFeeByRate(ctx, orderId)).reduce((s, r) => s + r.tax, 0);
  await writeOrderTotals(ctx, orderId, feeTax);
  // An invoiced order whose sale changed gets a credit note (and a new invoice for what it still sells).
  if (!fresh) await reconcileInvoice(ctx, orderId);
}

/**
 * "Issue invoice": the seller's details are checked first (unless the order is invoiced already);
 * lines sold before the organisation set its VAT rate (tax_rate_pending) are given the rate of
 * today — the invoice is their tax point — with their gross unchanged and the order's totals
 * recomputed; then the invoice is issued.
 */
export async function invoiceOrder(ctx: TenantCtx, orderId: string): Promise<TInvoice> {
  await lockOrder(ctx, orderId);
  if (!(await isInvoiced(ctx, orderId)) && (await applyPendingRates(ctx, orderId, { checkFirst: true }))) await recomputeOrder(ctx, orderId);
  return issueInvoice(ctx, orderId);
}

/**
 * Gives the order's lines whose VAT rate is pending the rate of today (their gross unchanged),
 * after checking that the seller's details and rate are set (a 400 naming what is missing);
 * answers whether any line changed. `checkFirst` checks even when no line is pending.
 */
async function applyPendingRates(ctx: TenantCtx, orderId: string, { checkFirst = false } = {}) {
  const pending = await pendingRateBookings(ctx, orderId);
  if (checkFirst || pending.length > 0) await checkSellerDetails(ctx);
  if (pending.length === 0) return false;
  const rates = await vatRates(ctx, pending.map((b) => b.experience_id));
  for (const b of pending) {
    const rate = rateOf(rates, b.experience_id);
    const items = b.items.map(({ kind, id, label, quantity, unit_price }) => ({ kind, id, label, quantity, unit_price }));
    // Its promo discount stays as sold; its VAT is that of the discounted gross at the new rate.
    await updateBookingSale(ctx, b.id, sellLine(items, rate, b.items[0]?.sold_as, (i) => b.items.find((x) => x.id === i.id && x.kind === i.kind)?.sold_label, b.discount));
    await recordAudit(ctx, { order: orderId, subject: 'line', subjectId: b.id, action: 'VAT rate applied', changes: { tax_rate_bp: rate.rateBp } });
  }
  return true;
}

/** A line to write: held or priced items, fixed as sold by writeOrder. */
export interface LineToWrite {
  slot_id: string;
  experience_id: string;
  quantities: Record<string, number>;
  extras: Record<string, number>;
  seats: number;
  total: number;
  items: HeldItem[];
  /** The currency the line was priced in (the held cart line's, or tourdesk_price's): the order's, or writeOrder refuses. */
  currency: string;
}

/**
 * A line's items as sold today: its VAT at today's rate, fixed from now on. A cart line held before
 * lines carried their items (an upgrade in the middle of a hold) is sold as one item.
 */
export function itemsToSell(line: LineToWrite, title: string): HeldItem[] {
  const sum = line.items.reduce((s, i) => s + i.quantity * i.unit_price, 0);
  if (line.items.length > 0 && sum === line.total) return line.items;
  return [{ kind: 'category', id: line.experience_id, label: title, quantity: 1, unit_price: line.total }];
}

/**
 * The words a sale is written in, in the customer's language (`wordsIn()`, the rule its tickets
 * follow too): the offers' titles and the items' labels (pricing categories, extras). None in the
 * organisation's main language (the rows' own words are written as they are); else two queries.
 */
export async function saleWords(ctx: TenantCtx, language: Language, main: Language, experienceIds: string[], items: Pick<HeldItem, 'kind' | 'id' | 'label'>[]) {
  const titles = new Map<string, string>();
  if (language === main) return { title: (id: string) => titles.get(id), label: (_item: HeldItem): string | undefined => undefined };
  const words = await wordsIn(ctx, language, main, items);
  for (const e of await experienceTitles(ctx, experienceIds)) titles.set(e.id, words.title(e));
  return { title: (id: string) => titles.get(id), label: (item: HeldItem): string | undefined => words.label(item) };
}

/**
 * Writes an order (Confirmed) with one booking per line, its reference (tourdesk_order_reference(),
 * a sequence: no lock), customer, promo code, bookings, totals, audit and events. A checkout's
 * (`sale`: the cart's held lines) seats are sold when its transaction commits
 * (tourdesk_sale_at_commit(), 04-carts.sql: the slots' locks, the lines' seats, the promo code's
 * use and the waiting list's entry), so a slot's lock is held only through the commit itself — what
 * the next sale of the slot waits for — and everything the caller adds (a voucher, the confirmation,
 * the answer) comes before it. Without `sale` (createOrder(), whose caller locked the slots and
 * checked the seats), the lines' seats are added to their slots' booked seats now, then the promo
 * code's use is taken.
 */
export async function writeOrder(
  ctx: TenantCtx,
  input: {
    /** The team member who sold it (of ctx's organisation): only their sale updates the customer's record; null for a web store's order, a partner's (OCTO, the public API) and a reseller's counter sale. */
    userId: string | null;
    /** The web store it was sold in, and the hash of its customer's "my booking" secret. */
    storeId?: string;
    manageTokenHash?: string;
    customer: CustomerDetails;
    answers: Record<string, string>;
    notes?: string;
    lines: LineToWrite[];
    /** The customer's language (their cart's, or negotiated with a partner's call); absent: the organisation's main one. */
    language?: Language;
    /** A promo code (the web store's cart, the counter): applyPromo() takes a use of it here, or refuses the sale. */
    promoCode?: string;
    /** The order's reference, when the caller took it already (createOrder(), a sale without `sale`: before it locks its slots). */
    reference?: string;
    /** A checkout's cart: its held lines' seats are sold at the commit (tourdesk_sale_at_commit()), the lines as the checkout read them. */
    sale?: Omit<SaleAtCommit, 'promo'>;
  },
) {
  // One currency per sale: a line priced in another currency than the order's (a store or a contract
  // left on an old code) is refused, never sold as if the amounts were the order's (issue 28).
  const foreign = input.lines.find((l) => l.currency !== ctx.currency);
  if (foreign) {
    throw new AppError('conflict', `This sale is in ${ctx.currency} but its offer is priced in ${foreign.currency}: nothing was booked. The store's or the partnership's currency is not the organisation's; ask the organisation to correct it.`, 'lines');
  }
  await assertWithinLimit(ctx, 'bookings_per_month', input.lines.length);
  // Only a team member's own sale updates the customer's record; a web store's, a partner API's or
  // a reseller's counter's details are kept on the order alone (issue 29).
  const found = input.userId ? await upsertCustomer(ctx, input.customer) : await findOrInsertCustomer(ctx, input.customer);
  // An experience confirmed by hand (confirmation_mode 'manual') makes the order wait, as
  // Created ("Unconfirmed"), with its seats reserved, until the operator confirms it.
  const manual = await manualExperiences(ctx, [...new Set(input.lines.map((l) => l.experience_id))]);
  const status = manual.length > 0 ? 'Created' : 'Confirmed';
  const main = (await sellingLanguages(ctx.tx, { id: ctx.accountId }))[0]!;
  const language = input.language ?? main;
  // A promo code is checked here and its discount fixed on the lines below; one of its uses is
  // taken once the slots are locked (takePromoUse(): slots, then the code, as every writer locks).
  const promo = input.promoCode
    ? await applyPromo(ctx, {
        code: input.promoCode,
        storeId: input.storeId ?? null,
        email: input.customer.email,
        lines: input.lines.map((l, i) => ({ key: String(i), experience_id: l.experience_id, slot_id: l.slot_id, items: itemsToSell(l, '') })),
      })
    : null;
  // Not locked: the organisation's sequence for the year (a refused sale leaves a gap).
  // Sold at the commit: the lines as read, and the promo code's use (taken there after the slots).
  const orderId = randomUUID();
  const reference = input.reference ?? await orderReference(ctx, input.sale ? { orderId, sale: { ...input.sale, promo: promo ? { id: promo.id, code: promo.code, email: input.customer.email ?? null } : null } } : undefined);
  const created = await insertOrder(ctx, {
    id: orderId,
    language,
    reference,
    status,
    payment_status: 'Not paid',
    customer_id: found.id,
    customer_email: input.customer.email,
    customer_first_name: input.customer.first_name,
    customer_last_name: input.customer.last_name,
    customer_phone: input.customer.phone,
    customer_country: input.customer.country,
    total: 0,
    currency: ctx.currency,
    created_by: input.userId,
    store_id: input.storeId ?? null,
    manage_token_hash: input.manageTokenHash ?? null,
    notes: input.notes ?? '',
    promo_code_id: promo?.id ?? null,
    promo_code: promo?.code ?? null,
  });
  // Counted as written in its transaction (a transaction rolled back later still counts: rare, and a rate wants no commit hook).
  ordersWritten.inc();
  // Money fixed as sold: each line's items at today's VAT rate of its experience.
  const rates = await vatRates(ctx, input.lines.map((l) => l.experience_id));
  const titles = new Map((await experienceTitles(ctx, [...rates.keys()])).map((e) => [e.id, e.title]));
  // Described as sold, for every invoice of it, in the customer's language: the offer's title, its
  // departure and each item's label as they are today.
  const words = await saleWords(ctx, language, main, [...rates.keys()], input.lines.flatMap((l) => l.items));
  const departures = await departuresOf(ctx, [...new Set(input.lines.map((l) => l.slot_id))]);
  const soldAs = (line: LineToWrite) => {
    const d = departures.get(line.slot_id);
    return d ? lineDescription(words.title(line.experience_id) ?? titles.get(line.experience_id) ?? '', d.starts_at, d.zone, d.time_format === '12h' ? '12h' : '24h', LANGUAGE_LOCALES[language]) : undefined;
  };
  const bookings = await insertBookings(
    ctx,
    input.lines.map((line, i) => ({
      ...sellLine(itemsToSell(line, titles.get(line.experience_id) ?? ''), rateOf(rates, line.experience_id), soldAs(line), words.label, promo?.discounts.get(String(i)) ?? 0),
      order_id: created.id,
      experience_id: line.experience_id,
      slot_id: line.slot_id,
      status,
      ticket_code: ticketCode(),
      quantities: line.quantities,
      extras: line.extras,
      answers: input.answers,
      seats: line.seats,
      currency: ctx.currency,
    })),
  );
  await recomputeOrder(ctx, created.id, { fresh: true });
  const listening = await typesListenedTo(ctx, ['order.created', 'booking.created']);
  if (!input.sale) {
    await bookLines(ctx, created.id, input.lines);
    if (promo) await takePromoUse(ctx, promo, input.customer.email);
  }
  await recordAudit(ctx, { order: created.id, subject: 'order', subjectId: created.id, action: 'created', changes: { reference, customer: found.email, lines: bookings.length, status } });
  if (promo) await recordAudit(ctx, { order: created.id, subject: 'order', subjectId: created.id, action: 'promo code applied', changes: { code: promo.code, discount: promo.amount } });
  if (listening.has('order.created')) await orderEvent(ctx, 'order.created', created.id);
  if (listening.has('booking.created')) await bookingEvent(ctx, 'booking.created', created.id, bookings.map((b) => b.id));
  return created.id;
}

/** A sale without a cart: its lines' seats added to booked, under the slots' locks its caller took and checked (the CHECK refuses an oversell). */
async function bookLines(ctx: TenantCtx, orderId: string, lines: LineToWrite[]) {
  const book: Record<string, number> = {};
  for (const l of lines) book[l.slot_id] = (book[l.slot_id] ?? 0) + l.seats;
  await sellSeats(ctx, orderId, { slots: Object.keys(book).sort(), book });
}

/**
 * The webhook events of orders and bookings (modules/webhooks), each sent from the one place its
 * change happens, in that change's transaction: the data is the order or the booking as the API
 * answers it (GET /api/orders/{id}/, GET /api/bookings/{id}/) right after the change.
 */
export const orderEvent = (ctx: TenantCtx, type: Extract<WebhookEventType, `order.${string}` | `partner_booking.${string}`>, orderId: string) =>
  emitEvent(ctx, type, orderId, () => presentOrder(ctx, orderId));

export async function bookingEvent(ctx: TenantCtx, type: Extract<WebhookEventType, `booking.${string}`>, orderId: string, bookingIds: string[]) {
  for (const id of bookingIds) await emitEvent(ctx, type, orderId, () => getBooking(ctx, id));
}


export async function presentOrder(ctx: TenantCtx, id: string): Promise<TOrder> {
  const o = await orderWithParties(ctx, id);
  if (!o) throw notFound('No order with this id.');
  const bookings = await listBookings(ctx, { order: id });
  const documents = await listDocuments(ctx, id);
  const current = documents.findLast((d) => d.kind === 'invoice' && !d.credited_by);
  return {
    ...orderSummary(o.o, o.c, { first: o.seller_first, last: o.seller_last, email: o.seller_email }, bookings.length, o.store_name),
    qr_code: o.o.qr_code_id ? { id: o.o.qr_code_id, name: o.qr_name ?? '' } : null,
    tax_total: o.o.tax_total,
    sold_total: o.o.sold_total,
    cancellation_fee: o.o.cancellation_fee,
    discount: orderDiscount(o.o.promo_code, bookings),
    refunded: o.o.refunded,
    balance: o.o.total - o.o.paid,
    balance_due_on: o.o.balance_due_on,
    notes: o.o.notes,
    language: o.o.language,
    invoice: current ? { id: current.id, number: current.number, issued_at: current.issued_at } : null,
    invoices: documents,
    bookings,
    updated_at: o.o.updated_at.toISOString(),
  };
}

/** An order as the list shows it (the order page adds its lines, money details and invoice). */
export function orderSummary(
  o: typeof order.$inferSelect,
  c: { id: string; email: string; first_name: string; last_name: string },
  seller: { first: string | null; last: string | null; email: string | null },
  lines: number,
  storeName: string | null = null,
): TOrderSummary {
  return {
    id: o.id,
    reference: o.reference,
    status: o.status as TOrderSummary['status'],
    payment_status: o.payment_status as TOrderSummary['payment_status'],
    total: o.total,
    sold_total: o.sold_total,
    paid: o.paid,
    refunded: o.refunded,
    currency: o.currency,
    customer: { id: c.id, email: c.email, first_name: c.first_name, last_name: c.last_name },
    seller: o.created_by ? { id: o.created_by, name: personName(seller.first, seller.last, seller.email) } : null,
    store: o.store_id ? { id: o.store_id, name: storeName ?? '' } : null,
    lines,
    created_at: o.created_at.toISOString(),
  };
}


