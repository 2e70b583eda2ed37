import type { TCustomer } from '@tourdesk/contracts';
import type { customer } from '../../db/schema';
import type { TenantCtx } from '../../lib/crud';
import { isUniqueViolation } from '../../lib/db-errors';
import { AppError, notFound } from '../../lib/errors';
import * as q from './queries/customers';

/** Customers: one per e-mail per organisation, with their orders and what they spent. */

const EMAIL_TAKEN = () => new AppError('invalid', 'A customer with this e-mail already exists.', 'email');

/** Rows → customers with their order count and total spent: one grouped query per page. */
async function present(ctx: TenantCtx, rows: q.CustomerRow[]): Promise<TCustomer[]> {
  if (rows.length === 0) return [];
  const stats = await q.orderStatsOfCustomers(ctx, rows.map((r) => r.id));
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

export const countCustomers = q.countCustomers;

export async function pageCustomers(ctx: TenantCtx, search: string | undefined, limit: number, offset: number) {
  return present(ctx, await q.pageCustomerRows(ctx, search, limit, offset));
}

async function rowOr404(ctx: TenantCtx, id: string) {
  const row = await q.customerRow(ctx, id);
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
  const row = await uniqueEmail(() => q.insertCustomer(ctx, input));
  return (await present(ctx, [row]))[0]!;
}

export async function updateCustomer(ctx: TenantCtx, id: string, patch: Partial<typeof customer.$inferInsert>) {
  await rowOr404(ctx, id);
  await uniqueEmail(() => q.updateCustomerRow(ctx, id, patch));
  return getCustomer(ctx, id);
}

export async function deleteCustomer(ctx: TenantCtx, id: string) {
  await rowOr404(ctx, id);
  const n = await q.countOrdersOfCustomer(ctx, id);
  if (Number(n) > 0) throw new AppError('conflict', `This customer has ${n} order${Number(n) === 1 ? '' : 's'}: they cannot be deleted.`);
  await q.deleteCustomerRow(ctx, id);
}
