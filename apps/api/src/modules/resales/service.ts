import {
  todayIn,
  toMajorText,
  type TResale,
  type TResaleDetail,
  type TResaleFilterOptions,
  type TResaleListQuery,
  type TSettlement,
  type TSettlementCreate,
  type TSettlementDetail,
  type TSettlementLine,
} from '@tourdesk/contracts';
import type { Db } from '../../db/client';
import type { settlementLine } from '../../db/schema';
import { csvDocument, type CsvValue } from '../../lib/csv';
import { AppError, notFound } from '../../lib/errors';
import { listCsv, presentedPages, readPages } from '../../lib/list-export';
import { createPdf, documentMoney, PAPER, type PDFFont } from '../../lib/pdf';
import { inTenant } from '../../lib/tenancy';
import * as q from './queries';

/**
 * Resales and settlement statements, for either side of a partnership.
 *
 * What a line counts for (the list's totals and a statement alike): a Confirmed (or unconfirmed)
 * line its gross and the commission fixed at sale; a line Canceled with a cancellation fee kept
 * only the fee, with no commission (the fee compensates the supplier for the lost sale; the partner
 * earns on what the customer took part in). supplier_net = gross − commission.
 */

export interface ResaleCtx {
  /** The server's connection: tenant work goes through inTenant(db, accountId). */
  db: Db;
  accountId: string;
  userId: string;
  timeZone: string;
}

type ListFilter = Omit<TResaleListQuery, 'page' | 'page_size'>;

/** A line's figures as statements count them (see above). */
export function countedOf(l: { status: string; total: number; commission: number; cancellation_fee: number }) {
  const gross = l.status === 'Canceled' ? l.cancellation_fee : l.total;
  const commission = l.status === 'Canceled' ? 0 : l.commission;
  return { gross, commission, supplier_net: gross - commission };
}

const labelIds = (rows: q.LineRow[]) => ({
  experiences: rows.map((r) => r.experience_id),
  slots: rows.map((r) => r.slot_id),
  stores: rows.flatMap((r) => (r.store_id ? [r.store_id] : [])),
  accounts: rows.flatMap((r) => [r.account_id, ...(r.reseller_account_id ? [r.reseller_account_id] : [])]),
});

const REMOVED = 'Removed organisation';

function presentLine(me: string, r: q.LineRow, l: q.Labels): TResale {
  const side = r.account_id === me ? 'supplier' : 'reseller';
  const supplier = l.accounts.get(r.account_id);
  const reseller = r.reseller_account_id ? l.accounts.get(r.reseller_account_id) : undefined;
  const s = l.slots.get(r.slot_id);
  const counted = countedOf(r);
  return {
    id: r.id,
    order_id: r.order_id,
    order_reference: r.order_reference,
    reseller_reference: r.reseller_reference,
    side,
    sold_at: r.created_at.toISOString(),
    offer: { id: r.experience_id, name: l.experiences.get(r.experience_id) ?? '' },
    starts_at: (s?.starts_at ?? r.created_at).toISOString(),
    local_date: s?.local_date ?? '',
    local_time: s?.local_time ?? '',
    time_zone: supplier?.time_zone ?? 'UTC',
    partnership_id: r.partnership_id!,
    supplier: { id: r.account_id, name: supplier?.name ?? REMOVED },
    reseller: { id: r.reseller_account_id ?? r.partnership_id!, name: reseller?.name ?? REMOVED },
    partner_name: (side === 'supplier' ? reseller?.name : supplier?.name) ?? REMOVED,
    store: r.store_id ? { id: r.store_id, name: l.stores.get(r.store_id) ?? '' } : null,
    items: r.items.map((i) => ({ kind: i.kind, label: i.label, quantity: i.quantity })),
    seats: r.seats,
    currency: r.currency,
    ...counted,
    cancellation_fee: r.cancellation_fee,
    status: r.status as TResale['status'],
    settlement: r.settlement_id ? { id: r.settlement_id, number: r.settlement_number!, status: r.settlement_status as 'Open' | 'Settled' } : null,
  };
}

async function presentLines(ctx: ResaleCtx, rows: q.LineRow[]) {
  const labels = await q.labelsOf(ctx.db, labelIds(rows));
  return rows.map((r) => presentLine(ctx.accountId, r, labels));
}

