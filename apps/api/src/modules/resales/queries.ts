import { and, desc, eq, inArray, isNotNull, isNull, or, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { TResaleListQuery } from '@tourdesk/contracts';
import {
  baseAccount,
  booking,
  bookingQuestion,
  experience,
  inventoryItem,
  invoiceSequence,
  order,
  partnership,
  partnershipExperience,
  pricingCategory,
  pricingRate,
  settlement,
  settlementLine,
  slot,
  store,
  customer,
  users,
} from '../../db/schema';
import type { Db } from '../../db/client';

/**
 * Every database access of resales and settlements. Row selection always runs in the caller's
 * tenant (`inTenant`): the supplier reads its own bookings (tenant_isolation), the reseller the
 * bookings it resold (policy `reseller_read`), and both the partnerships and statements they are a
 * side of. The names of the supplier's things those rows point to (offer, slot, store, customer,
 * the other organisation) are read afterwards by `labelsOf()` on the server's connection, only for
 * the ids the tenant's own query returned — a reseller cannot read the supplier's catalogue.
 */

export interface ResaleScope {
  accountId: string;
  side: 'all' | 'supplier' | 'reseller';
}

/** The resales the caller is a side of. */
export function sideWhere({ accountId, side }: ResaleScope): SQL {
  const asSupplier = and(eq(booking.account_id, accountId), isNotNull(booking.partnership_id))!;
  const asReseller = eq(booking.reseller_account_id, accountId);
  if (side === 'supplier') return asSupplier;
  if (side === 'reseller') return asReseller;
  return or(asSupplier, asReseller)!;
}

const DAYS: Record<string, number> = { '7 days': 7, '30 days': 30, '2 months': 61 };
const STATUS: Record<string, string> = { Confirmed: 'Confirmed', Unconfirmed: 'Created', Canceled: 'Canceled' };

/** The resales of the list's filters (dates in the caller's zone) the caller is a side of. */
export function listWhere(ctx: { accountId: string; timeZone: string }, f: Omit<TResaleListQuery, 'page' | 'page_size'>): SQL {
  const zone = ctx.timeZone;
  return and(
    sideWhere({ accountId: ctx.accountId, side: f.side ?? 'all' }),
    f.partner ? eq(booking.partnership_id, f.partner) : undefined,
    f.offer ? eq(booking.experience_id, f.offer) : undefined,
    f.store ? eq(order.store_id, f.store) : undefined,
    f.status ? eq(booking.status, STATUS[f.status]!) : undefined,
    f.settled === 'yes' ? sql`${booking.settlement_id} is not null` : f.settled === 'no' ? sql`${booking.settlement_id} is null` : undefined,
    f.date_range && f.date_range !== 'all' ? sql`${booking.created_at} >= now() - make_interval(days => ${DAYS[f.date_range]!})` : undefined,
    f.from ? sql`${booking.created_at} >= (${f.from}::date)::timestamp at time zone ${zone}` : undefined,
    f.to ? sql`${booking.created_at} < (${f.to}::date + 1)::timestamp at time zone ${zone}` : undefined,
  )!;
}

export const lineColumns = {
  id: booking.id,
  account_id: booking.account_id,
  order_id: booking.order_id,
  experience_id: booking.experience_id,
  slot_id: booking.slot_id,
  partnership_id: booking.partnership_id,
  reseller_account_id: booking.reseller_account_id,
  status: booking.status,
  items: booking.items,
  seats: booking.seats,
  total: booking.total,
  commission: booking.commission,
  cancellation_fee: booking.cancellation_fee,
  currency: booking.currency,
  created_at: booking.created_at,
  settlement_id: booking.settlement_id,
  settlement_number: settlement.number,
  settlement_status: settlement.status,
  order_reference: order.reference,
  reseller_reference: order.reseller_reference,
  store_id: order.store_id,
};
export type LineRow = Awaited<ReturnType<typeof pageLines>>[number];

/**
 * What a line counts for, in SQL (service.ts countedOf() is the same rule): a line not cancelled its
 * gross and commission; a cancelled one its cancellation fee (0 when cancelled free), no commission.
 */
const counted = {
  gross: sql`case when ${booking.status} = 'Canceled' then ${booking.cancellation_fee} else ${booking.total} end`,
  commission: sql`case when ${booking.status} = 'Canceled' then 0 else ${booking.commission} end`,
};

/** How many lines match, and the sums of what they count for per currency (one aggregate over the same join). */
export function totalsOf(tx: Db, where: SQL) {
  return tx
    .select({
      currency: booking.currency,
      lines: sql<number>`count(*)::int`,
      gross: sql<number>`coalesce(sum(${counted.gross}), 0)::int`,
      commission: sql<number>`coalesce(sum(${counted.commission}), 0)::int`,
    })
    .from(booking)
    .innerJoin(order, eq(order.id, booking.order_id))
    .where(where)
    .groupBy(booking.currency)
    .orderBy(booking.currency);
}

/** A page of lines, newest sale first (booking_partnership_idx / booking_reseller_idx serve it). */
export function pageLines(tx: Db, where: SQL, limit: number, offset: number) {
  return tx
    .select(lineColumns)
    .from(booking)
    .innerJoin(order, eq(order.id, booking.order_id))
    .leftJoin(settlement, eq(settlement.id, booking.settlement_id))
    .where(where)
    .orderBy(desc(booking.created_at), desc(booking.id))
    .limit(limit)
    .offset(offset);
}

/** The lines of one order (the detail), or of one statement. */
export function linesWhere(tx: Db, where: SQL) {
  return tx
    .select(lineColumns)
    .from(booking)
    .innerJoin(order, eq(order.id, booking.order_id))
    .leftJoin(settlement, eq(settlement.id, booking.settlement_id))
    .where(where)
    .orderBy(booking.created_at, booking.id);
}

/** The lines of an order that the caller is a side of. */
export function orderLinesOf(tx: Db, accountId: string, orderId: string) {
  return linesWhere(tx, and(bookingIs.order(orderId), sideWhere({ accountId, side: 'all' }))!);
}

export const bookingIs = {
  order: (id: string) => eq(booking.order_id, id),
};

/** The filter-options: partnerships, offers and stores that occur in the caller's resales. */
export async function occurring(tx: Db, scope: ResaleScope) {
  const where = sideWhere(scope);
  const partners = await tx
    .selectDistinct({ id: booking.partnership_id, supplier: partnership.supplier_account_id, reseller: partnership.reseller_account_id })
    .from(booking)
    .innerJoin(partnership, eq(partnership.id, booking.partnership_id))
    .where(where);
  const offers = await tx.selectDistinct({ id: booking.experience_id }).from(booking).where(where);
  const stores = await tx
    .selectDistinct({ id: order.store_id })
    .from(booking)
    .innerJoin(order, eq(order.id, booking.order_id))
    .where(and(where, isNotNull(order.store_id)));
  return { partners, offers: offers.map((o) => o.id), stores: stores.map((s) => s.id!) };
}

/**
 * Names of the supplier's offers, slots, stores and customers and of organisations, by id, read on
 * the server's connection (outside any tenant) for ids a tenant's query returned.
 */
export async function labelsOf(db: Db, ids: { experiences?: string[]; slots?: string[]; stores?: string[]; accounts?: string[]; customers?: string[]; users?: string[] }) {
  const some = (a?: string[]) => [...new Set(a ?? [])];
  const [experiences, slots, stores, accounts, customers, people] = await Promise.all([
    some(ids.experiences).length ? db.select({ id: experience.id, title: experience.title }).from(experience).where(inArray(experience.id, some(ids.experiences))) : [],
    some(ids.slots).length
      ? db.select({ id: slot.id, starts_at: slot.starts_at, local_date: slot.local_date, local_time: slot.local_time }).from(slot).where(inArray(slot.id, some(ids.slots)))
      : [],
    some(ids.stores).length ? db.select({ id: store.id, name: store.name }).from(store).where(inArray(store.id, some(ids.stores))) : [],
    some(ids.accounts).length
      ? db.select({ id: baseAccount.id, name: baseAccount.name, time_zone: baseAccount.time_zone }).from(baseAccount).where(inArray(baseAccount.id, some(ids.accounts)))
      : [],
    some(ids.customers).length
      ? db.select({ id: customer.id, first_name: customer.first_name, last_name: customer.last_name, email: customer.email, phone: customer.phone }).from(customer).where(inArray(customer.id, some(ids.customers)))
      : [],
    some(ids.users).length ? db.select({ id: users.id, first_name: users.first_name, last_name: users.last_name, email: users.email }).from(users).where(inArray(users.id, some(ids.users))) : [],
  ]);
  return {
    experiences: new Map(experiences.map((e) => [e.id, e.title])),
    slots: new Map(slots.map((s) => [s.id, s])),
    stores: new Map(stores.map((s) => [s.id, s.name])),
    accounts: new Map(accounts.map((a) => [a.id, a])),
    customers: new Map(customers.map((c) => [c.id, c])),
    users: new Map(people.map((u) => [u.id, `${u.first_name} ${u.last_name}`.trim() || u.email])),
  };
}
export type Labels = Awaited<ReturnType<typeof labelsOf>>;

/** A resale order the caller is a side of (RLS: its own, or one it resold). */
export async function resaleOrder(tx: Db, accountId: string, id: string) {
  const [row] = await tx
    .select()
    .from(order)
    .where(and(eq(order.id, id), isNotNull(order.partnership_id), or(eq(order.account_id, accountId), eq(order.reseller_account_id, accountId))));
  return row;
}

// --- Settlements ---------------------------------------------------------------------------

/**
 * The partnership, locked FOR UPDATE in the supplier's tenant: statements of one partnership are
 * made one at a time, so the second sees the first's lines marked and never settles them again.
 * (test/settlements.int.test.ts replaces it by the same query without the lock to show the race.)
 */
export async function lockPartnership(tx: Db, supplierId: string, id: string) {
  const [row] = await tx
    .select()
    .from(partnership)
    .where(and(eq(partnership.id, id), eq(partnership.supplier_account_id, supplierId)))
    .for('update');
  return row;
}

export async function partnershipOf(tx: Db, id: string) {
  const [row] = await tx.select().from(partnership).where(eq(partnership.id, id));
  return row;
}

/** What a statement line stores of a resold line (its figures are computed by the service). */
const toSettle = {
  id: booking.id,
  status: booking.status,
  total: booking.total,
  commission: booking.commission,
  cancellation_fee: booking.cancellation_fee,
  order_id: booking.order_id,
  order_reference: order.reference,
  reseller_reference: order.reseller_reference,
  experience_id: booking.experience_id,
  slot_id: booking.slot_id,
  store_id: order.store_id,
  items: booking.items,
  sold_at: booking.created_at,
  seats: booking.seats,
  currency: booking.currency,
};
export type LineToSettle = Awaited<ReturnType<typeof unsettledLines>>[number];

/**
 * The lines a statement of `partnershipId` over [from, to] takes: not yet on a statement, of a
 * slot whose local date is in the period, Confirmed, or Canceled with a cancellation fee kept.
 */
export function unsettledLines(tx: Db, supplierId: string, partnershipId: string, from: string, to: string) {
  return tx
    .select(toSettle)
    .from(booking)
    .innerJoin(order, eq(order.id, booking.order_id))
    .innerJoin(slot, eq(slot.id, booking.slot_id))
    .where(
      and(
        eq(booking.account_id, supplierId),
        eq(booking.partnership_id, partnershipId),
        isNull(booking.settlement_id),
        sql`${slot.local_date} between ${from}::date and ${to}::date`,
        or(eq(booking.status, 'Confirmed'), and(eq(booking.status, 'Canceled'), sql`${booking.cancellation_fee} > 0`)),
      ),
    )
    .orderBy(booking.id);
}

/**
 * The partnership's lines already on a statement whose figures changed since (cancelled, with or
 * without a fee, or re-priced): what they count for now differs from the sum of their statement
 * lines. Each with the sale line now in effect (`line_*`: the newest one no reversal credits yet),
 * which the next statement reverses.
 */
export async function changedLines(tx: Db, supplierId: string, partnershipId: string) {
  const settled = tx
    .select({
      booking_id: settlementLine.booking_id,
      gross: sql<number>`sum(${settlementLine.gross})::int`.as('settled_gross'),
      commission: sql<number>`sum(${settlementLine.commission})::int`.as('settled_commission'),
    })
    .from(settlementLine)
    .innerJoin(settlement, eq(settlement.id, settlementLine.settlement_id))
    .where(and(eq(settlement.supplier_account_id, supplierId), eq(settlement.partnership_id, partnershipId)))
    .groupBy(settlementLine.booking_id)
    .as('settled');
  const rows = await tx
    .select({ ...toSettle, settled_gross: settled.gross, settled_commission: settled.commission })
    .from(booking)
    .innerJoin(order, eq(order.id, booking.order_id))
    .innerJoin(settled, eq(settled.booking_id, booking.id))
    .where(
      and(
        eq(booking.account_id, supplierId),
        eq(booking.partnership_id, partnershipId),
        isNotNull(booking.settlement_id),
        or(sql`${counted.gross} <> ${settled.gross}`, sql`${counted.commission} <> ${settled.commission}`),
      ),
    )
    .orderBy(booking.created_at, booking.id);
  if (!rows.length) return [];
  const inEffect = await tx
    .select()
    .from(settlementLine)
    .where(
      and(
        inArray(
          settlementLine.booking_id,
          rows.map((r) => r.id),
        ),
        eq(settlementLine.kind, 'sale'),
        sql`not exists (select 1 from ${settlementLine} reversal where reversal.reverses_line_id = ${settlementLine.id})`,
      ),
    );
  const byBooking = new Map(inEffect.map((l) => [l.booking_id, l]));
  return rows.map((r) => ({ ...r, inEffect: byBooking.get(r.id) ?? null }));
}

export async function insertSettlementLines(tx: Db, rows: (typeof settlementLine.$inferInsert)[]) {
  if (rows.length) await tx.insert(settlementLine).values(rows);
}

/** A statement's stored lines in their order, each reversal with the line and statement it reverses. */
export function statementLines(tx: Db, settlementId: string) {
  const reversed = alias(settlementLine, 'reversed');
  const earlier = alias(settlement, 'earlier');
  return tx
    .select({ line: settlementLine, reverses: { line_id: reversed.id, settlement_id: earlier.id, number: earlier.number } })
    .from(settlementLine)
    .leftJoin(reversed, eq(reversed.id, settlementLine.reverses_line_id))
    .leftJoin(earlier, eq(earlier.id, reversed.settlement_id))
    .where(eq(settlementLine.settlement_id, settlementId))
    .orderBy(settlementLine.position);
}
export type StatementLineRow = Awaited<ReturnType<typeof statementLines>>[number];

/** The next statement number of the supplier for `year`: the invoices' gapless counter, series STL. */
export async function takeSettlementNumber(tx: Db, supplierId: string, year: number) {
  const [row] = await tx
    .insert(invoiceSequence)
    .values({ account_id: supplierId, series: 'STL', year, next_number: 2 })
    .onConflictDoUpdate({ target: [invoiceSequence.account_id, invoiceSequence.series, invoiceSequence.year], set: { next_number: sql`${invoiceSequence.next_number} + 1` } })
    .returning({ taken: sql<number>`${invoiceSequence.next_number} - 1` });
  return Number(row!.taken);
}

export async function insertSettlement(tx: Db, values: typeof settlement.$inferInsert) {
  const [row] = await tx.insert(settlement).values(values).returning();
  return row!;
}

export async function markLines(tx: Db, supplierId: string, settlementId: string, ids: string[]) {
  if (!ids.length) return;
  await tx
    .update(booking)
    .set({ settlement_id: settlementId })
    .where(and(eq(booking.account_id, supplierId), inArray(booking.id, ids)));
}

export function settlementWhere(accountId: string, f: { partner?: string; status?: string; id?: string }) {
  return and(
    or(eq(settlement.supplier_account_id, accountId), eq(settlement.reseller_account_id, accountId)),
    f.partner ? eq(settlement.partnership_id, f.partner) : undefined,
    f.status ? eq(settlement.status, f.status) : undefined,
    f.id ? eq(settlement.id, f.id) : undefined,
  )!;
}

export async function countSettlements(tx: Db, where: SQL) {
  const [row] = await tx.select({ n: sql<number>`count(*)::int` }).from(settlement).where(where);
  return Number(row?.n ?? 0);
}

export function settlements(tx: Db, where: SQL, limit: number, offset: number) {
  return tx
    .select()
    .from(settlement)
    .where(where)
    .orderBy(desc(settlement.created_at), desc(settlement.id))
    .limit(limit)
    .offset(offset);
}
export type SettlementRow = Awaited<ReturnType<typeof settlements>>[number];

export async function lockSettlement(tx: Db, accountId: string, id: string) {
  const [row] = await tx.select().from(settlement).where(settlementWhere(accountId, { id })).for('update');
  return row;
}

export async function markSettled(tx: Db, id: string, userId: string | null) {
  await tx.update(settlement).set({ status: 'Settled', settled_at: new Date(), settled_by: userId, updated_at: new Date() }).where(eq(settlement.id, id));
}

// --- the reseller's counter (counter.ts) -------------------------------------------------------

const rowsOf = <T>(r: unknown) => (r as { rows: T[] }).rows;

/** An offer a reseller's Active contract shares, with its supplier and the contract's terms. */
export interface SharedOffer {
  id: string;
  title: string;
  partnership: string;
  supplier: string;
  supplier_name: string;
  zone: string;
  currency: string;
  pricing: 'commission' | 'net_rates';
  commission_bp: number;
  valid_from: string | null;
  valid_to: string | null;
  /** Whether the supplier's plan, and the reseller's, have the partners feature (tourdesk_has_partners): a sale needs both. */
  supplier_partners: boolean;
  reseller_partners: boolean;
}

/** The Active offers that the reseller's Active contracts share, with their supplier, contract and the two plans' partners feature. */
const sharedWith = (resellerId: string) => sql`
  select x.id, x.title, p.id as partnership, p.supplier_account_id as supplier, a.name as supplier_name, a.time_zone as zone,
    p.currency, p.pricing, p.commission_bp, p.valid_from::text, p.valid_to::text,
    tourdesk_has_partners(p.supplier_account_id) as supplier_partners, tourdesk_has_partners(p.reseller_account_id) as reseller_partners
  from ${partnership} p join ${partnershipExperience} pe on pe.partnership_id = p.id and pe.account_id = p.supplier_account_id
  join ${experience} x on x.id = pe.experience_id and x.account_id = p.supplier_account_id
  join ${baseAccount} a on a.id = p.supplier_account_id
  where p.reseller_account_id = ${resellerId} and p.status = 'Active' and x.status = 'Active'`;

/** How many offers the reseller's Active contracts share and both plans let it sell (on the server's connection). */
export async function countSharedOffers(db: Db, resellerId: string) {
  const [row] = rowsOf<{ n: number }>(await db.execute(sql`select count(*)::int as n from (${sharedWith(resellerId)}) o where o.supplier_partners and o.reseller_partners`));
  return Number(row?.n ?? 0);
}

/** A page of the offers the reseller's Active contracts share and both plans let it sell, by supplier and title. */
export async function sharedOfferPage(db: Db, resellerId: string, limit: number, offset: number) {
  return rowsOf<SharedOffer>(await db.execute(sql`select * from (${sharedWith(resellerId)}) o where o.supplier_partners and o.reseller_partners order by o.supplier_name, o.title, o.id limit ${limit} offset ${offset}`));
}

/** The first of the reseller's Active contracts that shares an offer (one both plans let it sell first), or undefined. */
export async function sharedOfferOf(db: Db, resellerId: string, experienceId: string) {
  const [row] = rowsOf<SharedOffer>(await db.execute(sql`select * from (${sharedWith(resellerId)}) o where o.id = ${experienceId}::uuid order by (o.supplier_partners and o.reseller_partners) desc, o.partnership limit 1`));
  return row;
}

/** A supplier's offer, in its books. */
export async function supplierExperience(tx: Db, supplierId: string, experienceId: string) {
  const [e] = await tx.select().from(experience).where(and(eq(experience.account_id, supplierId), eq(experience.id, experienceId)));
  return e;
}

/** The categories an offer has a current rate for. */
export function currentCategories(tx: Db, supplierId: string, experienceId: string) {
  return tx
    .selectDistinct({ id: pricingCategory.id, label: pricingCategory.label, occupies_seat: pricingCategory.occupies_seat })
    .from(pricingRate)
    .innerJoin(pricingCategory, eq(pricingCategory.id, pricingRate.pricing_category_id))
    .where(and(eq(pricingRate.account_id, supplierId), eq(pricingRate.experience_id, experienceId), sql`(${pricingRate.valid_to} is null or ${pricingRate.valid_to} >= tourdesk_today(${supplierId}::uuid))`));
}

/** Some of a supplier's extras (inventory items), by id. */
export function extrasByIds(tx: Db, supplierId: string, ids: string[]) {
  return tx.select().from(inventoryItem).where(and(eq(inventoryItem.account_id, supplierId), inArray(inventoryItem.id, ids)));
}

/** Some of a supplier's booking questions, by id. */
export function questionsByIds(tx: Db, supplierId: string, ids: string[]) {
  return tx.select().from(bookingQuestion).where(and(eq(bookingQuestion.account_id, supplierId), inArray(bookingQuestion.id, ids)));
}

/** The local day of a departure of an offer of the supplier's. */
export async function departureDay(tx: Db, supplierId: string, slotId: string, experienceId: string) {
  const [s] = await tx.select({ day: slot.local_date }).from(slot).where(and(eq(slot.account_id, supplierId), eq(slot.id, slotId), eq(slot.experience_id, experienceId)));
  return s;
}
