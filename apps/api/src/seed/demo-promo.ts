import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { order, promoCode, slot } from '../db/schema';
import { addDays, todayIn } from '../lib/local-time';
import { holdAlone, userCart } from '../modules/availability/holds';
import { checkout } from '../modules/orders/bookings';

/**
 * The demo's promo codes (issue 32): SUMMER10 (10 % off, a season's booking window), WELCOME5
 * (CHF 5.00 off orders of CHF 50.00 or more, once per customer) and EARLYBIRD (expired, to show a
 * refusal); and one counter order, in fourteen days, that used SUMMER10 — its discount fixed on its line.
 */
export async function seedPromoDemo(tx: Db, accountId: string, ownerId: string, kayak: { id: string; adult: string; swim: string }) {
  const zone = 'Europe/Zurich';
  const today = todayIn(zone);
  const [summer] = await tx
    .insert(promoCode)
    .values([
      { account_id: accountId, code: 'SUMMER10', description: 'Summer campaign: 10 % off every offer', kind: 'percent', percent_bp: 1000, valid_from: addDays(today, -14), valid_until: addDays(today, 120) },
      { account_id: accountId, code: 'WELCOME5', description: 'Newsletter welcome: CHF 5 off, once per customer', kind: 'amount', amount: 500, min_order: 5000, max_uses_per_customer: 1 },
      { account_id: accountId, code: 'EARLYBIRD', description: 'Last spring’s early booking offer', kind: 'percent', percent_bp: 1500, valid_until: addDays(today, -30), max_uses: 50 },
    ])
    .returning({ id: promoCode.id });
  if (!summer) return;
  const [s] = await tx.select().from(slot).where(and(eq(slot.experience_id, kayak.id), eq(slot.local_date, addDays(today, 14)), eq(slot.local_time, '09:30')));
  if (!s) return;
  const ctx = { tx, accountId, currency: 'CHF', userId: ownerId };
  const cartRow = await userCart(ctx, ownerId);
  await holdAlone(tx, { accountId, userId: ownerId }, s.id, { quantities: { [kayak.adult]: 2 }, extras: {} });
  const orderId = await checkout(ctx, cartRow.id, ownerId, {
    customer: { email: 'hanna.keller@example.com', first_name: 'Hanna', last_name: 'Keller', phone: '', country: 'CH', marketing_consent: false },
    answers: { [kayak.swim]: 'yes' },
    promo_code: 'SUMMER10',
  });
  const at = sql`now() - interval '1 day'`;
  await tx.update(order).set({ created_at: at, updated_at: at }).where(eq(order.id, orderId));
}