/** The list: the figures of every matching line per currency, and one page of lines. */
export async function listResales(ctx: ResaleCtx, f: ListFilter, page: { limit: number; offset: number } | null) {
  const where = q.listWhere(ctx, f);
  const { totals, rows } = await inTenant(ctx.db, ctx.accountId, async (tx) => {
    const totals = await q.totalsOf(tx, where);
    const count = totals.reduce((s, t) => s + t.lines, 0);
    const rows = page && count > page.offset ? await q.pageLines(tx, where, page.limit, page.offset) : [];
    return { totals, rows };
  });
  return { totals: totals.map((t) => ({ ...t, supplier_net: t.gross - t.commission })), count: totals.reduce((s, t) => s + t.lines, 0), results: await presentLines(ctx, rows) };
}

/** The list as CSV (the same filters and order): a row per resold line with its figures. */
export async function resalesCsv(ctx: ResaleCtx, f: ListFilter) {
  const where = q.listWhere(ctx, f);
  // Every line read in one snapshot, then presented (names from the server's connection) page by page.
  const rows = await inTenant(ctx.db, ctx.accountId, (tx) => readPages((limit, offset) => q.pageLines(tx, where, limit, offset)), { snapshot: true });
  return listCsv<TResale>(
    [
      { header: 'sold_at', value: (r) => r.sold_at },
      { header: 'order_reference', value: (r) => r.order_reference },
      { header: 'reseller_reference', value: (r) => r.reseller_reference ?? '' },
      { header: 'side', value: (r) => r.side },
      { header: 'partner', value: (r) => r.partner_name },
      { header: 'supplier', value: (r) => r.supplier.name },
      { header: 'reseller', value: (r) => r.reseller.name },
      { header: 'store', value: (r) => r.store?.name ?? '' },
      { header: 'offer', value: (r) => r.offer.name },
      { header: 'date', value: (r) => r.local_date },
      { header: 'time', value: (r) => r.local_time },
      { header: 'time_zone', value: (r) => r.time_zone },
      { header: 'items', value: (r) => r.items.map((i) => `${i.quantity} ${i.label}`).join('; ') },
      { header: 'seats', value: (r) => r.seats },
      { header: 'status', value: (r) => r.status },
      { header: 'currency', value: (r) => r.currency },
      { header: 'gross', value: (r) => ({ amount: toMajorText(r.gross, r.currency) }) },
      { header: 'commission', value: (r) => ({ amount: toMajorText(r.commission, r.currency) }) },
      { header: 'supplier_net', value: (r) => ({ amount: toMajorText(r.supplier_net, r.currency) }) },
      { header: 'cancellation_fee', value: (r) => ({ amount: toMajorText(r.cancellation_fee, r.currency) }) },
      { header: 'settlement', value: (r) => r.settlement?.number ?? '' },
    ],
    presentedPages(rows, (chunk) => presentLines(ctx, chunk)),
  );
}

export async function filterOptions(ctx: ResaleCtx): Promise<TResaleFilterOptions> {
  const found = await inTenant(ctx.db, ctx.accountId, (tx) => q.occurring(tx, { accountId: ctx.accountId, side: 'all' }));
  const partnerAccounts = found.partners.map((p) => (p.supplier === ctx.accountId ? p.reseller : p.supplier)).filter((a): a is string => Boolean(a));
  const l = await q.labelsOf(ctx.db, { experiences: found.offers, stores: found.stores, accounts: partnerAccounts });
  const byName = <T extends { name: string }>(a: T[]) => a.sort((x, y) => x.name.localeCompare(y.name));
  return {
    partners: byName(
      found.partners.map((p) => {
        const side = p.supplier === ctx.accountId ? ('supplier' as const) : ('reseller' as const);
        const other = side === 'supplier' ? p.reseller : p.supplier;
        return { id: p.id!, name: (other && l.accounts.get(other)?.name) || REMOVED, side };
      }),
    ),
    offers: byName(found.offers.map((id) => ({ id, name: l.experiences.get(id) ?? '' }))),
    stores: byName(found.stores.map((id) => ({ id, name: l.stores.get(id) ?? '' }))),
  };
}

