import { and, asc, count, desc, eq, ilike, inArray, or, sql, type SQL } from 'drizzle-orm';
import { auditEvent, baseAccount, giftVoucher, giftVoucherEntry, order, store, users } from '../../db/schema';
import type { Db } from '../../db/client';
import type { TenantCtx } from '../../lib/crud';

/** The gift vouchers module's only access to the database. */

export type VoucherRow = typeof giftVoucher.$inferSelect;
export type VoucherStatusFilter = 'active' | 'used' | 'expired' | 'cancelled';

/** The list's filter: `search` in the code and the buyer's and recipient's names and addresses; the status as shown. */
function listWhere(ctx: TenantCtx, f: { search?: string; status?: VoucherStatusFilter }): SQL | undefined {
  const term = f.search ? `%${f.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : undefined;
  const status: Record<VoucherStatusFilter, SQL> = {
    active: sql`${giftVoucher.status} = 'active' and ${giftVoucher.balance} > 0 and ${giftVoucher.expires_at} > now()`,
    used: sql`${giftVoucher.status} = 'active' and ${giftVoucher.balance} = 0`,
    expired: sql`${giftVoucher.status} = 'active' and ${giftVoucher.balance} > 0 and ${giftVoucher.expires_at} <= now()`,
    cancelled: sql`${giftVoucher.status} = 'cancelled'`,
  };
  return and(
    eq(giftVoucher.account_id, ctx.accountId),
    term ? or(ilike(giftVoucher.code, term), ilike(giftVoucher.buyer_name, term), ilike(giftVoucher.buyer_email, term), ilike(giftVoucher.recipient_name, term), ilike(giftVoucher.recipient_email, term)) : undefined,
    f.status ? status[f.status] : undefined,
  );
}

/** How many vouchers the filter finds. */
export async function voucherCount(ctx: TenantCtx, f: { search?: string; status?: VoucherStatusFilter }) {
  const [row] = await ctx.tx.select({ n: count() }).from(giftVoucher).where(listWhere(ctx, f));
  return row?.n ?? 0;
}

/** A page of the list, newest first (gift_voucher_account_created_idx). */
export function voucherPage(ctx: TenantCtx, f: { search?: string; status?: VoucherStatusFilter }, limit: number, offset: number) {
  return ctx.tx.select().from(giftVoucher).where(listWhere(ctx, f)).orderBy(desc(giftVoucher.created_at), desc(giftVoucher.id)).limit(limit).offset(offset);
}

export async function voucherById(ctx: TenantCtx, id: string, lock = false) {
  const q = ctx.tx.select().from(giftVoucher).where(and(eq(giftVoucher.account_id, ctx.accountId), eq(giftVoucher.id, id)));
  const [row] = lock ? await q.for('update') : await q;
  return row;
}

/**
 * The organisation's voucher with this code (normalised: no case, dashes or spaces), its row locked
 * when asked: two redemptions of one voucher are checked one after the other.
 */
export async function voucherByCode(ctx: TenantCtx, code: string, lock: boolean) {
  const q = ctx.tx
    .select()
    .from(giftVoucher)
    .where(and(eq(giftVoucher.account_id, ctx.accountId), sql`lower(${giftVoucher.code}) = lower(${code})`));
  const [row] = lock ? await q.for('update') : await q;
  return row;
}

export async function insertVoucher(ctx: TenantCtx, values: Omit<typeof giftVoucher.$inferInsert, 'account_id'>) {
  const [row] = await ctx.tx
    .insert(giftVoucher)
    .values({ ...values, account_id: ctx.accountId })
    .onConflictDoNothing()
    .returning();
  return row;
}

export async function updateVoucher(ctx: TenantCtx, id: string, set: Partial<typeof giftVoucher.$inferInsert>) {
  await ctx.tx
    .update(giftVoucher)
    .set({ ...set, updated_at: new Date() })
    .where(and(eq(giftVoucher.account_id, ctx.accountId), eq(giftVoucher.id, id)));
}

export async function insertEntry(ctx: TenantCtx, values: Omit<typeof giftVoucherEntry.$inferInsert, 'account_id'>) {
  const [row] = await ctx.tx
    .insert(giftVoucherEntry)
    .values({ ...values, account_id: ctx.accountId })
    .returning();
  return row!;
}

/** The voucher's ledger, oldest first, with each order's reference and each actor's name (gift_voucher_entry_voucher_idx). */
export function ledgerOf(ctx: TenantCtx, voucherId: string) {
  return ctx.tx
    .select({ e: giftVoucherEntry, reference: order.reference, first: users.first_name, last: users.last_name, email: users.email })
    .from(giftVoucherEntry)
    .leftJoin(order, eq(order.id, giftVoucherEntry.order_id))
    .leftJoin(users, eq(users.id, giftVoucherEntry.actor_id))
    .where(and(eq(giftVoucherEntry.account_id, ctx.accountId), eq(giftVoucherEntry.voucher_id, voucherId)))
    .orderBy(asc(giftVoucherEntry.created_at), asc(giftVoucherEntry.id));
}

/** The voucher a payment of an order spent (its ledger's redemption entry names the payment). */
export async function voucherOfPayment(ctx: TenantCtx, paymentId: string) {
  const [row] = await ctx.tx
    .select({ id: giftVoucherEntry.voucher_id })
    .from(giftVoucherEntry)
    .where(and(eq(giftVoucherEntry.account_id, ctx.accountId), eq(giftVoucherEntry.payment_id, paymentId), eq(giftVoucherEntry.kind, 'redemption')));
  return row?.id;
}

/** A voucher audit event (no order): who did what to it, and why. */
export async function insertVoucherAudit(ctx: TenantCtx, voucherId: string, action: string, changes: Record<string, unknown>) {
  await ctx.tx.insert(auditEvent).values({ account_id: ctx.accountId, order_id: null, subject: 'gift_voucher', subject_id: voucherId, action, changes, actor_id: ctx.userId ?? null });
}

/** What a voucher needs of its organisation: its validity setting, zone, name, languages, host. */
export async function voucherSettings(ctx: TenantCtx) {
  const [a] = await ctx.tx
    .select({ months: baseAccount.voucher_validity_months, zone: baseAccount.time_zone, name: baseAccount.name, languages: baseAccount.languages, subdomain: baseAccount.subdomain, currency: baseAccount.currency })
    .from(baseAccount)
    .where(eq(baseAccount.id, ctx.accountId));
  return a!;
}

/** The store a voucher page is for, with its voucher settings. */
export async function storeVoucherSettings(ctx: TenantCtx, storeId: string) {
  const [s] = await ctx.tx
    .select({ id: store.id, name: store.name, slug: store.slug, sells: store.sells_vouchers, amounts: store.voucher_amounts, min: store.voucher_min, max: store.voucher_max, payment_options: store.payment_options })
    .from(store)
    .where(and(eq(store.account_id, ctx.accountId), eq(store.id, storeId)));
  return s;
}

/** The names of users (id → name), one query. */
export async function userNames(ctx: TenantCtx, ids: string[]) {
  if (ids.length === 0) return new Map<string, string>();
  const rows = await ctx.tx.select({ id: users.id, first: users.first_name, last: users.last_name, email: users.email }).from(users).where(inArray(users.id, ids));
  return new Map(rows.map((r) => [r.id, [r.first, r.last].filter(Boolean).join(' ') || r.email]));
}

/** The voucher a delivery job is about, read in its organisation. */
export async function voucherForMail(db: Db, accountId: string, id: string) {
  const [row] = await db
    .select({ v: giftVoucher, organisation: baseAccount.name, zone: baseAccount.time_zone, subdomain: baseAccount.subdomain })
    .from(giftVoucher)
    .innerJoin(baseAccount, eq(baseAccount.id, giftVoucher.account_id))
    .where(and(eq(giftVoucher.account_id, accountId), eq(giftVoucher.id, id)));
  return row;
}
