import { and, eq, inArray, sql } from 'drizzle-orm';
import type { TCounterOffer, TCounterOfferSummary, TResaleDetail, TSlot } from '@tourdesk/contracts';
import type { z } from 'zod';
import type { ZCounterSaleInput } from '@tourdesk/contracts';
import { baseAccount, bookingQuestion, experience, inventoryItem, partnership, partnershipExperience, pricingCategory, pricingRate, slot } from '../../db/schema';
import type { Db } from '../../db/client';
import { AppError, notFound } from '../../lib/errors';
import { inTenant } from '../../lib/tenancy';
import { availabilityJson } from '../availability/slots';
import { createOrder } from '../orders/service';
import { contractRefusal, sharedOffer } from '../partners/contract';
import { markResale } from '../partners/resale';
import { resaleDetail } from './service';

/**
 * A reseller sells its suppliers' shared offers at its own counter (the back office's checkout):
 * the same contract rule as its web store and the partner APIs (`partners/contract.ts`), the same
 * seats (the supplier's one pool), and the same order: the supplier's, booked at once under the
 * contract's lock and named as the reseller's resale with its commission fixed (`markResale`). The
 * reseller cannot open the supplier's order; it reads the sale as its resale.
 *
 * What the reseller may see of a supplier's books is read on the server's connection, filtered
 * by the reseller's Active contracts; everything written happens in the supplier's tenant.
 */

export interface Seller {
  db: Db;
  accountId: string;
  userId: string;
  timeZone: string;
  /** Who sold it (their e-mail), for the supplier's audit trail. */
  name: string;
}

const rowsOf = <T>(r: unknown) => (r as { rows: T[] }).rows;

interface Shared {
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
}

/** The Active offers that the reseller's Active contracts share, with their supplier and contract. */
const sharedWith = (resellerId: string) => sql`
  select x.id, x.title, p.id as partnership, p.supplier_account_id as supplier, a.name as supplier_name, a.time_zone as zone,
    p.currency, p.pricing, p.commission_bp, p.valid_from::text, p.valid_to::text
  from ${partnership} p join ${partnershipExperience} pe on pe.partnership_id = p.id and pe.account_id = p.supplier_account_id
  join ${experience} x on x.id = pe.experience_id and x.account_id = p.supplier_account_id
  join ${baseAccount} a on a.id = p.supplier_account_id
  where p.reseller_account_id = ${resellerId} and p.status = 'Active' and x.status = 'Active'`;

const summary = (r: Shared): TCounterOfferSummary => ({ id: r.id, title: r.title, partnership_id: r.partnership, supplier: { id: r.supplier, name: r.supplier_name }, currency: r.currency });

export async function countCounterOffers(db: Db, resellerId: string) {
  const [row] = rowsOf<{ n: number }>(await db.execute(sql`select count(*)::int as n from (${sharedWith(resellerId)}) o`));
  return Number(row?.n ?? 0);
}

export async function counterOffers(db: Db, resellerId: string, limit: number, offset: number): Promise<TCounterOfferSummary[]> {
  const rows = rowsOf<Shared>(await db.execute(sql`select * from (${sharedWith(resellerId)}) o order by o.supplier_name, o.title, o.id limit ${limit} offset ${offset}`));
  return rows.map(summary);
}

/** The contract under which the reseller may sell `experienceId` now; a 404 for any other offer. */
async function sharedOffer404(db: Db, resellerId: string, experienceId: string): Promise<Shared> {
  const [row] = rowsOf<Shared>(await db.execute(sql`select * from (${sharedWith(resellerId)}) o where o.id = ${experienceId}::uuid order by o.partnership limit 1`));
  if (!row) throw notFound('No partner shares this offer with you.');
  return row;
}