export async function resaleDetail(ctx: ResaleCtx, id: string): Promise<TResaleDetail> {
  const found = await inTenant(ctx.db, ctx.accountId, async (tx) => {
    const o = await q.resaleOrder(tx, ctx.accountId, id);
    if (!o) return null;
    // Of another supplier's order, the reseller reads only the lines it resold (reseller_read).
    const rows = await q.orderLinesOf(tx, ctx.accountId, id);
    return { o, rows };
  });
  if (!found) throw notFound('No resale with this id.');
  const { o, rows } = found;
  const side = o.account_id === ctx.accountId ? 'supplier' : 'reseller';
  const labels = await q.labelsOf(ctx.db, { ...labelIds(rows), accounts: [o.account_id, ...(o.reseller_account_id ? [o.reseller_account_id] : [])], customers: [o.customer_id] });
  const lines = rows.map((r) => presentLine(ctx.accountId, r, labels));
  // The customer as given with this sale (the order's own details, issue 29); an order made before
  // they were kept falls back to the supplier's record.
  const record = labels.customers.get(o.customer_id);
  const c =
    o.customer_email !== null
      ? { first_name: o.customer_first_name ?? '', last_name: o.customer_last_name ?? '', email: o.customer_email, phone: o.customer_phone ?? '' }
      : record;
  const name = c ? `${c.first_name} ${c.last_name}`.trim() || (side === 'supplier' ? c.email : '') : '';
  return {
    id: o.id,
    reference: o.reference,
    reseller_reference: o.reseller_reference,
    side,
    status: o.status,
    created_at: o.created_at.toISOString(),
    currency: o.currency,
    partnership_id: o.partnership_id!,
    supplier: { id: o.account_id, name: labels.accounts.get(o.account_id)?.name ?? REMOVED },
    reseller: { id: o.reseller_account_id ?? o.partnership_id!, name: (o.reseller_account_id && labels.accounts.get(o.reseller_account_id)?.name) || REMOVED },
    // The supplier holds the customer's record; the reseller sees the name it sold to.
    customer: { name, email: side === 'supplier' ? (c?.email ?? null) : null, phone: side === 'supplier' ? c?.phone || null : null },
    lines,
    gross: lines.reduce((s, x) => s + x.gross, 0),
    commission: lines.reduce((s, x) => s + x.commission, 0),
    supplier_net: lines.reduce((s, x) => s + x.supplier_net, 0),
  };
}

// --- Settlement statements ---------------------------------------------------------------

export const settlementNumber = (year: number, n: number) => `STL-${year}-${String(n).padStart(5, '0')}`;

/** Who pays: positive reseller_owes, the reseller; negative, the supplier; none when 0. */
const payerOf = (owes: number) => (owes > 0 ? ('reseller' as const) : owes < 0 ? ('supplier' as const) : null);

async function presentSettlements(ctx: ResaleCtx, rows: q.SettlementRow[]): Promise<TSettlement[]> {
  const l = await q.labelsOf(ctx.db, { accounts: rows.flatMap((s) => [s.supplier_account_id, s.reseller_account_id]), users: rows.flatMap((s) => (s.settled_by ? [s.settled_by] : [])) });
  return rows.map((s) => {
    const side = s.supplier_account_id === ctx.accountId ? ('supplier' as const) : ('reseller' as const);
    const payer = payerOf(s.reseller_owes);
    // The side that receives the money confirms it came (the supplier when nothing is owed).
    const receiver = payer === 'reseller' ? 'supplier' : payer === 'supplier' ? 'reseller' : 'supplier';
    const supplier = { id: s.supplier_account_id, name: l.accounts.get(s.supplier_account_id)?.name ?? REMOVED };
    const reseller = { id: s.reseller_account_id, name: l.accounts.get(s.reseller_account_id)?.name ?? REMOVED };
    return {
      id: s.id,
      number: s.number,
      partnership_id: s.partnership_id,
      side,
      supplier,
      reseller,
      partner_name: side === 'supplier' ? reseller.name : supplier.name,
      period_from: s.period_from,
      period_to: s.period_to,
      currency: s.currency,
      bookings: s.bookings,
      gross: s.gross,
      commission: s.commission,
      supplier_net: s.supplier_net,
      reseller_owes: s.reseller_owes,
      payer,
      status: s.status as TSettlement['status'],
      settled_at: s.settled_at?.toISOString() ?? null,
      settled_by: s.settled_by ? (l.users.get(s.settled_by) ?? null) : null,
      can_settle: s.status === 'Open' && side === receiver,
      created_at: s.created_at.toISOString(),
    };
  });
}

