import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { giftVoucher, order, slot, store } from '../db/schema';
import { addDays, todayIn } from '../lib/local-time';
import { holdAlone, userCart } from '../modules/availability/holds';
import { cancelVoucher, issueVoucher, redeemVoucher } from '../modules/gift-vouchers/service';
import { checkout } from '../modules/orders/bookings';

/**
 * The demo's gift vouchers (issue 32): the demo store sells them (CHF 50, 100, 200 or an amount of
 * one's own from 20 to 300); a voucher of CHF 150 bought there for a birthday and partly spent at the
 * counter on an order in ten days; one given by staff as compensation, unused; one cancelled.
 */
export async function seedVoucherDemo(tx: Db, accountId: string, ownerId: string, kayak: { id: string; adult: string; swim: string }) {
  await tx.update(store).set({ sells_vouchers: true, voucher_amounts: [5000, 10000, 20000], voucher_min: 2000, voucher_max: 30000 }).where(eq(store.account_id, accountId));
  const ctx = { tx, accountId, currency: 'CHF', userId: ownerId };
  const [shop] = await tx.select({ id: store.id }).from(store).where(eq(store.account_id, accountId)).limit(1);
  const birthday = await issueVoucher(ctx, undefined, {
    value: 15000,
    source: 'store',
    storeId: shop?.id ?? null,
    buyerName: 'Lena Graf',
    buyerEmail: 'lena.graf@example.com',
    recipientName: 'Marco Graf',
    recipientEmail: 'marco.graf@example.com',
    message: 'Happy birthday, Marco — enjoy the lake!',
    language: 'de',
    send: false,
  });
  await tx.update(giftVoucher).set({ delivered_at: sql`now()` }).where(eq(giftVoucher.id, birthday.id));
  await issueVoucher(ctx, undefined, { value: 5000, source: 'staff', recipientName: 'Paul Meier', recipientEmail: 'paul.meier@example.com', reason: 'Compensation: tour cancelled for storm', send: false });
  const mistake = await issueVoucher(ctx, undefined, { value: 2500, source: 'staff', recipientName: 'Test', reason: 'Issued to try it out', send: false });
  await cancelVoucher(ctx, mistake.id, 'Issued by mistake');

  const today = todayIn('Europe/Zurich');
  const [s] = await tx.select().from(slot).where(and(eq(slot.experience_id, kayak.id), eq(slot.local_date, addDays(today, 10)), eq(slot.local_time, '09:30')));
  if (!s) return;
  const cartRow = await userCart(ctx, ownerId);
  await holdAlone(tx, { accountId, userId: ownerId }, s.id, { quantities: { [kayak.adult]: 2 }, extras: {} });
  const orderId = await checkout(ctx, cartRow.id, ownerId, {
    customer: { email: 'marco.graf@example.com', first_name: 'Marco', last_name: 'Graf', phone: '', country: 'CH', marketing_consent: false },
    answers: { [kayak.swim]: 'yes' },
  });
  await redeemVoucher(ctx, { orderId, code: birthday.code, amount: 6000 });
  const at = sql`now() - interval '2 hours'`;
  await tx.update(order).set({ created_at: at, updated_at: at }).where(eq(order.id, orderId));
}
