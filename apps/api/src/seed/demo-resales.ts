import { and, eq, inArray, like, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { baseAccount, booking, bookingQuestion, experience, order, partnership, partnershipExperience, pricingCategory, pricingRate, slot, users } from '../db/schema';
import { inTenant } from '../lib/tenancy';
import { addDays, localToUtc, todayIn } from '../lib/local-time';
import { markResale } from '../modules/partners/resale';
import { createOrder } from '../modules/orders/service';
import { writeOrder } from '../modules/orders/records';
import * as settlementQueries from '../modules/resales/queries';
import { makeStatement } from '../modules/resales/service';

const ZONE = 'Europe/Zurich';
const KAYAK = 'Sunrise Kayak on Lake Lucerne';
const REFERENCE = 'ALP-';

/**
 * The demo's resales: the kayak sold by the partner alpine-agency under its contract with `demo`.
 * Last month three tours it sold took place (a settled statement covers them); on the coming days
 * five are booked through the order service (their seats really taken), of which the first two are
 * on an open statement and the rest not settled yet. Each line's commission is fixed by the
 * contract's rule (commissionOf). Runs after the partners' demo; without the partnership (or when
 * its resales exist already) it does nothing.
 */
export async function seedResaleDemo(db: Db): Promise<boolean> {
  // Outside a tenant (the server's role): find both organisations and their contract.
  const accounts = await db.select({ id: baseAccount.id, subdomain: baseAccount.subdomain }).from(baseAccount).where(sql`${baseAccount.subdomain} in ('demo', 'alpine-agency')`);
  const supplier = accounts.find((a) => a.subdomain === 'demo');
  const reseller = accounts.find((a) => a.subdomain === 'alpine-agency');
  if (!supplier || !reseller) return false;
  const [contract] = await db
    .select()
    .from(partnership)
    .where(and(eq(partnership.supplier_account_id, supplier.id), eq(partnership.reseller_account_id, reseller.id), eq(partnership.status, 'Active')));
  if (!contract) return false;
  const [owner] = await db.select({ id: users.id }).from(users).where(eq(users.email, 'owner@demo.tourdesk.test'));
  if (!owner) return false;

  return inTenant(db, supplier.id, async (tx) => {
    const [done] = await tx
      .select({ id: order.id })
      .from(order)
      .where(and(eq(order.account_id, supplier.id), eq(order.partnership_id, contract.id), like(order.reseller_reference, `${REFERENCE}%`)))
      .limit(1);
    if (done) return false;
    const [kayak] = await tx.select().from(experience).where(and(eq(experience.account_id, supplier.id), eq(experience.title, KAYAK)));
    if (!kayak) return false;
    const [shared] = await tx.select().from(partnershipExperience).where(and(eq(partnershipExperience.partnership_id, contract.id), eq(partnershipExperience.experience_id, kayak.id)));
    if (!shared) return false;
    const [adult] = await tx
      .select({ id: pricingCategory.id, label: pricingCategory.label, price: pricingRate.retail_price })
      .from(pricingRate)
      .innerJoin(pricingCategory, eq(pricingCategory.id, pricingRate.pricing_category_id))
      .where(and(eq(pricingRate.account_id, supplier.id), eq(pricingRate.experience_id, kayak.id), eq(pricingCategory.type, 'Adult')))
      .limit(1);
    if (!adult) return false;
    const required = await tx
      .select({ id: bookingQuestion.id })
      .from(bookingQuestion)
      .where(and(eq(bookingQuestion.account_id, supplier.id), inArray(bookingQuestion.id, kayak.booking_question_ids.length ? kayak.booking_question_ids : [kayak.id]), eq(bookingQuestion.required, true)));
    const answers = Object.fromEntries(required.map((q) => [q.id, 'yes']));
    const ctx = { tx, accountId: supplier.id, currency: contract.currency, userId: owner.id };
    const today = todayIn(ZONE);

    const resold = (orderId: string, reference: string) => markResale(ctx, orderId, contract, { [kayak.id]: shared.net_rates }, reference);
    const guests = [
      { email: 'hannah.becker@example.com', first_name: 'Hannah', last_name: 'Becker' },
      { email: 'tom.hughes@example.com', first_name: 'Tom', last_name: 'Hughes' },
      { email: 'claire.dubois@example.com', first_name: 'Claire', last_name: 'Dubois' },
      { email: 'marco.bianchi@example.com', first_name: 'Marco', last_name: 'Bianchi' },
      { email: 'ines.garcia@example.com', first_name: 'Inès', last_name: 'García' },
      { email: 'pieter.devries@example.com', first_name: 'Pieter', last_name: 'de Vries' },
      { email: 'anna.novak@example.com', first_name: 'Anna', last_name: 'Novák' },
      { email: 'oliver.smith@example.com', first_name: 'Oliver', last_name: 'Smith' },
    ];
    let n = 0;
    const customer = () => ({ ...guests[n++ % guests.length]!, phone: '', country: null, marketing_consent: false });

    // Last month: tours that took place. No service sells a past slot, so these are history: the
    // slot is written as it was, and the order by the order service's own writer (figures, VAT, audit).
    const firstOfMonth = `${today.slice(0, 8)}01`;
    const lastMonthStart = `${addDays(firstOfMonth, -1).slice(0, 8)}01`;
    const lastMonthEnd = addDays(firstOfMonth, -1);
    for (const [i, d] of [4, 11, 18].entries()) {
      const date = addDays(lastMonthStart, d);
      const startsAt = localToUtc(date, '09:30', ZONE);
      const [s] = await tx
        .insert(slot)
        .values({ account_id: supplier.id, experience_id: kayak.id, starts_at: startsAt, ends_at: new Date(startsAt.getTime() + (kayak.duration_minutes ?? 120) * 60_000), local_date: date, local_time: '09:30', capacity: 12 })
        .returning();
      const qty = 2 + (i % 2);
      const id = await writeOrder(ctx, {
        userId: owner.id,
        customer: customer(),
        answers,
        lines: [{ slot_id: s!.id, experience_id: kayak.id, quantities: { [adult.id]: qty }, extras: {}, seats: qty, total: qty * adult.price, items: [{ kind: 'category', id: adult.id, label: adult.label, quantity: qty, unit_price: adult.price }], currency: contract.currency }],
      });
      const soldAt = localToUtc(addDays(date, -6), '15:20', ZONE);
      await tx.update(order).set({ created_at: soldAt, updated_at: soldAt }).where(eq(order.id, id));
      await tx.update(booking).set({ created_at: soldAt, updated_at: soldAt }).where(eq(booking.order_id, id));
      await resold(id, `${REFERENCE}${1001 + i}`);
    }

    // The coming days: sold through the order service, so the kayak's seats drop as for any order.
    // Days the browser tests leave alone (they book the kayak on days 5 to 11 and 16 to 19).
    const coming = [
      { day: 2, qty: 2 },
      { day: 3, qty: 3 },
      { day: 4, qty: 2 },
      { day: 12, qty: 4 },
      { day: 13, qty: 2 },
    ];
    for (const [i, c] of coming.entries()) {
      const [s] = await tx
        .select({ id: slot.id })
        .from(slot)
        .where(and(eq(slot.account_id, supplier.id), eq(slot.experience_id, kayak.id), eq(slot.local_date, addDays(today, c.day)), eq(slot.local_time, '09:30')));
      if (!s) continue;
      const made = await createOrder(ctx, { customer: customer(), lines: [{ slot: s.id, quantities: { [adult.id]: c.qty }, extras: {} }], answers, notes: '' });
      await resold(made.id, `${REFERENCE}${1101 + i}`);
    }

    // A settled statement for last month (the side receiving the money confirmed it), and an open one
    // for the next three days' tours.
    const settled = await makeStatement(tx, supplier.id, ZONE, { partnership_id: contract.id, period_from: lastMonthStart, period_to: lastMonthEnd });
    const s = await settlementQueries.lockSettlement(tx, supplier.id, settled);
    // The supplier's owner confirms money it received; what the reseller received, the reseller did (no user of ours).
    await settlementQueries.markSettled(tx, settled, s!.reseller_owes >= 0 ? owner.id : null);
    await makeStatement(tx, supplier.id, ZONE, { partnership_id: contract.id, period_from: today, period_to: addDays(today, 3) });
    return true;
  });
}
