import { and, asc, desc, eq, sql } from 'drizzle-orm';
import { baseAccount, booking, customer, experience, invoice, invoiceSequence, order, slot } from '../../../db/schema';
import type { TenantCtx } from '../../../lib/crud';
import { execute } from '../../../db/execute';

/** Invoices and credit notes, their gapless number sequences, and what an invoice is composed from. */

/** The organisation's local date now ("2026-03-01"). */
export async function localDay(ctx: TenantCtx) {
  const rows = (await execute<{ day: string }>(ctx.tx, sql`select (now() at time zone time_zone)::date::text as day from ${baseAccount} where id = ${ctx.accountId}`));
  return rows.rows[0]!.day;
}

/** Takes the next number of a series for a year, in the caller's transaction (its row lock serialises takers; a rollback gives it back). */
export async function takeNumber(ctx: TenantCtx, series: string, year: number) {
  const [row] = await ctx.tx
    .insert(invoiceSequence)
    .values({ account_id: ctx.accountId, series, year, next_number: 2 })
    .onConflictDoUpdate({ target: [invoiceSequence.account_id, invoiceSequence.series, invoiceSequence.year], set: { next_number: sql`${invoiceSequence.next_number} + 1` } })
    .returning({ taken: sql<number>`${invoiceSequence.next_number} - 1` });
  return Number(row!.taken);
}

/** The next number of the INV series for a year, without taking it; undefined before the first. */
export async function nextInvoiceNumberIn(ctx: TenantCtx, year: number) {
  const [row] = await ctx.tx
    .select({ n: invoiceSequence.next_number })
    .from(invoiceSequence)
    .where(and(eq(invoiceSequence.account_id, ctx.accountId), eq(invoiceSequence.series, 'INV'), eq(invoiceSequence.year, year)));
  return row?.n;
}

/** The order's newest invoice that no credit note cancels; undefined when it has none. */
export async function currentInvoiceRow(ctx: TenantCtx, orderId: string) {
  // Spelled out: drizzle would write ${invoice.id} unqualified, which inside the subquery means cn.id.
  const credited = sql`exists (select 1 from invoice cn where cn.credits_invoice_id = invoice.id)`;
  const [row] = await ctx.tx
    .select()
    .from(invoice)
    .where(and(eq(invoice.account_id, ctx.accountId), eq(invoice.order_id, orderId), eq(invoice.kind, 'invoice'), sql`not ${credited}`))
    .orderBy(desc(invoice.issued_at))
    .limit(1);
  return row;
}
export type InvoiceRow = NonNullable<Awaited<ReturnType<typeof currentInvoiceRow>>>;

/** The organisation's row (the seller's details an invoice needs). */
export async function sellerAccount(ctx: TenantCtx) {
  const [a] = await ctx.tx.select().from(baseAccount).where(eq(baseAccount.id, ctx.accountId));
  return a!;
}

/** Inserts an invoice or credit note (its data written next, once its id is known); answers its id. */
export async function insertInvoice(ctx: TenantCtx, values: Omit<typeof invoice.$inferInsert, 'account_id'>) {
  const [row] = await ctx.tx
    .insert(invoice)
    .values({ ...values, account_id: ctx.accountId })
    .returning({ id: invoice.id });
  return row!.id;
}

/** Writes what an invoice or credit note shows (never changed afterwards). */
export async function setInvoiceData(ctx: TenantCtx, id: string, data: NonNullable<typeof invoice.$inferInsert['data']>) {
  await ctx.tx.update(invoice).set({ data }).where(eq(invoice.id, id));
}

/** One invoice or credit note of the order; undefined when not the order's. */
export async function invoiceOfOrder(ctx: TenantCtx, orderId: string, id: string) {
  const [row] = await ctx.tx.select().from(invoice).where(and(eq(invoice.account_id, ctx.accountId), eq(invoice.order_id, orderId), eq(invoice.id, id)));
  return row;
}

/** Every invoice and credit note of the order, oldest first, each with the number of the credit note that cancels it (one query). */
export function invoicesOfOrder(ctx: TenantCtx, orderId: string) {
  return ctx.tx
    .select({ i: invoice, credited_by: sql<string | null>`(select cn.data->>'number' from invoice cn where cn.credits_invoice_id = invoice.id)` })
    .from(invoice)
    .where(and(eq(invoice.account_id, ctx.accountId), eq(invoice.order_id, orderId)))
    .orderBy(asc(invoice.issued_at), asc(invoice.series));
}

/** The order with its customer and the organisation (an invoice's parties). */
export async function orderWithBuyerAndSeller(ctx: TenantCtx, orderId: string) {
  const [head] = await ctx.tx
    .select({ o: order, c: customer, a: baseAccount })
    .from(order)
    .innerJoin(customer, eq(customer.id, order.customer_id))
    .innerJoin(baseAccount, eq(baseAccount.id, order.account_id))
    .where(and(eq(order.account_id, ctx.accountId), eq(order.id, orderId)));
  return head!;
}

/** The order's lines not cancelled, with their items as sold, offer title and start, by start. */
export function soldLinesOfOrder(ctx: TenantCtx, orderId: string) {
  return ctx.tx
    .select({ items: booking.items, title: experience.title, starts_at: slot.starts_at, discount: booking.discount, tax: booking.tax, tax_rate_bp: booking.tax_rate_bp })
    .from(booking)
    .innerJoin(experience, eq(experience.id, booking.experience_id))
    .innerJoin(slot, eq(slot.id, booking.slot_id))
    .where(and(eq(booking.account_id, ctx.accountId), eq(booking.order_id, orderId), sql`${booking.status} <> 'Canceled'`))
    .orderBy(slot.starts_at, booking.id);
}
