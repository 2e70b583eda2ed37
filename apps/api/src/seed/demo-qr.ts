import { randomBytes } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { baseAccount, cart, order, partnership, qrCode, qrScanDay, slot, store } from '../db/schema';
import { addDays, todayIn } from '../lib/local-time';
import { holdAlone } from '../modules/availability/holds';
import { checkout } from '../modules/orders/bookings';
import { newCode } from '../modules/qr-codes/service';

/**
 * The demo's QR codes on the "kayak" store: a hotel-desk flyer and a poster for the kayak tour
 * (Summer 2026), and one given to a partner's desk (External), with scans over the last two weeks
 * and a web order the flyer brought (its scan's code kept by the guest cart, then by the order);
 * and, when the demo's reseller exists, a poster leading to its store (a partner's store).
 */
export async function seedQrDemo(tx: Db, accountId: string, kayak: { id: string; adult: string; swim: string }) {
  const zone = 'Europe/Zurich';
  const today = todayIn(zone);
  const [shop] = await tx.select().from(store).where(and(eq(store.account_id, accountId), eq(store.slug, 'kayak')));
  if (!shop) return;
  const codes = [
    { name: 'Hotel desk flyer', campaign: 'Summer 2026', ownership: 'Internal', target: 'store', experience_id: null, days: [3, 5, 2, 0, 4, 6, 1, 3, 2, 5, 4, 2, 3, 1] },
    { name: 'Kayak poster at the harbour', campaign: 'Summer 2026', ownership: 'Internal', target: 'experience', experience_id: kayak.id as string | null, days: [1, 0, 2, 1, 0, 3, 1, 2, 0, 1, 1, 0, 2, 1] },
    { name: 'Tourist office desk', campaign: 'Partners', ownership: 'External', target: 'store', experience_id: null, days: [0, 1, 0, 0, 2, 0, 1, 0, 0, 1, 0, 0, 1, 0] },
  ];
  const made: { id: string }[] = [];
  for (const c of codes) {
    const scans = c.days.reduce((n, d) => n + d, 0);
    const [row] = await tx
      .insert(qrCode)
      .values({
        account_id: accountId,
        code: newCode(),
        name: c.name,
        campaign: c.campaign,
        ownership: c.ownership,
        target: c.target,
        store_id: shop.id,
        experience_id: c.experience_id,
        scans,
        last_scanned_at: sql`now() - interval '3 hours'`,
        created_at: sql`now() - interval '20 days'`,
      })
      .returning({ id: qrCode.id });
    made.push(row!);
    const days = c.days.map((n, i) => ({ account_id: accountId, qr_code_id: row!.id, day: addDays(today, -i), scans: n })).filter((d) => d.scans > 0);
    if (days.length) await tx.insert(qrScanDay).values(days);
  }

  // A poster in the agency's window leads to the agency's own store, which resells the kayak.
  const [agency] = await tx
    .select({ store: store.id, partnership: partnership.id })
    .from(store)
    .innerJoin(baseAccount, eq(baseAccount.id, store.account_id))
    .innerJoin(partnership, and(eq(partnership.reseller_account_id, store.account_id), eq(partnership.supplier_account_id, accountId), eq(partnership.status, 'Active')))
    .where(and(eq(baseAccount.subdomain, 'alpine-agency'), eq(store.slug, 'tours')));
  if (agency) {
    const [poster] = await tx
      .insert(qrCode)
      .values({ account_id: accountId, code: newCode(), name: 'Agency window poster', campaign: 'Partners', ownership: 'External', target: 'partner_store', store_id: agency.store, partnership_id: agency.partnership, scans: 4, last_scanned_at: sql`now() - interval '1 day'`, created_at: sql`now() - interval '10 days'` })
      .returning({ id: qrCode.id });
    await tx.insert(qrScanDay).values([1, 3].map((ago, i) => ({ account_id: accountId, qr_code_id: poster!.id, day: addDays(today, -ago), scans: i + 1 })).concat([{ account_id: accountId, qr_code_id: poster!.id, day: addDays(today, -5), scans: 1 }]));
  }

  // A customer who scanned the hotel flyer books two adults for the day after tomorrow in the store.
  const [s] = await tx.select().from(slot).where(and(eq(slot.account_id, accountId), eq(slot.experience_id, kayak.id), eq(slot.local_date, addDays(today, 2)), eq(slot.local_time, '09:30')));
  if (!s) return;
  const [c] = await tx.insert(cart).values({ account_id: accountId, store_id: shop.id, token_hash: randomBytes(32).toString('hex'), qr_code_id: made[0]!.id }).returning({ id: cart.id });
  await holdAlone(tx, { accountId, cartId: c!.id }, s.id, { quantities: { [kayak.adult]: 2 }, extras: {} });
  const orderId = await checkout({ tx, accountId, currency: 'CHF' }, c!.id, null, {
    customer: { email: 'marco.rossi@example.com', first_name: 'Marco', last_name: 'Rossi', phone: '', country: 'IT', marketing_consent: false },
    answers: { [kayak.swim]: 'yes' },
    storeId: shop.id,
    manageTokenHash: randomBytes(32).toString('hex'),
  });
  const at = sql`now() - interval '2 days'`;
  await tx.update(order).set({ created_at: at, updated_at: at }).where(eq(order.id, orderId));
}
