import { randomBytes } from 'node:crypto';
import { and, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { TCustomerDetails, TOrder, TOrderSummary } from '@tourdesk/contracts';
import { booking, bookingQuestion, customer, experience, order, qrCode, slot, store, users, type HeldItem } from '../../db/schema';
import type { TenantCtx } from '../../lib/crud';
import { AppError, notFound } from '../../lib/errors';
import type { TInvoice } from '@tourdesk/contracts';
import { listBookings } from './booking-rows';
import { checkSellerDetails, isInvoiced, issueInvoice, listDocuments, localToday, reconcileInvoice, takeNumber } from './invoices';
import { lockOrder, personName, recordAudit } from './order-basics';
import { cancellationFeeByRate, rateOf, sellLine, vatRates } from './sale';
import { assertWithinLimit } from '../plans/service';

export { lockOrder, personName, recordAudit } from './order-basics';
export { vatOf } from './sale';

/**
 * Orders as records: writing one from booked lines, keeping its totals and payment status (only
 * ever computed here, from its lines and payments), presenting it, and the audit trail.
 */

export type CustomerDetails = TCustomerDetails;

/** The customer with this e-mail (in any case), updated with the latest details, or a new one. */
export async function upsertCustomer(ctx: TenantCtx, details: CustomerDetails) {
  // One statement: two sales to the same new e-mail at once make one customer, not a 500.
  const rows = (await ctx.tx.execute(sql`
    insert into ${customer} (account_id, email, first_name, last_name, phone, country, marketing_consent)
    values (${ctx.accountId}, ${details.email}, ${details.first_name}, ${details.last_name}, ${details.phone}, ${details.country}, ${details.marketing_consent})
    on conflict (account_id, lower(email)) do update set
      first_name = excluded.first_name,
      last_name = coalesce(nullif(excluded.last_name, ''), ${customer}.last_name),
      phone = coalesce(nullif(excluded.phone, ''), ${customer}.phone),
      country = coalesce(excluded.country, ${customer}.country),
      updated_at = now()
    returning id, email`)) as unknown as { rows: { id: string; email: string }[] };
  return rows.rows[0]!;
}

/** An unguessable ticket code, readable from a QR code or over the phone. */
const ticketCode = () => randomBytes(10).toString('base64url').replace(/[-_]/g, 'X').toUpperCase().slice(0, 12);
/** 48 random bits: a clash is unlikely even at millions of orders (and the unique index refuses one). */
/**
 * An order's reference, which people read out and type: the organisation's local year and the
 * order's number in it, 2026-000123 (series ORD of invoice_sequence, taken in the order's
 * transaction). Orders made before this rule keep their TD-… references.
 */
async function orderReference(ctx: TenantCtx) {
  const { year } = await localToday(ctx);
  return `${year}-${String(await takeNumber(ctx, 'ORD', year)).padStart(6, '0')}`;
}

/**
 * The answers to the booking questions of the experiences being booked: every required question
 * answered, nothing answered that was not asked, a number for a number, yes or no for yes/no, one
 * of the choices for a choice. One query for the questions of all the cart's experiences.
 */
export async function checkAnswers(ctx: TenantCtx, slotIds: string[], answers: Record<string, string>) {
  const questions = await ctx.tx
    .selectDistinct({ q: bookingQuestion })
    .from(slot)
    .innerJoin(experience, eq(experience.id, slot.experience_id))
    .innerJoin(bookingQuestion, sql`${bookingQuestion.id} = any(${experience.booking_question_ids})`)
    .where(and(eq(slot.account_id, ctx.accountId), inArray(slot.id, slotIds)));
  const asked = new Map(questions.map(({ q }) => [q.id, q]));
  for (const id of Object.keys(answers)) {
    if (!asked.has(id)) throw new AppError('invalid', 'This question is not asked for these bookings.', `answers.${id}`);
  }
  for (const q of asked.values()) {
    const answer = (answers[q.id] ?? '').trim();
    const attr = `answers.${q.id}`;
    if (!answer) {
      if (q.required) throw new AppError('required', `Please answer: ${q.question}`, attr);
      continue;
    }
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
export async function recomputeOrder(ctx: TenantCtx, orderId: string) {
  // An invoiced order is invoiced again when it changes: a line sold meanwhile without a VAT rate
  // takes today's, and without one set the change is refused (never a 0 % invoice).
  if (await isInvoiced(ctx, orderId)) await applyPendingRates(ctx, orderId);
  const sum = (await ctx.tx.execute(sql`
    select coalesce(sum(total), 0)::bigint as total from ${booking}
    where account_id = ${ctx.accountId} and order_id = ${orderId}::uuid`)) as unknown as { rows: { total: string | number }[] };
  if (Number(sum.rows[0]?.total ?? 0) > MAX_AMOUNT) throw new AppError('invalid', `An order's total cannot exceed ${MAX_AMOUNT} minor units: split it into several orders.`, 'quantities');
  const feeTax = (await cancellationFeeByRate(ctx, orderId)).reduce((s, r) => s + r.tax, 0);
  await ctx.tx.execute(sql`
    update ${order} o set
      total = x.total + x.fee,
      sold_total = x.sold,
      tax_total = x.tax + ${feeTax}::int,
      cancellation_fee = x.fee,
      status = case when o.status = 'Canceled' then 'Canceled' when x.open = 0 and x.lines > 0 then 'Canceled' else o.status end,
      payment_status = ${paymentStatus(sql`o.paid`, sql`(x.total + x.fee)`, sql`o.refunded`)},
      updated_at = now()
    from (
      select coalesce(sum(b.total) filter (where b.status <> 'Canceled'), 0)::int as total,
             coalesce(sum(b.cancellation_fee) filter (where b.status = 'Canceled'), 0)::int as fee,
             coalesce(sum(b.total), 0)::int as sold,
             coalesce(sum(b.tax) filter (where b.status <> 'Canceled'), 0)::int as tax,
             count(*) filter (where b.status <> 'Canceled')::int as open,
             count(*)::int as lines
      from ${booking} b
      where b.account_id = ${ctx.accountId} and b.order_id = ${orderId}::uuid
    ) x
    where o.account_id = ${ctx.accountId} and o.id = ${orderId}::uuid`);
  // An invoiced order whose sale changed gets a credit note (and a new invoice for what it still sells).
  await reconcileInvoice(ctx, orderId);
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
  const pending = await ctx.tx
    .select({ id: booking.id, experience_id: booking.experience_id, items: booking.items })
    .from(booking)
    .where(and(eq(booking.account_id, ctx.accountId), eq(booking.order_id, orderId), eq(booking.tax_rate_pending, true)));
  if (checkFirst || pending.length > 0) await checkSellerDetails(ctx);
  if (pending.length === 0) return false;
  const rates = await vatRates(ctx, pending.map((b) => b.experience_id));
  for (const b of pending) {
    const rate = rateOf(rates, b.experience_id);
    const items = b.items.map(({ kind, id, label, quantity, unit_price }) => ({ kind, id, label, quantity, unit_price }));
    await ctx.tx.update(booking).set({ ...sellLine(items, rate), updated_at: new Date() }).where(eq(booking.id, b.id));
    await recordAudit(ctx, { order: orderId, subject: 'line', subjectId: b.id, action: 'VAT rate applied', changes: { tax_rate_bp: rate.rateBp } });
  }
  return true;
}

/** The one rule of the payment status, as SQL over paid (net of refunds), owed and refunded. */
export function paymentStatus(paid: SQL, owed: SQL, refunded: SQL) {
  return sql`case
        when ${paid} > ${owed} then 'Refund due'
        when ${paid} = ${owed} and ${owed} > 0 then 'Fully paid'
        when ${paid} <= 0 and ${refunded} > 0 and ${owed} = 0 then 'Refunded'
        when ${paid} <= 0 then 'Not paid'
        else 'Partially paid' end`;
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
 * Writes an order (Confirmed) with one booking per line, for lines whose seats the caller has
 * secured under their slots' locks: it adds them to the slots' booked seats.
 */
export async function writeOrder(
  ctx: TenantCtx,
  input: {
    /** The team member who sold it; null for a web store's order. */
    userId: string | null;
    /** The web store it was sold in, and the hash of its customer's "my booking" secret. */
    storeId?: string;
    manageTokenHash?: string;
    customer: CustomerDetails;
    answers: Record<string, string>;
    notes?: string;
    lines: LineToWrite[];
  },
) {
  await assertWithinLimit(ctx, 'bookings_per_month', input.lines.length);
  const found = await upsertCustomer(ctx, input.customer);
  // An experience confirmed by hand (confirmation_mode 'manual') makes the order wait, as
  // Created ("Unconfirmed"), with its seats reserved, until the operator confirms it.
  const manual = await ctx.tx
    .select({ id: experience.id })
    .from(experience)
    .where(and(eq(experience.account_id, ctx.accountId), inArray(experience.id, [...new Set(input.lines.map((l) => l.experience_id))]), eq(experience.confirmation_mode, 'manual')));
  const status = manual.length > 0 ? 'Created' : 'Confirmed';
  const [created] = await ctx.tx
    .insert(order)
    .values({
      account_id: ctx.accountId,
      reference: await orderReference(ctx),
      status,
      payment_status: 'Not paid',
      customer_id: found.id,
      total: 0,
      currency: ctx.currency,
      created_by: input.userId,
      store_id: input.storeId ?? null,
      manage_token_hash: input.manageTokenHash ?? null,
      notes: input.notes ?? '',
    })
    .returning({ id: order.id, reference: order.reference });
  for (const line of input.lines) {
    await ctx.tx.update(slot).set({ booked: sql`${slot.booked} + ${line.seats}`, updated_at: new Date() }).where(eq(slot.id, line.slot_id));
  }
  // Money fixed as sold: each line's items at today's VAT rate of its experience.
  const rates = await vatRates(ctx, input.lines.map((l) => l.experience_id));
  const titles = new Map(
    (await ctx.tx.select({ id: experience.id, title: experience.title }).from(experience).where(and(eq(experience.account_id, ctx.accountId), inArray(experience.id, [...rates.keys()])))).map((e) => [e.id, e.title]),
  );
  const bookings = await ctx.tx
    .insert(booking)
    .values(
      input.lines.map((line) => ({
        ...sellLine(itemsToSell(line, titles.get(line.experience_id) ?? ''), rateOf(rates, line.experience_id)),
        account_id: ctx.accountId,
        order_id: created!.id,
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
    )
    .returning({ id: booking.id });
  await recomputeOrder(ctx, created!.id);
  await recordAudit(ctx, { order: created!.id, subject: 'order', subjectId: created!.id, action: 'created', changes: { reference: created!.reference, customer: found.email, lines: bookings.length, status } });
  return created!.id;
}


export async function presentOrder(ctx: TenantCtx, id: string): Promise<TOrder> {
  const [o] = await ctx.tx
    .select({ o: order, c: customer, seller_first: users.first_name, seller_last: users.last_name, seller_email: users.email, store_name: store.name, qr_name: qrCode.name })
    .from(order)
    .innerJoin(customer, eq(customer.id, order.customer_id))
    .leftJoin(users, eq(users.id, order.created_by))
    .leftJoin(store, eq(store.id, order.store_id))
    .leftJoin(qrCode, eq(qrCode.id, order.qr_code_id))
    .where(and(eq(order.account_id, ctx.accountId), eq(order.id, id)));
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
    refunded: o.o.refunded,
    balance: o.o.total - o.o.paid,
    notes: o.o.notes,
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