export async function countSettlements(ctx: ResaleCtx, f: { partner?: string; status?: string }) {
  return inTenant(ctx.db, ctx.accountId, (tx) => q.countSettlements(tx, q.settlementWhere(ctx.accountId, f)));
}

export async function pageSettlements(ctx: ResaleCtx, f: { partner?: string; status?: string }, limit: number, offset: number) {
  const rows = await inTenant(ctx.db, ctx.accountId, (tx) => q.settlements(tx, q.settlementWhere(ctx.accountId, f), limit, offset));
  return presentSettlements(ctx, rows);
}

/** The statements (filtered as the list) as CSV: a row per statement with its figures and who owes whom. */
export async function settlementsCsv(ctx: ResaleCtx, f: { partner?: string; status?: string }) {
  const money = (amount: number, currency: string) => ({ amount: toMajorText(amount, currency) });
  const where = q.settlementWhere(ctx.accountId, f);
  const rows = await inTenant(ctx.db, ctx.accountId, (tx) => readPages((limit, offset) => q.settlements(tx, where, limit, offset)), { snapshot: true });
  return listCsv<TSettlement>(
    [
      { header: 'statement', value: (s) => s.number },
      { header: 'side', value: (s) => s.side },
      { header: 'partner', value: (s) => s.partner_name },
      { header: 'period_from', value: (s) => s.period_from },
      { header: 'period_to', value: (s) => s.period_to },
      { header: 'bookings', value: (s) => s.bookings },
      { header: 'currency', value: (s) => s.currency },
      { header: 'gross', value: (s) => money(s.gross, s.currency) },
      { header: 'commission', value: (s) => money(s.commission, s.currency) },
      { header: 'supplier_net', value: (s) => money(s.supplier_net, s.currency) },
      { header: 'payer', value: (s) => (s.payer === null ? '' : s.payer === 'reseller' ? s.reseller.name : s.supplier.name) },
      { header: 'owed', value: (s) => money(Math.abs(s.reseller_owes), s.currency) },
      { header: 'status', value: (s) => s.status },
      { header: 'settled_at', value: (s) => s.settled_at ?? '' },
      { header: 'created_at', value: (s) => s.created_at },
    ],
    presentedPages(rows, (chunk) => presentSettlements(ctx, chunk)),
  );
}

/** A stored statement line as either side reads it: the figures it was settled at, names read now. */
function presentStatementLine(me: string, s: q.SettlementRow, { line: r, reverses }: q.StatementLineRow, l: q.Labels): TSettlementLine {
  const side = s.supplier_account_id === me ? 'supplier' : 'reseller';
  const supplier = l.accounts.get(s.supplier_account_id);
  const reseller = l.accounts.get(s.reseller_account_id);
  const slot = l.slots.get(r.slot_id);
  return {
    id: r.booking_id ?? r.id,
    line_id: r.id,
    kind: r.kind as TSettlementLine['kind'],
    reverses: reverses?.line_id && reverses.settlement_id && reverses.number ? { line_id: reverses.line_id, settlement_id: reverses.settlement_id, number: reverses.number } : null,
    order_id: r.order_id,
    order_reference: r.order_reference,
    reseller_reference: r.reseller_reference,
    side,
    sold_at: r.sold_at.toISOString(),
    offer: { id: r.experience_id, name: l.experiences.get(r.experience_id) ?? '' },
    starts_at: (slot?.starts_at ?? r.sold_at).toISOString(),
    local_date: slot?.local_date ?? '',
    local_time: slot?.local_time ?? '',
    time_zone: supplier?.time_zone ?? 'UTC',
    partnership_id: s.partnership_id,
    supplier: { id: s.supplier_account_id, name: supplier?.name ?? REMOVED },
    reseller: { id: s.reseller_account_id, name: reseller?.name ?? REMOVED },
    partner_name: (side === 'supplier' ? reseller?.name : supplier?.name) ?? REMOVED,
    store: r.store_id ? { id: r.store_id, name: l.stores.get(r.store_id) ?? '' } : null,
    items: r.items.map((i) => ({ kind: i.kind, label: i.label, quantity: i.quantity })),
    seats: r.seats,
    currency: r.currency,
    gross: r.gross,
    commission: r.commission,
    supplier_net: r.supplier_net,
    cancellation_fee: r.cancellation_fee,
    status: r.status as TResale['status'],
    settlement: { id: s.id, number: s.number, status: s.status as 'Open' | 'Settled' },
  };
}

