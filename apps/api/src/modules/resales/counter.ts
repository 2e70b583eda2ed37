import type { TCounterOffer, TCounterOfferSummary, TResaleDetail, TSlot } from '@tourdesk/contracts';
import type { z } from 'zod';
import type { ZCounterSaleInput } from '@tourdesk/contracts';
import type { Db } from '../../db/client';
import { AppError, notFound } from '../../lib/errors';
import { inTenant } from '../../lib/tenancy';
import { availabilityJson } from '../availability/slots';
import type { Jobs } from '../../lib/jobs';
import { mailTickets } from '../order-mail/service';
import { createOrder } from '../orders/service';
import { contractRefusal, planRefusal, sharedOffer } from '../partners/contract';
import { markResale } from '../partners/resale';
import * as q from './queries';
import type { SharedOffer as Shared } from './queries';
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

const summary = (r: Shared): TCounterOfferSummary => ({ id: r.id, title: r.title, partnership_id: r.partnership, supplier: { id: r.supplier, name: r.supplier_name }, currency: r.currency });

export const countCounterOffers = (db: Db, resellerId: string) => q.countSharedOffers(db, resellerId);

export async function counterOffers(db: Db, resellerId: string, limit: number, offset: number): Promise<TCounterOfferSummary[]> {
  const rows = await q.sharedOfferPage(db, resellerId, limit, offset);
  return rows.map(summary);
}

/**
 * The contract under which the reseller may sell `experienceId` now; a 404 for any other offer, a
 * 403 (plan_required) when the supplier's plan or the reseller's lacks partners (`planRefusal`).
 */
async function sharedOffer404(db: Db, resellerId: string, experienceId: string): Promise<Shared> {
  const row = await q.sharedOfferOf(db, resellerId, experienceId);
  if (!row) throw notFound('No partner shares this offer with you.');
  const noPlan = planRefusal({ supplier: row.supplier_partners, reseller: row.reseller_partners });
  if (noPlan) throw new AppError('plan_required', noPlan);
  return row;
}

/** The offer with what its booking form asks, read in the supplier's books. */
export async function counterOffer(db: Db, resellerId: string, experienceId: string): Promise<TCounterOffer> {
  const shared = await sharedOffer404(db, resellerId, experienceId);
  return inTenant(db, shared.supplier, async (tx) => {
    const e = await q.supplierExperience(tx, shared.supplier, experienceId);
    if (!e) throw notFound('No partner shares this offer with you.');
    const [categories, extras, questions] = await Promise.all([
      q.currentCategories(tx, shared.supplier, experienceId),
      e.extra_item_ids.length ? q.extrasByIds(tx, shared.supplier, e.extra_item_ids) : [],
      e.booking_question_ids.length ? q.questionsByIds(tx, shared.supplier, e.booking_question_ids) : [],
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
 * the sale, or the sale sees it), and names the order as this reseller's resale; with
 * `send_confirmation`, queues the customer's confirmation and tickets in the same transaction.
 * Answers the resale as the reseller reads it.
 */
export async function sellAtCounter(seller: Seller, jobs: Jobs, input: z.output<typeof ZCounterSaleInput>): Promise<TResaleDetail> {
  const shared = await sharedOffer404(seller.db, seller.accountId, input.experience);
  const orderId = await inTenant(seller.db, shared.supplier, async (tx) => {
    const ctx = { tx, accountId: shared.supplier, currency: shared.currency };
    const s = await q.departureDay(tx, shared.supplier, input.slot, input.experience);
    if (!s) throw new AppError('invalid', 'This time is not a departure of this offer.', 'slot');
    const contract = await sharedOffer(ctx, shared.partnership, input.experience, String(s.day));
    const order = await createOrder(ctx, { customer: input.customer, lines: [{ slot: input.slot, quantities: input.quantities, extras: input.extras }], answers: input.answers, notes: input.notes }).catch((thrown: unknown) => {
      // The one line's errors name this form's fields: `quantities`, not `lines.0.quantities`.
      if (thrown instanceof AppError) for (const item of thrown.items) item.attr = item.attr?.replace(/^lines\.0\./, '') ?? null;
      throw thrown;
    });
    await markResale(ctx, order.id, contract.contract, { [input.experience]: contract.netRates }, input.reference, { counter: true, sold_by: seller.name });
    // Ticked at the counter: the customer's confirmation and tickets, from the supplier, queued with the sale.
    if (input.send_confirmation) await mailTickets(ctx, jobs, order.id, { again: false });
    return order.id;
  });
  return resaleDetail({ db: seller.db, accountId: seller.accountId, userId: seller.userId, timeZone: seller.timeZone }, orderId);
}
