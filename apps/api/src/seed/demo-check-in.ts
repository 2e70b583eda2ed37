import { and, eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { order, slot } from '../db/schema';
import { addDays, todayIn } from '../lib/local-time';
import { holdAlone, userCart } from '../modules/availability/holds';
import { checkout } from '../modules/orders/bookings';
import { recordPayment } from '../modules/orders/service';
import { presentOrder } from '../modules/orders/records';

/**
 * Check-in's demo: tomorrow's 09:30 kayak has three parties to scan at the pier (Check-in in the
 * menu, the day after today, the 09:30 departure): a family with lunch and a note for the guide, a
 * guest who paid, and a couple who pay on site. Their ticket codes are on their orders' tickets.
 * Scanned today, they are a wrong day (the door admits today's tickets), which the owner may
 * override and the guide may not; tomorrow they check in as they are.
 */
export async function seedCheckInDemo(tx: Db, accountId: string, ownerId: string, kayak: { id: string; adult: string; child: string; swim: string; lunch: string }) {
  const ctx = { tx, accountId, currency: 'CHF', userId: ownerId };
  const date = addDays(todayIn('Europe/Zurich'), 1);
  const [s] = await tx.select().from(slot).where(and(eq(slot.experience_id, kayak.id), eq(slot.local_date, date), eq(slot.local_time, '09:30')));
  if (!s) return;
  const cartRow = await userCart(ctx, ownerId);
  const parties = [
    { email: 'lea.brunner@example.com', first_name: 'Lea', last_name: 'Brunner', quantities: { [kayak.adult]: 2, [kayak.child]: 1 }, extras: { [kayak.lunch]: 3 }, notes: 'Child of 8: bring the small wetsuit.', paid: false },
    { email: 'marco.bianchi@example.com', first_name: 'Marco', last_name: 'Bianchi', quantities: { [kayak.adult]: 1 }, extras: {}, notes: '', paid: true },
    { email: 'hana.novak@example.com', first_name: 'Hana', last_name: 'Novak', quantities: { [kayak.adult]: 2 }, extras: {}, notes: '', paid: false },
  ];
  for (const p of parties) {
    await holdAlone(tx, { accountId, userId: ownerId }, s.id, { quantities: p.quantities, extras: p.extras });
    const made = await presentOrder(ctx, await checkout(ctx, cartRow.id, ownerId, { customer: { email: p.email, first_name: p.first_name, last_name: p.last_name, phone: '+41 79 555 40 40', country: 'CH', marketing_consent: false }, answers: { [kayak.swim]: 'yes' } }));
    if (p.notes) await tx.update(order).set({ notes: p.notes }).where(eq(order.id, made.id));
    if (p.paid) await recordPayment(ctx, made.id, { amount: made.total, currency: 'CHF', method: 'card terminal', reference: 'Terminal 1' });
  }
}