export async function settlementDetail(ctx: ResaleCtx, id: string): Promise<TSettlementDetail> {
  const found = await inTenant(ctx.db, ctx.accountId, async (tx) => {
    const [s] = await q.settlements(tx, q.settlementWhere(ctx.accountId, { id }), 1, 0);
    if (!s) return null;
    // Both sides read the statement's stored lines (partner_isolation), as they read the statement.
    return { s, rows: await q.statementLines(tx, id) };
  });
  if (!found) throw notFound('No statement with this id.');
  const [head] = await presentSettlements(ctx, [found.s]);
  const rows = found.rows.map((r) => r.line);
  const labels = await q.labelsOf(ctx.db, { experiences: rows.map((r) => r.experience_id), slots: rows.map((r) => r.slot_id), stores: rows.flatMap((r) => (r.store_id ? [r.store_id] : [])), accounts: [found.s.supplier_account_id, found.s.reseller_account_id] });
  return { ...head!, lines: found.rows.map((r) => presentStatementLine(ctx.accountId, found.s, r, labels)) };
}

/**
 * A statement, made by the supplier for one partnership and a period of slot dates (the day the
 * activity takes place, in the supplier's time zone; the period may include days to come). It is
 * written once and never changes: each of its lines stores the figures it is settled at, and its
 * figures are their sum. It takes
 * - every line of the partnership not on a statement yet whose slot is in the period (Confirmed, or
 *   Canceled with a fee kept), at what it counts for now (countedOf);
 * - whatever the period, every line already on a statement whose figures changed since (cancelled,
 *   or changed): a reversing line that credits the line in effect (its figures negated, naming it),
 *   then a new line at what it counts for now, unless that is nothing (cancelled free).
 * and marks the lines it takes with it. Under the partnership's row lock, so two statements made at
 * once never take the same line; numbered by the supplier's gapless counter (STL-year-n).
 */
export async function createSettlement(ctx: ResaleCtx, input: TSettlementCreate): Promise<TSettlementDetail> {
  const id = await inTenant(ctx.db, ctx.accountId, (tx) => makeStatement(tx, ctx.accountId, ctx.timeZone, input));
  return settlementDetail(ctx, id);
}

type StatementLine = Omit<typeof settlementLine.$inferInsert, 'settlement_id' | 'supplier_account_id' | 'reseller_account_id' | 'position'>;

/** A resold line at what it counts for now. */
function saleLine(l: q.LineToSettle): StatementLine {
  const c = countedOf(l);
  return {
    kind: 'sale',
    booking_id: l.id,
    order_id: l.order_id,
    order_reference: l.order_reference,
    reseller_reference: l.reseller_reference,
    experience_id: l.experience_id,
    slot_id: l.slot_id,
    store_id: l.store_id,
    items: l.items.map((i) => ({ kind: i.kind, label: i.label, quantity: i.quantity })),
    sold_at: l.sold_at,
    status: l.status,
    seats: l.seats,
    currency: l.currency,
    gross: c.gross,
    commission: c.commission,
    supplier_net: c.supplier_net,
    cancellation_fee: l.cancellation_fee,
  };
}

/** The credit of a line in effect on an earlier statement: its figures negated, the resold line's status now. */
function reversalOf(was: typeof settlementLine.$inferSelect, statusNow: string): StatementLine {
  return {
    ...saleFields(was),
    kind: 'reversal',
    reverses_line_id: was.id,
    status: statusNow,
    seats: -was.seats,
    gross: -was.gross,
    commission: -was.commission,
    supplier_net: -was.supplier_net,
    cancellation_fee: -was.cancellation_fee,
  };
}
const saleFields = ({ booking_id, order_id, order_reference, reseller_reference, experience_id, slot_id, store_id, items, sold_at, currency }: typeof settlementLine.$inferSelect) => ({
  booking_id,
  order_id,
  order_reference,
  reseller_reference,
  experience_id,
  slot_id,
  store_id,
  items,
  sold_at,
  currency,
});

