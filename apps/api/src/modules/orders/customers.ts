import { and, asc, eq, ilike, or, sql } from 'drizzle-orm';
import type { TCustomer } from '@tourdesk/contracts';
import { customer, order } from '../../db/schema';
import type { TenantCtx } from '../../lib/crud';
import { isUniqueViolation } from '../../lib/db-errors';
import { AppError, notFound } from '../../lib/errors';

/** Customers: one per e-mail per organisation, with their orders and what they spent. */

type Row = typeof customer.$inferSelect;
const EMAIL_TAKEN = () => new AppError('invalid', 'A customer with this e-mail already exists.', 'email');

function searchWhere(ctx: TenantCtx, search?: string) {
  const term = search ? `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : undefined;
  return and(
    eq(customer.account_id, ctx.accountId),
    term ? or(ilike(customer.email, term), sql`(${customer.first_name} || ' ' || ${customer.last_name}) ilike ${term}`, ilike(customer.phone, term)) : undefined,
  );
}

/** Rows → customers with their order count and total spent: one grouped query per page. */
async function present(ctx: TenantCtx, rows: Row[]): Promise<TCustomer[]> {
  if (rows.length === 0) return [];
  const stats = await ctx.tx
    .select({ id: order.customer_id, orders: sql<number>`count(*)::int`, spent: sql<number>`coalesce(sum(${order.paid}), 0)::int` })
    .from(order)
    .where(and(eq(order.account_id, ctx.accountId), sql`${order.customer_id} in ${rows.map((r) => r.id)}`))
    .groupBy(order.customer_id);
  const byId = new Map(stats.map((s) => [s.id, s]));
  return rows.map((r) => ({
    id: r.id,
    email: r.email,
    first_name: r.first_name,
    last_name: r.last_name,
    phone: r.phone,
    country: r.country,
    company: r.company,
    address: r.address,
    vat_number: r.vat_number,
    marketing_consent: r.marketing_consent,
    notes: r.notes,
    orders: Number(byId.get(r.id)?.orders ?? 0),
    total_spent: Number(byId.get(r.id)?.spent ?? 0),
    currency: ctx.currency,
    created_at: r.created_at.toISOString(),
  }));
}

export async function countCustomers(ctx: TenantCtx, search?: string) {
  const [row] = await ctx.tx.select({ n: sql<number>`count(*)::int` }).from(customer).where(searchWhere(ctx, search));
  return Number(row?.n ?? 0);
}

export async function pageCustomers(ctx: TenantCtx, search: string | undefined, limit: number, offset: number) {
  const rows = await ctx.tx.select().from(customer).where(searchWhere(ctx, search)).orderBy(asc(sql`lower(${customer.last_name})`), asc(sql`lower(${customer.first_name})`), asc(customer.id)).limit(limit).offset(offset);
  return present(ctx, rows);
}

async function rowOr404(ctx: TenantCtx, id: string) {
  const [row] = await ctx.tx.select().from(customer).where(and(eq(customer.account_id, ctx.accountId), eq(customer.id, id)));
  if (!row) throw notFound('No customer with this id.');
  return row;
}

export async function getCustomer(ctx: TenantCtx, id: string) {
  return (await present(ctx, [await rowOr404(ctx, id)]))[0]!;
}

/** Unique e-mails are checked in SQL (a unique index on lower(email)); a clash is a clear 400. */
async function uniqueEmail<T>(fn: () => Promise<T>) {
  try {
    return await fn();
  } catch (error) {
    if (isUniqueViolation(error)) throw EMAIL_TAKEN();
    throw error;
  }
}

export async function createCustomer(ctx: TenantCtx, input: Omit<typeof customer.$inferInsert, 'account_id'>) {
  const [row] = await uniqueEmail(() => ctx.tx.insert(customer).values({ ...input, account_id: ctx.accountId }).returning());
  return (await present(ctx, [row!]))[0]!;
}

export async function updateCustomer(ctx: TenantCtx, id: string, patch: Partial<typeof customer.$inferInsert>) {
  await rowOr404(ctx, id);
  await uniqueEmail(() => ctx.tx.update(customer).set({ ...patch, updated_at: new Date() }).where(eq(customer.id, id)));
  return getCustomer(ctx, id);
}

export async function deleteCustomer(ctx: TenantCtx, id: string) {
  await rowOr404(ctx, id);
  const [n] = await ctx.tx.select({ n: sql<number>`count(*)::int` }).from(order).where(and(eq(order.account_id, ctx.accountId), eq(order.customer_id, id)));
  if (Number(n!.n) > 0) throw new AppError('conflict', `This customer has ${n!.n} order${Number(n!.n) === 1 ? '' : 's'}: they cannot be deleted.`);
  await ctx.tx.delete(customer).where(eq(customer.id, id));
}
