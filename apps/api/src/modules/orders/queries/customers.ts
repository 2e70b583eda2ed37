import { and, asc, eq, ilike, or, sql } from 'drizzle-orm';
import type { TCustomerDetails } from '@tourdesk/contracts';
import { customer, order } from '../../../db/schema';
import type { TenantCtx } from '../../../lib/crud';
import { execute } from '../../../db/execute';

/** Customers: one per e-mail per organisation, and their orders' count and spend. */

export type CustomerRow = typeof customer.$inferSelect;

function searchWhere(ctx: TenantCtx, search?: string) {
  const term = search ? `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : undefined;
  return and(
    eq(customer.account_id, ctx.accountId),
    term ? or(ilike(customer.email, term), sql`(${customer.first_name} || ' ' || ${customer.last_name}) ilike ${term}`, ilike(customer.phone, term)) : undefined,
  );
}

/** Each of these customers' order count and what they paid: one grouped query for a page. */
export function orderStatsOfCustomers(ctx: TenantCtx, ids: string[]) {
  return ctx.tx
    .select({ id: order.customer_id, orders: sql<number>`count(*)::int`, spent: sql<number>`coalesce(sum(${order.paid}), 0)::int` })
    .from(order)
    .where(and(eq(order.account_id, ctx.accountId), sql`${order.customer_id} in ${ids}`))
    .groupBy(order.customer_id);
}

/** How many customers the search matches (name, e-mail or phone). */
export async function countCustomers(ctx: TenantCtx, search?: string) {
  const [row] = await ctx.tx.select({ n: sql<number>`count(*)::int` }).from(customer).where(searchWhere(ctx, search));
  return Number(row?.n ?? 0);
}

/** A page of the customers the search matches, by last then first name. */
export function pageCustomerRows(ctx: TenantCtx, search: string | undefined, limit: number, offset: number) {
  return ctx.tx.select().from(customer).where(searchWhere(ctx, search)).orderBy(asc(sql`lower(${customer.last_name})`), asc(sql`lower(${customer.first_name})`), asc(customer.id)).limit(limit).offset(offset);
}

/** One customer's row; undefined when not the organisation's. */
export async function customerRow(ctx: TenantCtx, id: string) {
  const [row] = await ctx.tx.select().from(customer).where(and(eq(customer.account_id, ctx.accountId), eq(customer.id, id)));
  return row;
}

/** The customer's id as stored, when the customer is the organisation's. */
export async function customerIdOf(ctx: TenantCtx, id: string) {
  const [c] = await ctx.tx.select({ id: customer.id }).from(customer).where(and(eq(customer.account_id, ctx.accountId), eq(customer.id, id)));
  return c?.id;
}

/** Inserts a customer (a unique index on lower(email) refuses a second with the same e-mail). */
export async function insertCustomer(ctx: TenantCtx, input: Omit<typeof customer.$inferInsert, 'account_id'>) {
  const [row] = await ctx.tx.insert(customer).values({ ...input, account_id: ctx.accountId }).returning();
  return row!;
}

/** Writes some of a customer's details. */
export async function updateCustomerRow(ctx: TenantCtx, id: string, patch: Partial<typeof customer.$inferInsert>) {
  await ctx.tx.update(customer).set({ ...patch, updated_at: new Date() }).where(eq(customer.id, id));
}

/** How many orders the customer has. */
export async function countOrdersOfCustomer(ctx: TenantCtx, id: string) {
  const [n] = await ctx.tx.select({ n: sql<number>`count(*)::int` }).from(order).where(and(eq(order.account_id, ctx.accountId), eq(order.customer_id, id)));
  return n!.n;
}

/** Deletes the customer's row. */
export async function deleteCustomerRow(ctx: TenantCtx, id: string) {
  await ctx.tx.delete(customer).where(eq(customer.id, id));
}

/**
 * The customer with this e-mail (in any case) as it is, or a new one with these details: one
 * statement, never changing a customer already there. For the sales whose details no team member
 * vouches for (a web store, a partner's API, a reseller's counter): the order keeps them instead.
 */
export async function findOrInsertCustomer(ctx: TenantCtx, details: TCustomerDetails) {
  const rows = (await execute<{ id: string; email: string }>(ctx.tx, sql`
    insert into ${customer} (account_id, email, first_name, last_name, phone, country, marketing_consent)
    values (${ctx.accountId}, ${details.email}, ${details.first_name}, ${details.last_name}, ${details.phone}, ${details.country}, ${details.marketing_consent})
    on conflict (account_id, lower(email)) do update set email = ${customer}.email
    returning id, email`));
  return rows.rows[0]!;
}

/**
 * asGiven() below in SQL, for lists that select an order's customer: the details given with the
 * order over the customer's record (an order from before they were kept has none of its own).
 */
export const givenCustomer = {
  first_name: sql<string>`coalesce(${order.customer_first_name}, ${customer.first_name})`,
  last_name: sql<string>`coalesce(${order.customer_last_name}, ${customer.last_name})`,
  email: sql<string>`coalesce(${order.customer_email}, ${customer.email})`,
  phone: sql<string>`coalesce(${order.customer_phone}, ${customer.phone})`,
};

/**
 * An order's customer as the order shows it: the details given with the order (orders.customer_*,
 * issue 29) over the customer's record, which an order made before they were kept falls back to.
 */
export function asGiven<C extends { email: string; first_name: string; last_name: string; phone?: string; country?: string | null }>(
  o: Pick<typeof order.$inferSelect, 'customer_email' | 'customer_first_name' | 'customer_last_name' | 'customer_phone' | 'customer_country'>,
  c: C,
): C {
  if (o.customer_email === null) return c;
  return {
    ...c,
    email: o.customer_email,
    first_name: o.customer_first_name ?? c.first_name,
    last_name: o.customer_last_name ?? c.last_name,
    ...('phone' in c ? { phone: o.customer_phone ?? c.phone } : {}),
    ...('country' in c ? { country: o.customer_country } : {}),
  };
}

/**
 * The customer with this e-mail (in any case), updated with the latest details, or a new one: one
 * statement, so two sales to the same new e-mail at once make one customer, not a 500. Only for a
 * team member's own sale (writeOrder).
 */
export async function upsertCustomer(ctx: TenantCtx, details: TCustomerDetails) {
  const rows = (await execute<{ id: string; email: string }>(ctx.tx, sql`
    insert into ${customer} (account_id, email, first_name, last_name, phone, country, marketing_consent)
    values (${ctx.accountId}, ${details.email}, ${details.first_name}, ${details.last_name}, ${details.phone}, ${details.country}, ${details.marketing_consent})
    on conflict (account_id, lower(email)) do update set
      first_name = excluded.first_name,
      last_name = coalesce(nullif(excluded.last_name, ''), ${customer}.last_name),
      phone = coalesce(nullif(excluded.phone, ''), ${customer}.phone),
      country = coalesce(excluded.country, ${customer}.country),
      updated_at = now()
    returning id, email`));
  return rows.rows[0]!;
}