/** The statement's work in the supplier's tenant transaction `tx` (see createSettlement); its id. */
export async function makeStatement(tx: Db, supplierId: string, timeZone: string, input: TSettlementCreate): Promise<string> {
  const ctx = { accountId: supplierId, timeZone };
  const p = await q.lockPartnership(tx, ctx.accountId, input.partnership_id);
  if (!p) {
    const other = await q.partnershipOf(tx, input.partnership_id);
    if (other) throw new AppError('permission_denied', 'Only the supplier makes the statements of a partnership.', 'partnership_id');
    throw new AppError('not_found', 'No partnership with this id.', 'partnership_id');
  }
  if (!p.reseller_account_id) throw new AppError('conflict', 'This partnership was never accepted: it has nothing to settle.', 'partnership_id');
  const changed = await q.changedLines(tx, ctx.accountId, p.id);
  const fresh = await q.unsettledLines(tx, ctx.accountId, p.id, input.period_from, input.period_to);
  const lines: StatementLine[] = [];
  for (const c of changed) {
    if (c.inEffect) lines.push(reversalOf(c.inEffect, c.status));
    const now = countedOf(c);
    if (now.gross !== 0 || now.commission !== 0) lines.push(saleLine(c));
  }
  lines.push(...fresh.map(saleLine));
  if (!lines.length) throw new AppError('conflict', 'Nothing to settle in this period: no line of this partner is unsettled there, and none settled before has changed.', 'period_from');
  const gross = lines.reduce((n, l) => n + l.gross, 0);
  const commission = lines.reduce((n, l) => n + l.commission, 0);
  const supplierNet = gross - commission;
  // The reseller collected: it owes the supplier the net. The supplier collected: it owes the commission.
  const resellerOwes = p.payment_collector === 'reseller' ? supplierNet : -commission;
  const year = Number(todayIn(ctx.timeZone).slice(0, 4));
  const n = await q.takeSettlementNumber(tx, ctx.accountId, year);
  const row = await q.insertSettlement(tx, {
    partnership_id: p.id,
    supplier_account_id: ctx.accountId,
    reseller_account_id: p.reseller_account_id,
    number: settlementNumber(year, n),
    period_from: input.period_from,
    period_to: input.period_to,
    currency: p.currency,
    bookings: lines.length,
    gross,
    commission,
    supplier_net: supplierNet,
    reseller_owes: resellerOwes,
  });
  await q.insertSettlementLines(
    tx,
    lines.map((l, i) => ({ ...l, settlement_id: row.id, supplier_account_id: ctx.accountId, reseller_account_id: p.reseller_account_id!, position: i + 1 })),
  );
  // Each resold line names the statement that settled it last.
  await q.markLines(tx, ctx.accountId, row.id, [...new Set(lines.flatMap((l) => (l.booking_id ? [l.booking_id] : [])))]);
  return row.id;
}

/** Marks a statement settled (final): by the side that receives the money, once. */
export async function settle(ctx: ResaleCtx, id: string): Promise<TSettlementDetail> {
  await inTenant(ctx.db, ctx.accountId, async (tx) => {
    const s = await q.lockSettlement(tx, ctx.accountId, id);
    if (!s) throw notFound('No statement with this id.');
    if (s.status === 'Settled') throw new AppError('conflict', 'This statement is already settled.');
    const payer = payerOf(s.reseller_owes);
    const receiver = payer === 'reseller' ? s.supplier_account_id : payer === 'supplier' ? s.reseller_account_id : s.supplier_account_id;
    if (receiver !== ctx.accountId) throw new AppError('permission_denied', 'The side that receives the money marks the statement settled, once it has it.');
    await q.markSettled(tx, id, ctx.userId);
  });
  return settlementDetail(ctx, id);
}

// --- Exports -----------------------------------------------------------------------------

/**
 * The statement as CSV: a line per stored line (a reversal's kind and the statement it reverses in
 * the last columns), then the totals. Amounts are plain numbers in the
 * currency's major unit with its own decimals (12.50 EUR, 1200 JPY), as the orders export writes them.
 */