/** The offer with what its booking form asks, read in the supplier's books. */
export async function counterOffer(db: Db, resellerId: string, experienceId: string): Promise<TCounterOffer> {
  const shared = await sharedOffer404(db, resellerId, experienceId);
  return inTenant(db, shared.supplier, async (tx) => {
    const [e] = await tx.select().from(experience).where(and(eq(experience.account_id, shared.supplier), eq(experience.id, experienceId)));
    if (!e) throw notFound('No partner shares this offer with you.');
    const [categories, extras, questions] = await Promise.all([
      tx
        .selectDistinct({ id: pricingCategory.id, label: pricingCategory.label, occupies_seat: pricingCategory.occupies_seat })
        .from(pricingRate)
        .innerJoin(pricingCategory, eq(pricingCategory.id, pricingRate.pricing_category_id))
        .where(and(eq(pricingRate.account_id, shared.supplier), eq(pricingRate.experience_id, experienceId), sql`(${pricingRate.valid_to} is null or ${pricingRate.valid_to} >= current_date)`)),
      e.extra_item_ids.length ? tx.select().from(inventoryItem).where(and(eq(inventoryItem.account_id, shared.supplier), inArray(inventoryItem.id, e.extra_item_ids))) : [],
      e.booking_question_ids.length ? tx.select().from(bookingQuestion).where(and(eq(bookingQuestion.account_id, shared.supplier), inArray(bookingQuestion.id, e.booking_question_ids))) : [],
    ]);
    const inOrder = <T extends { id: string }>(list: T[], ids: string[]) => [...list].sort((a, b) => ids.indexOf(a.id) - ids.indexOf(b.id));
    return {
      ...summary(shared),
      time_zone: shared.zone,
      pricing: shared.pricing,
      commission_bp: shared.commission_bp,
      valid_from: shared.valid_from,
      valid_to: shared.valid_to,
      categories: categories.sort((a, b) => a.label.localeCompare(b.label)),
      extras: inOrder(extras, e.extra_item_ids).map((x) => ({ id: x.id, name: x.name, price: x.price })),
      questions: inOrder(questions, e.booking_question_ids).map((q) => ({ id: q.id, question: q.question, answer_type: q.answer_type as TCounterOffer['questions'][number]['answer_type'], choices: q.choices, required: q.required, per_participant: q.per_participant })),
    };
  });
}

/**
 * The offer's departures between two local dates, from the one definition of seats left and open
 * for sale (`availabilityJson`, the supplier's), on the days the contract is valid.
 */
export async function counterSlots(db: Db, resellerId: string, experienceId: string, from: string, to: string): Promise<TSlot[]> {
  const shared = await sharedOffer404(db, resellerId, experienceId);
  const slots = JSON.parse(await availabilityJson(db, shared.supplier, experienceId, from, to)) as TSlot[];
  return slots.filter((s) => contractRefusal({ status: 'Active', valid_from: shared.valid_from, valid_to: shared.valid_to }, s.local_date) === null);
}

/**
 * Books the line at once in the supplier's books (checked and priced as the supplier's own
 * counter does: `createOrder`), under the contract's lock (`sharedOffer`: a suspension waits for
 * the sale, or the sale sees it), and names the order as this reseller's resale. Answers the
 * resale as the reseller reads it.
 */
export async function sellAtCounter(seller: Seller, input: z.output<typeof ZCounterSaleInput>): Promise<TResaleDetail> {
  const shared = await sharedOffer404(seller.db, seller.accountId, input.experience);
  const orderId = await inTenant(seller.db, shared.supplier, async (tx) => {
    const ctx = { tx, accountId: shared.supplier, currency: shared.currency };
    const [s] = await tx.select({ day: slot.local_date }).from(slot).where(and(eq(slot.account_id, shared.supplier), eq(slot.id, input.slot), eq(slot.experience_id, input.experience)));
    if (!s) throw new AppError('invalid', 'This time is not a departure of this offer.', 'slot');
    const contract = await sharedOffer(ctx, shared.partnership, input.experience, String(s.day));
    const order = await createOrder(ctx, { customer: input.customer, lines: [{ slot: input.slot, quantities: input.quantities, extras: input.extras }], answers: input.answers, notes: input.notes }).catch((thrown: unknown) => {
      // The one line's errors name this form's fields: `quantities`, not `lines.0.quantities`.
      if (thrown instanceof AppError) for (const item of thrown.items) item.attr = item.attr?.replace(/^lines\.0\./, '') ?? null;
      throw thrown;
    });
    await markResale(ctx, order.id, contract.contract, { [input.experience]: contract.netRates }, input.reference, { counter: true, sold_by: seller.name });
    return order.id;
  });
  return resaleDetail({ db: seller.db, accountId: seller.accountId, userId: seller.userId, timeZone: seller.timeZone }, orderId);
}
