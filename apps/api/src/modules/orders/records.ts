import { randomBytes } from 'node:crypto';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { TCustomerDetails, TOrder, TOrderSummary } from '@tourdesk/contracts';
import { auditEvent, booking, bookingQuestion, customer, experience, order, slot, users } from '../../db/schema';
import type { TenantCtx } from '../../lib/crud';
import { AppError, notFound } from '../../lib/errors';
import { listBookings } from './booking-rows';
import { listDocuments, reconcileInvoice } from './invoices';

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
const orderReference = () => `TD-${randomBytes(6).toString('hex').toUpperCase()}`;

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

/** One who/when/what entry of an order's audit trail; the actor is the signed-in user. */
export async function recordAudit(ctx: TenantCtx, e: { order: string | null; subject: 'order' | 'line' | 'payment' | 'invoice'; subjectId: string; action: string; changes?: Record<string, unknown> }) {
  await ctx.tx.insert(auditEvent).values({ account_id: ctx.accountId, order_id: e.order, subject: e.subject, subject_id: e.subjectId, action: e.action, changes: e.changes ?? {}, actor_id: ctx.userId ?? null });
}

/** The largest amount an order can hold, in minor units (a 32-bit integer). */
const MAX_AMOUNT = 2_147_483_647;

/**
 * VAT in a tax-inclusive amount, in integer minor units, rounded half up:
 * tax = round(gross × rate / (10000 + rate)), rate in basis points. The same rule in SQL below.
 */
export function vatOf(gross: number, rateBp: number) {
  if (rateBp === 0) return 0;
  return Math.floor((2 * gross * rateBp + (10000 + rateBp)) / (2 * (10000 + rateBp)));
}

/**
 * An order's totals and payment status from its lines and payments, in one statement: total of
 * the lines not cancelled, their VAT (each line at its experience's rate, else the organisation's;
 * vatOf()'s rounding), and the payment status — Not paid, Partially paid, Fully paid, or Refunded
 * when everything paid was given back.
 */
export async function recomputeOrder(ctx: TenantCtx, orderId: string) {
  const sum = (await ctx.tx.execute(sql`
    select coalesce(sum(total) filter (where status <> 'Canceled'), 0)::bigint as total from ${booking}
    where account_id = ${ctx.accountId} and order_id = ${orderId}::uuid`)) as unknown as { rows: { total: string | number }[] };
  if (Number(sum.rows[0]?.total ?? 0) > MAX_AMOUNT) throw new AppError('invalid', `An order's total cannot exceed ${MAX_AMOUNT} minor units: split it into several orders.`, 'quantities');
  await ctx.tx.execute(sql`
    update ${order} o set
      total = x.total,
      tax_total = x.tax,
      status = case when o.status = 'Canceled' then 'Canceled' when x.open = 0 and x.lines > 0 then 'Canceled' else o.status end,
      payment_status = case
        when o.paid <= 0 and o.refunded > 0 then 'Refunded'
        when o.paid <= 0 then 'Not paid'
        when o.paid < x.total then 'Partially paid'
        else 'Fully paid' end,
      updated_at = now()
    from (
      select coalesce(sum(b.total) filter (where b.status <> 'Canceled'), 0)::int as total,
             coalesce(sum((2 * b.total::bigint * r.rate + (10000 + r.rate)) / (2 * (10000 + r.rate))) filter (where b.status <> 'Canceled'), 0)::int as tax,
             count(*) filter (where b.status <> 'Canceled')::int as open,
             count(*)::int as lines
      from ${booking} b
      join ${experience} e on e.id = b.experience_id
      cross join lateral (select coalesce(e.vat_rate_bp, (select vat_rate_bp from base_account where id = b.account_id)) as rate) r
      where b.account_id = ${ctx.accountId} and b.order_id = ${orderId}::uuid
    ) x
    where o.account_id = ${ctx.accountId} and o.id = ${orderId}::uuid`);
  // An invoiced order whose sale changed gets a credit note (and a new invoice for what it still sells).
  await reconcileInvoice(ctx, orderId);
}

/**
 * Writes an order (Confirmed) with one booking per line, for lines whose seats the caller has
 * secured under their slots' locks: it adds them to the slots' booked seats.
 */
export async function writeOrder(
  ctx: TenantCtx,
  input: {
    userId: string;
    customer: CustomerDetails;
    answers: Record<string, string>;
    notes?: string;
    lines: { slot_id: string; experience_id: string; quantities: Record<string, number>; extras: Record<string, number>; seats: number; total: number }[];
  },
) {
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
    .values({ account_id: ctx.accountId, reference: orderReference(), status, payment_status: 'Not paid', customer_id: found.id, total: 0, currency: ctx.currency, created_by: input.userId, notes: input.notes ?? '' })
    .returning({ id: order.id, reference: order.reference });
  for (const line of input.lines) {
    await ctx.tx.update(slot).set({ booked: sql`${slot.booked} + ${line.seats}`, updated_at: new Date() }).where(eq(slot.id, line.slot_id));
  }
  const bookings = await ctx.tx
    .insert(booking)
    .values(
      input.lines.map((line) => ({
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
        total: line.total,
        currency: ctx.currency,
      })),
    )
    .returning({ id: booking.id });
  await recomputeOrder(ctx, created!.id);
  await recordAudit(ctx, { order: created!.id, subject: 'order', subjectId: created!.id, action: 'created', changes: { reference: created!.reference, customer: found.email, lines: bookings.length, status } });
  return created!.id;
}

/** The order row, locked for the rest of the transaction (payments and line changes serialise on it). */
export async function lockOrder(ctx: TenantCtx, id: string) {
  const [row] = await ctx.tx.select().from(order).where(and(eq(order.account_id, ctx.accountId), eq(order.id, id))).for('update');
  if (!row) throw notFound('No order with this id.');
  return row;
}

export async function presentOrder(ctx: TenantCtx, id: string): Promise<TOrder> {
  const [o] = await ctx.tx
    .select({ o: order, c: customer, seller_first: users.first_name, seller_last: users.last_name, seller_email: users.email })
    .from(order)
    .innerJoin(customer, eq(customer.id, order.customer_id))
    .leftJoin(users, eq(users.id, order.created_by))
    .where(and(eq(order.account_id, ctx.accountId), eq(order.id, id)));
  if (!o) throw notFound('No order with this id.');
  const bookings = await listBookings(ctx, { order: id });
  const documents = await listDocuments(ctx, id);
  const current = documents.findLast((d) => d.kind === 'invoice' && !d.credited_by);
  return {
    ...orderSummary(o.o, o.c, { first: o.seller_first, last: o.seller_last, email: o.seller_email }, bookings.length),
    tax_total: o.o.tax_total,
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
): TOrderSummary {
  return {
    id: o.id,
    reference: o.reference,
    status: o.status as TOrderSummary['status'],
    payment_status: o.payment_status as TOrderSummary['payment_status'],
    total: o.total,
    paid: o.paid,
    currency: o.currency,
    customer: { id: c.id, email: c.email, first_name: c.first_name, last_name: c.last_name },
    seller: o.created_by ? { id: o.created_by, name: personName(seller.first, seller.last, seller.email) } : null,
    store: null,
    lines,
    created_at: o.created_at.toISOString(),
  };
}

export const personName = (first: string | null, last: string | null, email: string | null) => [first, last].filter(Boolean).join(' ') || email || '';