export function settlementCsv(s: TSettlementDetail) {
  const major = (n: number) => ({ amount: toMajorText(n, s.currency) });
  const header = ['statement', 'order', 'reseller_reference', 'sold_at', 'offer', 'date', 'time', 'seats', 'status', 'currency', 'gross', 'commission', 'supplier_net', 'kind', 'reverses'];
  const rows: CsvValue[][] = s.lines.map((l) => [
    s.number,
    l.order_reference,
    l.reseller_reference ?? '',
    l.sold_at,
    l.offer.name,
    l.local_date,
    l.local_time,
    l.seats,
    l.status,
    l.currency,
    major(l.gross),
    major(l.commission),
    major(l.supplier_net),
    l.kind,
    l.reverses?.number ?? '',
  ]);
  const total = [s.number, 'TOTAL', '', '', '', s.period_from, s.period_to, s.lines.reduce((n, l) => n + l.seats, 0), s.status, s.currency, major(s.gross), major(s.commission), major(s.supplier_net), '', ''];
  const owes = [s.number, s.reseller_owes >= 0 ? 'RESELLER OWES SUPPLIER' : 'SUPPLIER OWES RESELLER', '', '', '', '', '', '', '', s.currency, major(Math.abs(s.reseller_owes)), '', '', '', ''];
  return csvDocument(header, [...rows, total, owes]);
}

/** The statement as an A4 PDF: both sides, the period, a line per resold line, the totals and who owes whom. */
export async function settlementPdf(s: TSettlementDetail): Promise<Uint8Array> {
  const pdf = await createPdf(PAPER.A4, { title: `Settlement statement ${s.number}`, author: s.supplier.name });
  const { regular: font, bold } = pdf;
  const { left, right, top } = pdf.paper;
  let page = pdf.addPage();
  let y = top;
  const text = (str: string, x: number, size = 10, f: PDFFont = font, align: 'left' | 'right' = 'left') => pdf.text(page, str, x, y, { size, font: f, align });
  const money = (n: number) => documentMoney(n, s.currency);

  text('Settlement statement', left, 16, bold);
  text(s.number, right, 16, bold, 'right');
  y -= 22;
  text(`Supplier: ${s.supplier.name}`, left);
  text(`Period ${s.period_from} to ${s.period_to}`, right, 10, font, 'right');
  y -= 14;
  text(`Reseller: ${s.reseller.name}`, left);
  text(s.status === 'Settled' ? `Settled ${s.settled_at?.slice(0, 10) ?? ''}` : 'Open', right, 10, font, 'right');
  y -= 30;
  const cols = { order: left, offer: left + 85, date: left + 270, gross: 400, commission: 470, net: right };
  const head = () => {
    text('Order', cols.order, 9, bold);
    text('Offer', cols.offer, 9, bold);
    text('Date', cols.date, 9, bold);
    text('Gross', cols.gross, 9, bold, 'right');
    text('Commission', cols.commission, 9, bold, 'right');
    text('Supplier net', cols.net, 9, bold, 'right');
    y -= 14;
  };
  head();
  for (const l of s.lines) {
    if (y < 90) {
      page = pdf.addPage();
      y = top;
      head();
    }
    text(l.order_reference, cols.order, 9);
    text(pdf.fit(`${l.offer.name}${l.kind === 'sale' && l.status === 'Canceled' ? ' (cancellation fee)' : ''}`, 180), cols.offer, 9);
    text(`${l.local_date} ${l.local_time}`, cols.date, 9);
    text(money(l.gross), cols.gross, 9, font, 'right');
    text(money(l.commission), cols.commission, 9, font, 'right');
    text(money(l.supplier_net), cols.net, 9, font, 'right');
    if (l.reverses) {
      y -= 11;
      text(pdf.fit(`Reversal: reverses ${l.reverses.number} (${l.status === 'Canceled' ? 'cancelled' : 'changed'} after it)`, 180, 8), cols.offer, 8);
    }
    y -= 13;
  }
  if (y < 150) {
    page = pdf.addPage();
    y = top;
  }
  y -= 10;
  pdf.rule(page, y + 8);
  text(`Total (${s.bookings} lines)`, left, 10, bold);
  text(money(s.gross), cols.gross, 10, bold, 'right');
  text(money(s.commission), cols.commission, 10, bold, 'right');
  text(money(s.supplier_net), cols.net, 10, bold, 'right');
  y -= 26;
  const owes = s.reseller_owes > 0 ? `${s.reseller.name} owes ${s.supplier.name}` : s.reseller_owes < 0 ? `${s.supplier.name} owes ${s.reseller.name}` : 'Nothing is owed';
  text(owes, left, 12, bold);
  if (s.reseller_owes !== 0) text(money(Math.abs(s.reseller_owes)), right, 12, bold, 'right');
  return pdf.save();
}
