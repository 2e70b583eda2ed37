import { randomBytes } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { cart, order, slot, store } from '../db/schema';
import { daysBefore, depositOf } from '@tourdesk/contracts';
import { addDays, todayIn } from '../lib/local-time';
import { holdAlone } from '../modules/availability/holds';
import { checkout } from '../modules/orders/bookings';
import { recordPayment } from '../modules/orders/service';

/**
 * Deposits (issue 32): the "kayak" store asks for a 20 % deposit online, the rest due 3 days before
 * the departure (its reminder 3 days before that); and one web order, for three adults in fifteen
 * days, whose deposit was paid online: Partially paid, its balance due by a date (on the dashboard's
 * "Balances due" and the manifest). Its payment's Stripe reference is the demo's own (no Stripe
 * account stands behind it: refund it another way).
 */
export async function seedDepositsDemo(tx: Db, accountId: string, kayak: { id: string; adult: string; swim: string }) {
  const rule = { kind: 'percent' as const, value: 2000, balance_due_days: 3 };
  const [shop] = await tx.update(store).set({ deposit: rule, balance_reminder_days: 3 }).where(and(eq(store.account_id, accountId), eq(store.slug, 'kayak'))).returning({ id: store.id });
  if (!shop) return;
  const today = todayIn('Europe/Zurich');
  const [s] = await tx.select().from(slot).where(and(eq(slot.account_id, accountId), eq(slot.experience_id, kayak.id), eq(slot.local_date, addDays(today, 15)), eq(slot.local_time, '09:30')));
  if (!s) return;
  const [c] = await tx.insert(cart).values({ account_id: accountId, store_id: shop.id, token_hash: randomBytes(32).toString('hex') }).returning({ id: cart.id });
  await holdAlone(tx, { accountId, cartId: c!.id }, s.id, { quantities: { [kayak.adult]: 3 }, extras: {} });
  const ctx = { tx, accountId, currency: 'CHF' };
  const orderId = await checkout(ctx, c!.id, null, {
    customer: { email: 'lea.baumann@example.com', first_name: 'Lea', last_name: 'Baumann', phone: '', country: 'CH', marketing_consent: false },
    answers: { [kayak.swim]: 'yes' },
    storeId: shop.id,
    manageTokenHash: randomBytes(32).toString('hex'),
  });
  const [o] = await tx.select({ total: order.total }).from(order).where(eq(order.id, orderId));
  await tx.update(order).set({ balance_due_on: daysBefore(s.local_date, rule.balance_due_days), created_at: sql`now() - interval '3 days'`, updated_at: sql`now() - interval '3 days'` }).where(eq(order.id, orderId));
  await recordPayment(ctx, orderId, { amount: depositOf(o!.total, rule), currency: 'CHF', method: 'online', reference: 'Stripe pi_demo_deposit', provider_ref: 'pi_demo_deposit' });
}
