import { and, asc, desc, eq, sql, type SQL } from 'drizzle-orm';
import type { TOrderListQuery } from '@tourdesk/contracts';
import { booking, customer, invoice, order, orderPayment, qrCode, store, users } from '../../../db/schema';
import type { TenantCtx } from '../../../lib/crud';
import { asGiven } from './customers';
import { execute } from '../../../db/execute';

/** Orders' rows: the list, one order with its parties, its lock, its writes and its totals. */

export type OrderListFilter = Omit<TOrderListQuery, 'page' | 'page_size'>;

const DAYS: Record<string, number> = { '7 days': 7, '30 days': 30, '2 months': 61 };
const STATUS: Record<string, string> = { Confirmed: 'Confirmed', Unconfirmed: 'Created', Canceled: 'Canceled' };

function listWhere(ctx: TenantCtx, f: OrderListFilter): SQL | undefined {
  const term = f.search ? `%${f.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : undefined;
  return and(
    eq(order.account_id, ctx.accountId),
    f.date_range && f.date_range !== 'all' ? sql`${order.created_at} >= now() - make_interval(days => ${DAYS[f.date_range]!})` : undefined,
    f.payment_status ? eq(order.payment_status, f.payment_status) : undefined,
    f.status ? eq(order.status, STATUS[f.status]!) : undefined,
    f.seller ? eq(order.created_by, f.seller) : undefined,
    f.store ? eq(order.store_id, f.store) : undefined,
    f.customer ? eq(order.customer_id, f.customer) : undefined,
    term
      ? sql`(${order.reference} ilike ${term} or ${customer.email} ilike ${term} or (${customer.first_name} || ' ' || ${customer.last_name}) ilike ${term})`
      : undefined,
  );
}

const ORDERINGS = {
  created_at: [asc(order.created_at), asc(order.id)],
  '-created_at': [desc(order.created_at), desc(order.id)],
  total: [asc(order.total), asc(order.id)],
  '-total': [desc(order.total), desc(order.id)],
  reference: [asc(order.reference)],
  '-reference': [desc(order.reference)],
} as const;

/** How many orders the list's filter matches (the customer joined only to search). */
export async function countOrders(ctx: TenantCtx, f: OrderListFilter) {
  const query = ctx.tx.select({ n: sql<number>`count(*)::int` }).from(order);
  const [row] = f.search ? await query.innerJoin(customer, eq(customer.id, order.customer_id)).where(listWhere(ctx, f)) : await query.where(listWhere(ctx, f));
  return Number(row?.n ?? 0);
}

/**
 * A page of orders, filtered, ordered and paged in SQL: the page's ids first (an index scan that
 * stops at LIMIT, joining the customer only to search), then only those rows joined with their
 * customer, seller, store and line count. Joining first would read, join and sort every matching
 * order of the organisation before the LIMIT (the planner cannot know orders only point to their
 * own organisation's customers) — measured by scripts/bench-orders.ts.
 */
export async function pageOrderRows(ctx: TenantCtx, f: OrderListFilter, limit: number, offset: number) {
  const ordering = ORDERINGS[f.ordering ?? '-created_at'];
  const idsQuery = ctx.tx.select({ id: order.id }).from(order);
  const page = (f.search ? idsQuery.innerJoin(customer, eq(customer.id, order.customer_id)) : idsQuery).where(listWhere(ctx, f)).orderBy(...ordering).limit(limit).offset(offset).as('page');
  // Each order's customer as given with it (asGiven).
  const rows = await ctx.tx
    .select({
      o: order,
      c: { id: customer.id, email: customer.email, first_name: customer.first_name, last_name: customer.last_name },
      seller_first: users.first_name,
      seller_last: users.last_name,
      seller_email: users.email,
      store_name: store.name,
      lines: sql<number>`(select count(*)::int from ${booking} b where b.account_id = ${order.account_id} and b.order_id = ${order.id})`,
    })
    .from(page)
    .innerJoin(order, eq(order.id, page.id))
    .innerJoin(customer, eq(customer.id, order.customer_id))
    .leftJoin(users, eq(users.id, order.created_by))
    .leftJoin(store, eq(store.id, order.store_id))
    .orderBy(...ordering);
  return rows.map((r) => ({ ...r, c: asGiven(r.o, r.c) }));
}

/** The users who sold this organisation's orders (the list's seller filter). */
export function orderSellers(ctx: TenantCtx) {
  return ctx.tx
    .selectDistinct({ id: users.id, first: users.first_name, last: users.last_name, email: users.email })
    .from(order)
    .innerJoin(users, eq(users.id, order.created_by))
    .where(eq(order.account_id, ctx.accountId));
}

/** The web stores this organisation's orders were sold in (the list's store filter). */
export function orderStores(ctx: TenantCtx) {
  return ctx.tx.selectDistinct({ id: store.id, name: store.name }).from(order).innerJoin(store, eq(store.id, order.store_id)).where(eq(order.account_id, ctx.accountId));
}

/** The order's row, locked FOR UPDATE for the rest of the transaction; undefined when not the organisation's. */
export async function lockOrderRow(ctx: TenantCtx, id: string) {
  const [row] = await ctx.tx.select().from(order).where(and(eq(order.account_id, ctx.accountId), eq(order.id, id))).for('update');
  return row;
}

/** The order's row, not locked; undefined when not the organisation's. */
export async function orderRow(ctx: TenantCtx, id: string) {
  const [o] = await ctx.tx.select().from(order).where(and(eq(order.account_id, ctx.accountId), eq(order.id, id)));
  return o;
}

/** Whether the order is the organisation's (its id only). */
export async function orderExists(ctx: TenantCtx, id: string) {
  const [o] = await ctx.tx.select({ id: order.id }).from(order).where(and(eq(order.account_id, ctx.accountId), eq(order.id, id)));
  return Boolean(o);
}

/** The order with its customer, seller, store and QR code's name (the order page's head). */
export async function orderWithParties(ctx: TenantCtx, id: string) {
  const [o] = await ctx.tx
    .select({ o: order, c: customer, seller_first: users.first_name, seller_last: users.last_name, seller_email: users.email, store_name: store.name, qr_name: qrCode.name })
    .from(order)
    .innerJoin(customer, eq(customer.id, order.customer_id))
    .leftJoin(users, eq(users.id, order.created_by))
    .leftJoin(store, eq(store.id, order.store_id))
    .leftJoin(qrCode, eq(qrCode.id, order.qr_code_id))
    .where(and(eq(order.account_id, ctx.accountId), eq(order.id, id)));
  return o && { ...o, c: asGiven(o.o, o.c) };
}

/** Inserts an order (its totals are 0 until recomputeOrderTotals()); answers its id and reference. */
export async function insertOrder(ctx: TenantCtx, values: Omit<typeof order.$inferInsert, 'account_id'>) {
  const [created] = await ctx.tx
    .insert(order)
    .values({ ...values, account_id: ctx.accountId })
    .returning({ id: order.id, reference: order.reference });
  return created!;
}

/** Writes some of an order's fields (notes, customer, updated_at). */
export async function updateOrderRow(ctx: TenantCtx, id: string, set: Partial<typeof order.$inferInsert>) {
  await ctx.tx.update(order).set(set).where(eq(order.id, id));
}

/** Marks the order Canceled. */
export async function markOrderCanceled(ctx: TenantCtx, id: string, at: Date) {
  await ctx.tx.update(order).set({ status: 'Canceled', updated_at: at }).where(eq(order.id, id));
}

/** Marks the order Confirmed. */
export async function markOrderConfirmed(ctx: TenantCtx, id: string) {
  await ctx.tx.update(order).set({ status: 'Confirmed', updated_at: new Date() }).where(eq(order.id, id));
}

/** Deletes the order's row. */
export async function deleteOrderRow(ctx: TenantCtx, id: string) {
  await ctx.tx.delete(order).where(eq(order.id, id));
}

/** How many of the order's bookings are not cancelled. */
export async function countOpenBookings(ctx: TenantCtx, orderId: string) {
  const [open] = await ctx.tx.select({ n: sql<number>`count(*)::int` }).from(booking).where(and(eq(booking.account_id, ctx.accountId), eq(booking.order_id, orderId), sql`${booking.status} <> 'Canceled'`));
  return Number(open!.n);
}

/** How many payments and refunds the order has. */
export async function countPayments(ctx: TenantCtx, orderId: string) {
  const [paid] = await ctx.tx.select({ n: sql<number>`count(*)::int` }).from(orderPayment).where(and(eq(orderPayment.account_id, ctx.accountId), eq(orderPayment.order_id, orderId)));
  return Number(paid!.n);
}

/** Whether the order has any invoice or credit note. */
export async function hasAnyInvoice(ctx: TenantCtx, orderId: string) {
  const [invoiced] = await ctx.tx.select({ id: invoice.id }).from(invoice).where(and(eq(invoice.account_id, ctx.accountId), eq(invoice.order_id, orderId)));
  return Boolean(invoiced);
}

/** Adds a payment (positive) or a refund (negative) to the order's paid, and a refund to its refunded. */
export async function addToOrderPaid(ctx: TenantCtx, orderId: string, amount: number) {
  await ctx.tx
    .update(order)
    .set({ paid: sql`${order.paid} + ${amount}`, refunded: sql`${order.refunded} + ${Math.max(0, -amount)}`, updated_at: new Date() })
    .where(eq(order.id, orderId));
}

/** A refund that failed at the provider: its amount (negative) is taken back out of paid and refunded. */
export async function takeBackRefund(ctx: TenantCtx, orderId: string, amount: number) {
  await ctx.tx
    .update(order)
    .set({ paid: sql`${order.paid} - ${amount}`, refunded: sql`${order.refunded} - ${Math.max(0, -amount)}`, updated_at: new Date() })
    .where(eq(order.id, orderId));
}

/** The sum of every line's total ever sold in the order (to refuse one above the 32-bit limit). */
export async function sumOfLineTotals(ctx: TenantCtx, orderId: string) {
  const sum = (await execute<{ total: string | number }>(ctx.tx, sql`
    select coalesce(sum(total), 0)::bigint as total from ${booking}
    where account_id = ${ctx.accountId} and order_id = ${orderId}::uuid`));
  return Number(sum.rows[0]?.total ?? 0);
}

/**
 * The one rule of the payment status, as SQL over paid (net of refunds), owed, refunded and
 * whether the order still sells something (`selling`): a sale made free (a 100 % promo code) owes
 * nothing and is Fully paid; an order with nothing left to sell and nothing paid is Not paid.
 */
export function paymentStatus(paid: SQL, owed: SQL, refunded: SQL, selling: SQL) {
  return sql`case
        when ${paid} > ${owed} then 'Refund due'
        when ${paid} = ${owed} and (${owed} > 0 or (${selling} and ${refunded} = 0)) then 'Fully paid'
        when ${paid} <= 0 and ${refunded} > 0 and ${owed} = 0 then 'Refunded'
        when ${paid} <= 0 then 'Not paid'
        else 'Partially paid' end`;
}

/**
 * Writes the order's totals, status and payment status in one statement from its lines' stored
 * figures (see recomputeOrder() in records.ts); `feeTax` is the VAT of the cancellation fee it keeps.
 */
export async function writeOrderTotals(ctx: TenantCtx, orderId: string, feeTax: number) {
  await ctx.tx.execute(sql`
    update ${order} o set
      total = x.total + x.fee,
      sold_total = x.sold,
      tax_total = x.tax + ${feeTax}::int,
      cancellation_fee = x.fee,
      status = case when o.status = 'Canceled' then 'Canceled' when x.open = 0 and x.lines > 0 then 'Canceled' else o.status end,
      payment_status = ${paymentStatus(sql`o.paid`, sql`(x.total + x.fee)`, sql`o.refunded`, sql`(x.open > 0)`)},
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
}


/** Writes the hash of an order's booking-page secret. */
export function setManageTokenHash(ctx: TenantCtx, orderId: string, hash: string) {
  return ctx.tx.update(order).set({ manage_token_hash: hash }).where(and(eq(order.account_id, ctx.accountId), eq(order.id, orderId)));
}

/** The organisation's store whose booking page links to its orders sold without one: its first active store. */
export async function linkStoreOf(ctx: Pick<TenantCtx, 'tx' | 'accountId'>) {
  const [s] = await ctx.tx
    .select({ id: store.id, slug: store.slug })
    .from(store)
    .where(and(eq(store.account_id, ctx.accountId), eq(store.active, true)))
    .orderBy(asc(store.created_at))
    .limit(1);
  return s;
}
